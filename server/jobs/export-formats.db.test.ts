import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectDatabase } from '#server/engines/connect.ts';
import type { CellValue, Table } from '#common/contract/sql.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { csvHeader, csvRecords, sheetName } from './export-formats.ts';
import { downloadName } from './export-files.ts';

/*
 * PostgreSQL's COPY writes the CSV itself where it can (engines/postgres/stream.ts), and MySQL's is written from
 * the cells' raw bytes (engines/mysql/csv-records.ts): their bytes must be exactly what csv-stringify makes of the same rows read through the
 * cursor, for every type they are used for, including the awkward values of each and text that starts like a
 * formula (quoted the same way on both paths, engines/formula-cells.ts).
 */

/** The CSV the engine writes and the CSV csv-stringify makes of the rows, with the rows each counted. */
async function bothWays(engine: DatabaseEngine, schema: string, name: string, filter = {}) {
  const table = await engine.table(schema, name);
  const copied = engine.streamCsv(table, { filter, orderBy: 'id' });
  expect(copied).not.toBeNull();
  const chunks: Uint8Array[] = [];
  let rows = 0;
  for await (const chunk of copied!) {
    chunks.push(Buffer.from(chunk.bytes)); // a copy: the writer reuses its buffer
    rows += chunk.rows;
  }
  let cursor = '';
  let cursorRows = 0;
  for await (const chunk of engine.streamRows(table, { filter, orderBy: 'id' }, { chunkSize: 2 })) {
    cursor += csvRecords(engine.kind, table, chunk);
    cursorRows += chunk.length;
  }
  return { copy: Buffer.concat(chunks).toString('utf8'), cursor, rows, cursorRows };
}

/** The engine's CSV of the whole table equals the rows' CSV, counts `rows`, and shows DBUI's wire forms (the
 * fragments), not the engine's own. */
async function expectSameCsv(
  engine: DatabaseEngine,
  schema: string,
  name: string,
  rows: number,
  fragments: string[],
) {
  const both = await bothWays(engine, schema, name);
  expect(both.cursorRows).toBe(rows);
  expect(both.rows).toBe(rows);
  expect(both.copy).toBe(both.cursor);
  for (const fragment of fragments) expect(both.cursor).toContain(fragment);
}

describe('CSV through COPY equals CSV through the cursor, byte for byte', () => {
  let database: TestDatabase;
  let engine: DatabaseEngine;

  beforeAll(async () => {
    database = await createPostgresDatabase('copy');
    engine = await connectDatabase('copy', 'postgres', database.url);
    await sql`create type mood as enum ('sad', 'ok', 'happy, "very"', '=cmd')`.execute(engine.db);
    await sql`create table copy_types (
      id int primary key, t text, vc varchar(20), ch char(5), b bool, bit1 bit(1), bits bit(4), by bytea,
      i2 smallint, i8 bigint, num numeric(20,5), num_free numeric, m money, d date, ts timestamp(3), tstz timestamptz,
      tm time, tmtz timetz, iv interval, u uuid, j jsonb, arr int[], tarr text[], e mood)`.execute(engine.db);
    await sql`insert into copy_types (id) values (1)`.execute(engine.db);
    await sql`insert into copy_types values (2, 'plain', 'x', 'ab', true, B'1', B'1010', '\\x00ff22', 32767,
      9223372036854775807, 123456789012345.12345, 'NaN', 1234567.89, '2024-02-29', '2024-01-02 03:04:05.123',
      '2024-01-02 03:04:05.123456+00', '23:59:59.999999', '03:04:05+05:30', '1 year 2 mons 3 days 04:05:06',
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"a": "b, \\"c\\"", "n": [1, 2.5]}', '{1,2,NULL}',
      '{"x,y","q\\"uote"}', 'happy, "very"')`.execute(engine.db);
    await sql`insert into copy_types values (3, ${'line1\nline2\r\nline3\rend'}, '', 'a', false, B'0', B'0000',
      ${Buffer.alloc(200, 7)}, -32768, -9223372036854775808, -0.5, '1e-20', -12.34, '0044-03-15 BC',
      '-infinity', 'infinity', '00:00:00', '00:00:00-03', '-1 days', '00000000-0000-0000-0000-000000000000',
      '[]', '{}', '{}', 'sad')`.execute(engine.db);
    await sql`insert into copy_types values (4, ${'\\.'}, ${'comma, and "quotes"'}, null, null, null, null,
      ${Buffer.alloc(0)}, 0, 9007199254740993, 0, 10, 0, 'infinity', '0001-01-01 00:00:00 BC',
      '12345-06-07 08:09:10+00', '12:00', '12:00:00+14', '0', null, 'null', '{{1,2},{3,4}}', '{NULL,""}', 'ok')`.execute(
      engine.db,
    );
    await sql`insert into copy_types (id, t, ts, tstz) values (5, ${'ünïcødé 日本 🎉'}, '9999-12-31 23:59:59.999',
      '1000-01-01 00:00:00+00')`.execute(engine.db);
    // Formulas (OWASP CSV injection) in every kind of text column, beside negative numbers that stay numbers.
    await sql`insert into copy_types (id, t, vc, ch, i2, i8, num, m, iv, j, tarr, e) values (6,
      ${'=HYPERLINK("http://x","y")'}, ${'+1,2'}, ${'-2'}, -5, -9223372036854775807, -1.5, -3, '-2 days',
      '-5', ${'{"=x"}'}, '=cmd')`.execute(engine.db);
    await sql`insert into copy_types (id, t, vc, ch) values (7, ${'@SUM(A1)'}, ${'\tx'}, ${'\rx'})`.execute(
      engine.db,
    );
    await sql`insert into copy_types (id, t, vc, ch) values (8, ${'\r\n=1'}, ${'-'}, ${"'=q"})`.execute(
      engine.db,
    );
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  it('for text, numbers, money, booleans, bits, binary, dates, times, intervals, uuid, json, arrays and enums', async () => {
    await expectSameCsv(engine, 'public', 'copy_types', 8, [
      '2024-01-02T03:04:05.123456+00:00',
      '03:04:05+05:30',
      Buffer.alloc(200, 7).toString('base64'),
      ',true,true,1010,',
      '1234567.89',
      '0044-03-15 BC',
      '12345-06-07T08:09:10+00:00',
      '\n4,\\.,"comma, and ""quotes""",',
      // Formula-like text quoted (char(5) keeps its padding), negative numbers and intervals' own forms untouched.
      `\n6,"'=HYPERLINK(""http://x"",""y"")","'+1,2",'-2   ,`,
      ',-5,-9223372036854775807,-1.50000,',
      ",'-2 days,,'-5,,{=x},'=cmd\n",
      `\n7,'@SUM(A1),'\tx,"'\rx   ",`,
      `\n8,"'\r\n=1",'-,'=q  ,`,
    ]);
  });

  it('writes floats as JavaScript does; is not used with bound values (COPY takes none)', async () => {
    await sql`create table with_float (id int primary key, ratio float8, small float4)`.execute(engine.db);
    await sql`insert into with_float values (1, 1e-7, 0.1), (2, 1e21, 3.4e38), (3, -0.000123456789012345, -1.5),
      (4, 0.1 + 0.2, 1e-30), (5, 'NaN', 'Infinity'), (6, '-Infinity', null)`.execute(engine.db);
    await engine.catalog({ refresh: true });
    const floats = await bothWays(engine, 'public', 'with_float');
    expect(floats.rows).toBe(6);
    expect(floats.copy).toBe(floats.cursor);
    expect(floats.copy.startsWith('1,1e-7,0.1\n2,1e+21,3.4e+38\n')).toBe(true);
    await sql`create index copy_types_t on copy_types (t)`.execute(engine.db);
    const table = await engine.catalog({ refresh: true }).then(() => engine.table('public', 'copy_types'));
    expect(engine.streamCsv(table, { filter: { t: 'pl' } })).toBeNull();
    expect(engine.streamCsv(table, { filter: { t: '' } })).not.toBeNull();
  });

  it('the header is the column names as a CSV record', async () => {
    const table = await engine.table('public', 'copy_types');
    expect(csvHeader(table)).toBe(`${table.columns.map((c) => c.name).join(',')}\n`);
  });
});

/** The JSON Lines the engine writes, and JSON.stringify of the rows read through the cursor (as jsonLines in
 * export-formats.ts makes them), each with its row count. */
async function bothJsonLines(engine: DatabaseEngine, table: Table, filter: Record<string, string>) {
  const written = engine.streamJsonLines(table, { filter, orderBy: 'id' });
  expect(written).not.toBeNull();
  const chunks: Uint8Array[] = [];
  let rows = 0;
  for await (const chunk of written!) {
    expect(chunk.rows).toBeGreaterThan(0);
    chunks.push(Buffer.from(chunk.bytes)); // a copy: the writer reuses its buffer
    rows += chunk.rows;
  }
  let expected = '';
  let expectedRows = 0;
  for await (const chunk of engine.streamRows(table, { filter, orderBy: 'id' }, { chunkSize: 500 })) {
    for (const row of chunk) {
      const ordered: Record<string, CellValue> = {};
      for (const column of table.columns) ordered[column.name] = row[column.name] ?? null;
      expected += `${JSON.stringify(ordered)}\n`;
    }
    expectedRows += chunk.length;
  }
  return { written: Buffer.concat(chunks).toString('utf8'), rows, expected, expectedRows };
}

describe('PostgreSQL JSON Lines written from COPY text equal JSON.stringify of the rows, byte for byte', () => {
  let database: TestDatabase;
  let engine: DatabaseEngine;
  const nasty = [
    '',
    '"',
    '\\',
    '\\\\N',
    '\\N',
    '\\.',
    'a\tb\nc\r\nd\re',
    '\b\f\v\x01\x1f\x7f',
    'say "hi" \\ \\"there\\"',
    '🎉 ünïcødé 日本 \u2028\u2029',
    '\t',
    '\n',
    ' ',
    '{"x": 1}',
    'null',
  ];

  beforeAll(async () => {
    database = await createPostgresDatabase('jsonl');
    engine = await connectDatabase('jsonl', 'postgres', database.url);
    await sql`create type mood as enum ('sad', 'ok', 'with "quotes"\ttab')`.execute(engine.db);
    await sql`create table json_types (
      id int primary key, tag text, t text, vc varchar(40), ch char(5), e mood, b bool, bit1 bit(1), bits bit(4),
      vb varbit, by bytea, photo bytea, i2 smallint, i4 int, i8 bigint, o oid, num numeric(20,5), num_free numeric,
      m money, f4 real, f8 double precision, d date, ts timestamp, ts3 timestamp(3), tstz timestamptz, tm time,
      tmtz timetz, iv interval, u uuid, j json, jb jsonb, arr int[], tarr text[], barr bool[], ip inet,
      r int4range, x xml)`.execute(engine.db);
    await sql`create index json_types_tag on json_types (tag)`.execute(engine.db);
    // Nulls of every kind.
    await sql`insert into json_types (id) values (1)`.execute(engine.db);
    for (const [at, text] of nasty.entries()) {
      await sql`insert into json_types (id, tag, t, vc, ch, tarr, j) values (${10 + at}, 'nasty', ${text},
        ${text.slice(0, 40)}, ${text.slice(0, 5)}, ${[text, null, `${text}"`]}, ${JSON.stringify({ [text]: text })})`.execute(
        engine.db,
      );
    }
    await sql`insert into json_types values (2, 'nasty', 'plain', 'x', 'ab', 'with "quotes"\ttab', true, B'1', B'1010',
      B'101', '\\x00ff225c0a09', ${Buffer.alloc(200, 7)}, 32767, 2147483647, 9007199254740991, 4294967295,
      123456789012345.12345, 'NaN', 1234567.89, 3.4e38, 1e-7, '2024-02-29', '2024-01-02 03:04:05.123456',
      '2024-01-02 03:04:05.1', '2024-01-02 03:04:05.123456+00', '23:59:59.999999', '03:04:05+05:30',
      '1 year 2 mons 3 days 04:05:06', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ${'{\n\t"a" : "b\\n\\"c\\"",  "n": [1, 2.5]}'},
      '{"a": "b\\\\c", "n": [1, 2.5e3]}', '{1,2,NULL}', '{"x,y","q\\"uote","back\\\\slash"}', '{t,f,NULL}',
      '192.168.0.1', '[1,5)', '<a b="c">d &amp; e</a>')`.execute(engine.db);
    await sql`insert into json_types values (3, 'nasty', '', '', '', 'sad', false, B'0', B'0000', B'', '', '',
      -32768, -2147483648, 9007199254740992, 0, -0.5, '1e-20', -12.34, 'NaN', 'Infinity', '0044-03-15 BC',
      '0001-01-01 00:00:00 BC', '-infinity', 'infinity', '00:00:00', '00:00:00-03', '-1 days',
      '00000000-0000-0000-0000-000000000000', '[]', '{}', '{}', '{}', '{}', '::1', 'empty', '')`.execute(
      engine.db,
    );
    await sql`insert into json_types (id, tag, i8, f4, f8, ts, tstz, num_free, m) values
      (4, 'nasty', -9007199254740991, '-Infinity', '-0', '0001-01-01 00:00:00', '0001-01-01 00:00:00+00', '-0.000', 0),
      (5, 'nasty', -9007199254740992, 1.1, 0.30000000000000004, '9999-12-31 23:59:59.999999', '9999-12-31 23:59:59.999999+00', 'Infinity', -1),
      (6, 'nasty', 9223372036854775807, 16777217, 1e21, '10000-01-01 00:00:00', '10000-01-01 00:00:00+00', '-Infinity', null),
      (7, 'nasty', -9223372036854775808, 1e-30, -1.7976931348623157e308, '0044-03-15 12:00:00 BC', '0044-03-15 12:00:00+00 BC', 0, null),
      (8, 'other', 123456789012345, 0.1, 123456789.123456789, '1999-12-31 23:59:59', '1999-12-31 23:59:59.5+00', 1, null),
      (9, 'other', 1000000000000000, -1, 5e-324, 'infinity', '-infinity', 1, null)`.execute(engine.db);
    // Enough rows that COPY's data arrives in many chunks, records cut anywhere, one of them over a megabyte.
    await sql`insert into json_types (id, tag, t, i8, tstz, arr) select g, 'many', repeat(md5(g::text) || E'\\t"é\\\\', g % 7),
      g::bigint * 1000003000, '2020-01-01 00:00:00+00'::timestamptz + g * interval '1.5 second', array[g, -g] from generate_series(100, 30000) g`.execute(
      engine.db,
    );
    await sql`insert into json_types (id, tag, t) values (40000, 'many', repeat(E'long\\t"text"\n', 100000))`.execute(
      engine.db,
    );
    await sql`create table numbered (id int primary key, "2" text)`.execute(engine.db);
    await sql`create table prototype (id int primary key, "__proto__" text)`.execute(engine.db);
    await engine.catalog({ refresh: true });
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  it('for every type, nulls, nasty text, big integers, floats, far timestamps, arrays, json and bytea, through COPY', async () => {
    const table = await engine.table('public', 'json_types');
    const both = await bothJsonLines(engine, table, {});
    expect(both.expectedRows).toBe(1 + nasty.length + 8 + 29901 + 1);
    expect(both.rows).toBe(both.expectedRows);
    expect(both.written).toBe(both.expected);
    for (const fragment of [
      '"i8":9007199254740991,',
      '"i8":"9007199254740992"',
      '"i8":-9007199254740991,',
      '"i8":"-9007199254740992"',
      '"f4":"NaN","f8":"Infinity"',
      '"f8":1e-7',
      '"tstz":"2024-01-02T03:04:05.123456+00:00"',
      '"tstz":"10000-01-01T00:00:00+00:00"',
      '"ts":"0044-03-15 12:00:00 BC"',
      '"b":true,"bit1":true,"bits":"1010"',
      `"photo":"${Buffer.alloc(200, 7).toString('base64')}"`,
      '"t":"\\b\\f\\u000b\\u0001\\u001f\x7f"',
      '"t":"",',
      '"t":null,',
    ])
      expect(both.expected).toContain(fragment);
  });

  it('with a filter (its values bound), read by a cursor', async () => {
    const table = await engine.table('public', 'json_types');
    for (const tag of ['nasty', 'other', 'many']) {
      const both = await bothJsonLines(engine, table, { tag });
      expect(both.rows).toBe(both.expectedRows);
      expect(both.written).toBe(both.expected);
    }
  });

  it('not for columns JSON.stringify would reorder or drop (named like an integer, __proto__)', async () => {
    for (const name of ['numbered', 'prototype'])
      expect(engine.streamJsonLines(await engine.table('public', name), { filter: {} })).toBeNull();
  });
});

describe('MySQL/MariaDB CSV written from the raw cells equals CSV through the rows, byte for byte', () => {
  let database: TestDatabase;
  let engine: DatabaseEngine;

  beforeAll(async () => {
    database = await createMysqlDatabase('csvsel');
    engine = await connectDatabase('csvsel', 'mysql', database.url);
    await sql`create table csv_types (
      id int primary key, t text, vc varchar(30) collate utf8mb4_unicode_ci, ch char(5), l1 varchar(10) character set latin1,
      e enum('a', 'b, "c"', ''), st set('x', 'y'), flag tinyint(1), b1 bit(1), b5 bit(5), ti tinyint, iu int unsigned,
      bi bigint, bu bigint unsigned, num decimal(20,5), y year, d date, dt datetime(3), dt0 datetime, ts timestamp(6) null,
      tm time(6), bin binary(4), vb varbinary(300), bl blob, j json, u uuid)`.execute(engine.db);
    await sql`insert into csv_types (id) values (1)`.execute(engine.db);
    await sql`insert into csv_types values (2, 'plain', 'x', 'ab', 'café', 'b, "c"', 'x,y', 1, b'1', b'10110', -128,
      4294967295, -9223372036854775808, 18446744073709551615, 123456789012345.12345, 2024, '2024-02-29',
      '2024-01-02 03:04:05.123', '1000-01-01 00:00:00', '2024-01-02 03:04:05.123456', '-838:59:59.000000',
      x'00ff2200', ${Buffer.alloc(200, 7)}, x'', ${'{"a": "b, \\"c\\"", "n": [1, 2.5]}'},
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11')`.execute(engine.db);
    await sql`insert into csv_types values (3, ${'line1\nline2\r\nline3\rend'}, '', '', '', '', '', 0, b'0', b'0',
      0, 0, 9007199254740993, 0, -0.5, 1901, '9999-12-31', '9999-12-31 23:59:59.999', '2038-01-19 03:14:07',
      '1970-01-01 00:00:01', '00:00:00', x'', ${Buffer.alloc(0)}, ${Buffer.from('hello')}, '[]',
      '00000000-0000-0000-0000-000000000000')`.execute(engine.db);
    await sql`insert into csv_types (id, t, vc, flag) values (4, ${'\\.'}, ${'comma, and "quotes"'}, 5)`.execute(
      engine.db,
    );
    await sql`insert into csv_types (id, t, ch) values (5, ${'ünïcødé 日本 🎉'}, ${'"'})`.execute(engine.db);
    // Formulas (OWASP CSV injection) in text of any character set, enums and json, beside negative numbers.
    await sql`insert into csv_types (id, t, vc, ch, l1, e, j, ti, bi, num) values (7,
      ${'=HYPERLINK("http://x","y")'}, ${'+1,2'}, ${'-2'}, ${'@café'}, '', '-5', -5, -9223372036854775807,
      -1.5)`.execute(engine.db);
    await sql`insert into csv_types (id, t, vc, ch, l1) values (8, ${'\tx'}, ${'\rx'}, ${'-'}, ${"'=q"})`.execute(
      engine.db,
    );
    // Zero dates exist in older databases; MySQL writes them as they are.
    await engine.db.transaction().execute(async (trx) => {
      await sql`set session sql_mode = ''`.execute(trx);
      await sql`insert into csv_types (id, d, dt, dt0) values (6, '0000-00-00', '0000-00-00 00:00:00', '2024-00-00 00:00:00')`.execute(
        trx,
      );
      await sql`set session sql_mode = default`.execute(trx);
    });
    await sql`create table lone_text (id varchar(10) primary key)`.execute(engine.db);
    await sql`insert into lone_text values (${'\\.'}), ('x')`.execute(engine.db);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  it('for text in any character set and collation, enums, sets, booleans, bits, numbers, dates, times, binary, json and uuid', async () => {
    await expectSameCsv(engine, database.name, 'csv_types', 8, [
      '2024-01-02T03:04:05.123,',
      '2024-01-02T03:04:05.123456Z',
      Buffer.alloc(200, 7).toString('base64'),
      ',café,"b, ""c""","x,y",true,true,22,',
      '18446744073709551615,123456789012345.12345,2024,',
      '\n4,\\.,"comma, and ""quotes""",,,,,true,',
      '0000-00-00,0000-00-00 00:00:00.000,2024-00-00T00:00:00',
      // Formula-like text quoted, negative numbers untouched.
      `\n7,"'=HYPERLINK(""http://x"",""y"")","'+1,2",'-2,'@café,"",`,
      ',-5,,-9223372036854775807,,-1.50000,',
      ",'-5,\n",
      `\n8,'\tx,"'\rx",'-,'=q,`,
    ]);
  });

  it('with a filter (its values bound), and a lone \\. quoted in a one-column table', async () => {
    await sql`create index csv_types_t on csv_types (t(10))`.execute(engine.db);
    await engine.catalog({ refresh: true });
    const filtered = await bothWays(engine, database.name, 'csv_types', { t: 'pl' });
    expect(filtered.rows).toBe(1);
    expect(filtered.copy).toBe(filtered.cursor);
    const lone = await bothWays(engine, database.name, 'lone_text');
    expect(lone.copy).toBe(lone.cursor);
    expect(lone.copy).toContain('"\\."');
  });

  it('stops when told to, mid-stream, the rows and the CSV alike, and the engine serves on', async () => {
    await sql`create table many (id int primary key, t varchar(20))`.execute(engine.db);
    await sql`insert into many select seq, concat('row, ', seq) from seq_1_to_50000`.execute(engine.db);
    await engine.catalog({ refresh: true });
    const table = await engine.table(database.name, 'many');
    const stopRows = new AbortController();
    let rows = 0;
    const readRows = async () => {
      for await (const chunk of engine.streamRows(
        table,
        { filter: {} },
        { chunkSize: 100, signal: stopRows.signal },
      )) {
        rows += chunk.length;
        if (rows === 300) stopRows.abort(new Error('cancelled'));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await expect(readRows()).rejects.toThrow();
    expect(rows).toBe(300);
    const stopCsv = new AbortController();
    let chunks = 0;
    const readCsv = async () => {
      for await (const chunk of engine.streamCsv(table, { filter: {} }, { signal: stopCsv.signal })!) {
        expect(chunk.rows).toBeGreaterThan(0);
        if (++chunks === 2) stopCsv.abort(new Error('cancelled'));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await expect(readCsv()).rejects.toThrow();
    expect(chunks).toBe(2);
    const page = await engine.page(table, { filter: {}, page: 1, pageSize: 20 });
    expect(page.results).toHaveLength(20);
  });

  it('floats as JavaScript writes the numbers the rows carry; not used for geometry (the driver decodes it)', async () => {
    await sql`create table with_float (id int primary key, ratio double, f float, z int(6) zerofill,
      bz bigint zerofill)`.execute(engine.db);
    await sql`insert into with_float values (1, 1e-7, 0.1, 5, 7), (2, 1e21, 3.4e38, 123456, 18446744073709551615),
      (3, -0.000123456789012345, -1.5, null, null), (4, 0.1 + 0.2, 1e-30, 0, 0), (5, 123456789.123456789, 16777217,
      1, 9007199254740993), (6, -1.7976931348623157e308, 1, 2, 3)`.execute(engine.db);
    await sql`create table with_point (id int primary key, p point)`.execute(engine.db);
    await engine.catalog({ refresh: true });
    const both = await bothWays(engine, database.name, 'with_float');
    expect(both.rows).toBe(6);
    expect(both.copy).toBe(both.cursor);
    expect(both.copy.startsWith('1,1e-7,0.1,5,7\n2,1e+21,3.4e+38,123456,18446744073709551615\n')).toBe(true);
    expect(engine.streamCsv(await engine.table(database.name, 'with_point'), { filter: {} })).toBeNull();
  });
});

describe('CSV through csv-stringify on SQLite, whose columns hold any value', () => {
  let dir: ReturnType<typeof tempDir>;
  let engine: DatabaseEngine;

  beforeAll(async () => {
    dir = tempDir('dbui-csv-');
    // An empty file is an empty SQLite database.
    fs.writeFileSync(`${dir.path}/loose.db`, '');
    engine = await connectDatabase('loose', 'sqlite', `sqlite:${dir.path}/loose.db`);
    await sql`create table loose (id integer primary key, n integer, d decimal(10,2), at datetime, b blob,
      anything, t text, "=cmd" text)`.execute(engine.db);
    await sql`insert into loose values (1, -5, -0.5, '2024-01-02', ${Buffer.from([0xfb, 0xff])}, -7, '-5', 'x')`.execute(
      engine.db,
    );
    await sql`insert into loose values (2, ${'=HYPERLINK("http://x","y")'}, ${'-2+3'}, ${'@SUM(A1)'},
      ${'+text'}, ${'\tx'}, ${'a\rb'}, ${'\rx'})`.execute(engine.db);
    await engine.catalog({ refresh: true });
  });
  afterAll(async () => {
    await engine?.close();
    dir?.remove();
  });

  it('quotes formula-like text in any column and in the header, leaves numbers and base64 alone, quotes a CR', async () => {
    const table = await engine.table('main', 'loose');
    let csv = csvHeader(table);
    for await (const rows of engine.streamRows(table, { filter: {}, orderBy: 'id' }))
      csv += csvRecords(engine.kind, table, rows);
    expect(csv).toBe(
      [
        "id,n,d,at,b,anything,t,'=cmd",
        "1,-5,-0.50,2024-01-02,+/8=,-7,'-5,x",
        `2,"'=HYPERLINK(""http://x"",""y"")",'-2+3,'@SUM(A1),'+text,'\tx,"a\rb","'\rx"`,
        '',
      ].join('\n'),
    );
  });
});

describe('names', () => {
  it('download names: table and UTC time, unsafe characters replaced', () => {
    expect(downloadName('Track', '2026-11-21T10:15:00.123Z', 'csv')).toBe('Track-20261121-101500.csv');
    expect(downloadName('a/b\\c:"d"', '2026-11-21T10:15:00.000Z', 'xlsx')).toBe(
      'a_b_c__d_-20261121-101500.xlsx',
    );
    expect(downloadName('Überweisung', '2026-11-21T10:15:00.000Z', 'jsonl')).toBe(
      'Überweisung-20261121-101500.jsonl',
    );
  });

  it('sheet names Excel accepts', () => {
    expect(sheetName('Track', 1)).toBe('Track');
    expect(sheetName('Track', 2)).toBe('Track (2)');
    expect(sheetName('a[b]c:d/e?f*g\\h', 1)).toBe('a_b_c_d_e_f_g_h');
    expect(sheetName('x'.repeat(40), 12)).toBe(`${'x'.repeat(26)} (12)`);
    expect(sheetName("'quoted'", 1)).toBe('quoted');
  });
});
