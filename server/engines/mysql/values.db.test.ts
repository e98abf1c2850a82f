import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogTable, EngineAdapter } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { createMysqlDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { mysqlAdapter } from './adapter.ts';
import { openMysql } from './connect.ts';
import { insertReturning, insertWithoutReturning } from './queries.ts';
import { columnOf } from './test-support.ts';
import { mysqlDateTime } from './types.ts';

const options = { statementTimeoutMs: 10_000, poolSize: 3 };

describe('MySQL values', () => {
  let database: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let adapter: EngineAdapter;
  let tables: CatalogTable[];
  const table = () => ({ schema: database.name, name: 'sample' });
  const column = (name: string, tableName = 'sample') => columnOf(tables, tableName, name);
  const decodeRow = (row: Record<string, unknown>, tableName = 'sample') =>
    Object.fromEntries(
      Object.entries(row).map(([name, raw]) => [name, adapter.decodeValue(column(name, tableName), raw)]),
    );

  beforeAll(async () => {
    database = await createMysqlDatabase('mysql_values');
    db = openMysql(database.url, options);
    adapter = mysqlAdapter(db, { name: 'values', ...options });
    await sql`
      create table sample (
        id int not null auto_increment primary key,
        label varchar(100), body longtext, big bigint, price decimal(18,4), ratio double,
        flag tinyint(1), one_bit bit(1), bits bit(12), yr year,
        day date, moment datetime(6), stamp timestamp(6) null, at time(6),
        raw varbinary(16), uid uuid, doc json, status enum('new', 'done')
      )`.execute(db);
    await sql`create table keyed_by_uuid (uid uuid not null default uuid() primary key, label varchar(10))`.execute(
      db,
    );
    await sql`create table keyed_by_bytes (uid binary(16) not null default (unhex(replace(uuid(), '-', ''))) primary key, label varchar(10))`.execute(
      db,
    );
    await sql`create table pair (a int not null, b varchar(5) not null default 'x', note varchar(10), primary key (a, b))`.execute(
      db,
    );
    tables = await adapter.readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('sets the session to UTC and the statement timeout', async () => {
    const { rows } = await sql<
      Record<string, unknown>
    >`select @@session.time_zone as zone, @@session.max_statement_time as limit_seconds`.execute(db);
    expect(rows[0]).toEqual({ zone: '+00:00', limit_seconds: 10 });
  });

  it('decodes what the driver reads without losing anything', async () => {
    await sql`
      insert into sample (label, body, big, price, ratio, flag, one_bit, bits, yr, day, moment, stamp, at, raw, uid, doc, status)
      values ('Ünïcödé 😀 日本', repeat('x', 70000), 9007199254740993, 12345678901234.5678, 1.5, 1, b'1', 2748, 2024,
              '2024-02-29', '2024-02-29 13:14:15.123456', '2024-02-29 13:14:15.654321', '23:59:59.000001',
              x'0001027fff', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '{"n": 9007199254740993, "s": "é"}', 'done')`.execute(
      db,
    );
    await sql`insert into sample (big, price, flag, one_bit, bits) values (42, 0.9, 0, b'0', 0)`.execute(db);
    await sql`insert into sample () values ()`.execute(db);
    const { rows } = await sql<Record<string, unknown>>`select * from sample order by id`.execute(db);
    expect(rows.map((row) => decodeRow(row))).toEqual([
      {
        id: 1,
        label: 'Ünïcödé 😀 日本',
        body: 'x'.repeat(70000),
        big: '9007199254740993',
        price: '12345678901234.5678',
        ratio: 1.5,
        flag: true,
        one_bit: true,
        bits: 2748,
        yr: 2024,
        day: '2024-02-29',
        moment: '2024-02-29T13:14:15.123456',
        stamp: '2024-02-29T13:14:15.654321Z',
        at: '23:59:59.000001',
        raw: Buffer.from([0, 1, 2, 0x7f, 0xff]).toString('base64'),
        uid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
        doc: '{"n": 9007199254740993, "s": "é"}',
        status: 'done',
      },
      {
        id: 2,
        label: null,
        body: null,
        big: 42,
        price: '0.9000',
        ratio: null,
        flag: false,
        one_bit: false,
        bits: 0,
        yr: null,
        day: null,
        moment: null,
        stamp: null,
        at: null,
        raw: null,
        uid: null,
        doc: null,
        status: null,
      },
      expect.objectContaining({ id: 3, label: null, big: null, flag: null, moment: null, raw: null }),
    ]);
  });

  it('turns ISO date-times into the UTC text MySQL accepts', () => {
    expect(mysqlDateTime('2024-03-01T10:00:00.123456+02:00')).toBe('2024-03-01 08:00:00.123456');
    expect(mysqlDateTime('2024-03-01T01:30:00-0130')).toBe('2024-03-01 03:00:00');
    expect(mysqlDateTime('2024-01-01T00:30:00+01:00')).toBe('2023-12-31 23:30:00');
    expect(mysqlDateTime('2024-03-01T10:00:00Z')).toBe('2024-03-01 10:00:00');
    expect(mysqlDateTime('2024-03-01T10:00')).toBe('2024-03-01 10:00:00');
    expect(mysqlDateTime('2024-03-01')).toBe('2024-03-01');
    expect(mysqlDateTime('10:11:12.5')).toBe('10:11:12.5');
  });

  it('encodes wire values and inserts a row, answering the AUTO_INCREMENT key', async () => {
    const wire: Record<string, string | number | boolean | Buffer> = {
      label: 'añadido ✓',
      big: '9007199254740993',
      price: '-0.0001',
      ratio: 2.25,
      flag: true,
      one_bit: true,
      bits: 4095,
      yr: 1999,
      day: '2020-01-02',
      moment: '2024-03-01T10:00:00.123456+02:00',
      stamp: '2024-03-01T23:59:59.999999Z',
      at: '08:09:10.5',
      raw: Buffer.from([255, 0, 1]),
      uid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12',
      doc: '[1, 2]',
      status: 'new',
    };
    const values = Object.fromEntries(
      Object.entries(wire).map(([name, value]) => [name, adapter.encodeValue(column(name), value)]),
    );
    expect(values.flag).toBe(1);
    expect(values.bits).toBe(4095);
    expect(values.moment).toBe('2024-03-01 08:00:00.123456');
    const key = await adapter.insertRow(db, table(), values, ['id']);
    expect(key).toEqual({ id: 4 });
    const { rows } = await sql<Record<string, unknown>>`select * from sample where id = ${key.id}`.execute(
      db,
    );
    expect(decodeRow(rows[0] ?? {})).toEqual({
      id: 4,
      label: 'añadido ✓',
      body: null,
      big: '9007199254740993',
      price: '-0.0001',
      ratio: 2.25,
      flag: true,
      one_bit: true,
      bits: 4095,
      yr: 1999,
      day: '2020-01-02',
      moment: '2024-03-01T08:00:00.123456',
      stamp: '2024-03-01T23:59:59.999999Z',
      at: '08:09:10.500000',
      raw: Buffer.from([255, 0, 1]).toString('base64'),
      uid: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12',
      doc: '[1, 2]',
      status: 'new',
    });
    expect(adapter.encodeValue(column('flag'), false)).toBe(0);
    expect(adapter.encodeValue(column('one_bit'), false)).toBe(0);
    expect(adapter.encodeValue(column('bits'), '9007199254740993')).toBe(9007199254740993n);
  });

  it('answers keys filled in by defaults, with RETURNING (MariaDB) and without it (MySQL)', async () => {
    const byUuid = { schema: database.name, name: 'keyed_by_uuid' };
    const returned = await adapter.insertRow(db, byUuid, { label: 'a' }, ['uid']);
    expect(String(returned.uid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const made = await insertWithoutReturning(db, byUuid, { label: 'b' }, ['uid']);
    expect(String(made.uid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const { rows } = await sql<
      Record<string, unknown>
    >`select uid, label from keyed_by_uuid order by label`.execute(db);
    expect(rows.map((r) => [r.uid, r.label])).toEqual([
      [returned.uid, 'a'],
      [made.uid, 'b'],
    ]);

    const byBytes = { schema: database.name, name: 'keyed_by_bytes' };
    const bytes = await insertWithoutReturning(db, byBytes, { label: 'c' }, ['uid']);
    expect(Buffer.isBuffer(bytes.uid) && bytes.uid.length).toBe(16);
    const stored = await sql<
      Record<string, unknown>
    >`select label from keyed_by_bytes where uid = ${bytes.uid}`.execute(db);
    expect(stored.rows).toEqual([{ label: 'c' }]);

    const pair = { schema: database.name, name: 'pair' };
    expect(await insertWithoutReturning(db, pair, { a: 7, note: 'n' }, ['a', 'b'])).toEqual({ a: 7, b: 'x' });
    expect(await insertReturning(db, pair, { a: 8 }, ['a', 'b'])).toEqual({ a: 8, b: 'x' });
    const sampleKey = await insertWithoutReturning(db, table(), { label: 'no returning' }, ['id']);
    expect(sampleKey).toEqual({ id: 5 });
    expect(await insertReturning(db, table(), {}, ['id'])).toEqual({ id: 6 });
  });
});
