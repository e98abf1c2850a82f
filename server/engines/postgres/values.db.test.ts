import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import { columnDefault } from '#server/engines/column-defaults.ts';
import type { CatalogTable, EngineAdapter } from '#server/engines/adapter.ts';
import { defaultEngineOptions, type DynamicSchema } from '#server/engines/engine.ts';
import { checkValue } from '#server/engines/wire-values.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { postgresAdapter } from './adapter.ts';
import { openPostgres } from './connect.ts';
import { isoPointInTime } from './types.ts';

/* Values through the pool's parsers and decodeValue: exact wire values, and writes that answer their keys. */

let database: TestDatabase;
let db: Kysely<DynamicSchema>;
let adapter: EngineAdapter;
let table: CatalogTable;

const columnOf = (name: string): Column => {
  const found = table.columns.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${name}`);
  const { defaultLiteral, ...column } = found;
  return {
    ...column,
    ...columnDefault(column, defaultLiteral),
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isPrimaryKey: name === 'id',
  };
};

/** Selects one row through the adapter's Kysely and decodes every column. */
async function decodedRow(id: unknown): Promise<Record<string, unknown>> {
  const result = await sql<
    Record<string, unknown>
  >`select * from ${sql.id('public', 'sample')} where id = ${id}`.execute(db);
  const raw = result.rows[0];
  if (!raw) throw new Error(`no row ${String(id)}`);
  return Object.fromEntries(
    table.columns.map((c) => [c.name, adapter.decodeValue(columnOf(c.name), raw[c.name])]),
  );
}

beforeAll(async () => {
  database = await createPostgresDatabase();
  db = openPostgres(database.url, defaultEngineOptions);
  adapter = postgresAdapter(db, defaultEngineOptions, 'values');
  await sql`
    create table sample (
      id int generated always as identity primary key,
      name varchar(20),
      notes text,
      small smallint,
      whole integer,
      big bigint,
      ratio real,
      precise double precision,
      amount numeric(18, 4),
      any_number numeric,
      cash money,
      born date,
      at_local timestamp,
      at_utc timestamptz,
      alarm time,
      alarm_tz timetz,
      span interval,
      flag boolean,
      one_bit bit(1),
      bits bit(4),
      data bytea,
      uid uuid default gen_random_uuid(),
      doc jsonb,
      tags text[],
      scores int[],
      doubled numeric(19, 4) generated always as (amount * 2) stored
    )`.execute(db);
  table = (await adapter.readCatalog())[0] as CatalogTable;
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('decodeValue', () => {
  it('answers exact wire values for every type, unicode and microseconds included', async () => {
    const [row] = (
      await sql<{ id: number }>`
        insert into sample (name, notes, small, whole, big, ratio, precise, amount, any_number, cash, born, at_local,
          at_utc, alarm, alarm_tz, span, flag, one_bit, bits, data, uid, doc, tags, scores)
        values ('Zoë 😀', ${'multi\nline ✓'}, -32768, 2147483647, 9007199254740993, 1.5, 0.1, 12345678901234.5678,
          '123456789012345678901234567890.123456789', '-1234.56', '2024-02-29', '2024-01-02 03:04:05.123456',
          '2024-01-02 03:04:05.123456+05:30', '23:59:59.999999', '03:04:05+05:30', '1 day 02:03:04', true, B'1',
          B'1010', ${Buffer.from([0, 1, 2, 253, 254, 255])}, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
          '{"b": 1, "a": [true, null]}', '{"x", "y z"}', '{1,2,3}')
        returning id`.execute(db)
    ).rows;
    expect(await decodedRow(row?.id)).toEqual({
      id: row?.id,
      name: 'Zoë 😀',
      notes: 'multi\nline ✓',
      small: -32768,
      whole: 2147483647,
      big: '9007199254740993',
      ratio: 1.5,
      precise: 0.1,
      amount: '12345678901234.5678',
      any_number: '123456789012345678901234567890.123456789',
      cash: '-1234.56',
      born: '2024-02-29',
      at_local: '2024-01-02T03:04:05.123456',
      at_utc: '2024-01-01T21:34:05.123456+00:00',
      alarm: '23:59:59.999999',
      alarm_tz: '03:04:05+05:30',
      span: '1 day 02:03:04',
      flag: true,
      one_bit: true,
      bits: '1010',
      data: Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64'),
      uid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      doc: '{"a": [true, null], "b": 1}',
      tags: '{x,"y z"}',
      scores: '{1,2,3}',
      doubled: '24691357802469.1356',
    });
  });

  it('answers NULL as null in every column, and safe bigints as numbers', async () => {
    const [row] = (
      await sql<{ id: number }>`insert into sample (big, uid) values (42, null) returning id`.execute(db)
    ).rows;
    const decoded = await decodedRow(row?.id);
    expect(decoded.big).toBe(42);
    expect(
      Object.entries(decoded).filter(([name, value]) => value !== null && name !== 'id' && name !== 'big'),
    ).toEqual([]);
  });

  it('keeps float specials and out-of-range dates readable', async () => {
    const [row] = (
      await sql<{
        id: number;
      }>`insert into sample (ratio, precise, at_utc, born) values ('NaN', '-Infinity', 'infinity', '0044-03-15 BC') returning id`.execute(
        db,
      )
    ).rows;
    const decoded = await decodedRow(row?.id);
    expect([decoded.ratio, decoded.precise, decoded.at_utc, decoded.born]).toEqual([
      'NaN',
      '-Infinity',
      'infinity',
      '0044-03-15 BC',
    ]);
  });

  it('normalises PostgreSQL timestamps to ISO 8601 that the wire check accepts back', () => {
    expect(isoPointInTime('2024-01-02 03:04:05+00')).toBe('2024-01-02T03:04:05+00:00');
    expect(isoPointInTime('2024-01-02 03:04:05.5-03:30')).toBe('2024-01-02T03:04:05.5-03:30');
    expect(isoPointInTime('2024-01-02 03:04:05')).toBe('2024-01-02T03:04:05');
    expect(isoPointInTime('0044-03-15 12:00:00 BC')).toBe('0044-03-15 12:00:00 BC');
    // The quick path and the regular expression agree on every shape, and leave what is not one alone.
    for (const [text, iso] of [
      ['2024-01-02 03:04:05.123456', '2024-01-02T03:04:05.123456'],
      ['2024-01-02 03:04:05-07', '2024-01-02T03:04:05-07:00'],
      ['2024-01-02 03:04:05.1+00', '2024-01-02T03:04:05.1+00:00'],
      ['2024-01-02 03:04:05+05:30', '2024-01-02T03:04:05+05:30'],
      ['12024-01-02 03:04:05+00', '12024-01-02T03:04:05+00:00'],
      ['2024-01-02 03:04:05.+00', '2024-01-02 03:04:05.+00'],
      ['2024-01-02 03:04:05+0', '2024-01-02 03:04:05+0'],
      ['2024-01-02 03:04:05 BC', '2024-01-02 03:04:05 BC'],
      ['2024-01-02 03:04:0x+00', '2024-01-02 03:04:0x+00'],
      ['infinity', 'infinity'],
    ])
      expect(isoPointInTime(text!), text).toBe(iso);
    const at = columnOf('at_utc');
    expect(checkValue(at, isoPointInTime('2024-01-02 03:04:05.123456+00'))).toBe(
      '2024-01-02T03:04:05.123456+00:00',
    );
  });
});

describe('encodeValue and insertRow', () => {
  it('inserts checked wire values and answers the generated keys', async () => {
    const wire: Record<string, string | number | boolean> = {
      name: 'Ünïcode',
      big: '9007199254740993',
      amount: '12345678901234.5678',
      cash: '1234.5',
      born: '2024-02-29',
      at_local: '2024-01-02T03:04:05.123456',
      at_utc: '2024-01-02T03:04:05.654321+02:00',
      alarm: '12:00:00',
      flag: false,
      one_bit: true,
      data: Buffer.from('hello').toString('base64'),
      doc: '{"k": "v"}',
      tags: '{a,b}',
    };
    const values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(wire)) {
      const column = columnOf(name);
      const checked = checkValue(column, value);
      if (checked === null) throw new Error(`${name} checked to null`);
      values[name] = adapter.encodeValue(column, checked);
    }
    expect(values.one_bit).toBe('1');
    expect(values.flag).toBe(false);
    expect(Buffer.isBuffer(values.data)).toBe(true);

    const keys = await adapter.insertRow(db, { schema: 'public', name: 'sample' }, values, ['id', 'uid']);
    expect(Object.keys(keys)).toEqual(['id', 'uid']);
    expect(typeof keys.id).toBe('number');
    expect(keys.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const row = await decodedRow(keys.id);
    expect(row).toMatchObject({
      name: 'Ünïcode',
      big: '9007199254740993',
      amount: '12345678901234.5678',
      cash: '1234.50',
      born: '2024-02-29',
      at_local: '2024-01-02T03:04:05.123456',
      at_utc: '2024-01-02T01:04:05.654321+00:00',
      alarm: '12:00:00',
      flag: false,
      one_bit: true,
      data: Buffer.from('hello').toString('base64'),
      doc: '{"k": "v"}',
      tags: '{a,b}',
      doubled: '24691357802469.1356',
    });
  });

  it('inserts a row of defaults and inserts within a transaction', async () => {
    const keys = await adapter.insertRow(db, { schema: 'public', name: 'sample' }, {}, ['id']);
    expect(typeof keys.id).toBe('number');
    const inTransaction = await db
      .transaction()
      .execute((trx) => adapter.insertRow(trx, { schema: 'public', name: 'sample' }, { name: 'tx' }, []));
    expect(inTransaction).toEqual({});
    const count = await sql<{ n: string }>`select count(*) as n from sample where name = 'tx'`.execute(db);
    expect(count.rows[0]?.n).toBe('1');
  });

  it('lets PostgreSQL refuse an explicit value for a GENERATED ALWAYS identity', async () => {
    const attempt = adapter.insertRow(db, { schema: 'public', name: 'sample' }, { id: 999 }, ['id']);
    await expect(attempt).rejects.toMatchObject({ code: '428C9' });
  });
});
