import { describe, expect, it } from 'vitest';
import type { CellValue, Column, TypeGroup } from '#common/contract/sql.ts';
import { CopyTextEncoder, keysKeepColumnOrder } from './copy-text.ts';
import { columnWith } from '#server/engines/mssql/test-support.ts';
import { decodeValue, getTypeParser } from './types.ts';
import { csvRecords } from '#server/jobs/export-formats.ts';

/*
 * The encoder on its own: COPY text cut at every byte, and the cursor's text values, give what JSON.stringify (and
 * csv-stringify, as export-formats.ts calls it) makes of the values the driver's parsers and decodeValue make of the
 * same text. export-formats.db.test.ts compares both paths
 * with the rows on a real PostgreSQL.
 */

const column = (name: string, type: string, typeGroup: TypeGroup): Column =>
  columnWith({ name, type, typeGroup });

const columns = [
  column('id', 'int4', 'Number'),
  column('t "x"', 'text', 'Text'),
  column('i8', 'int8', 'Number'),
  column('at', 'timestamptz', 'Date'),
  column('b', 'bool', 'bit'),
  column('f', 'float8', 'Number'),
];

/** Rows as the cursor gives them (text values), and as COPY writes them (escaped, tab-separated, \N). */
const rows: (string | null)[][] = [
  ['1', 'plain', '9007199254740991', '2024-01-02 03:04:05.5+00', 't', '1e-07'],
  [
    '2',
    'tab\there\nnew "line"\\ \b\f\v\r\x01 🎉',
    '-9007199254740992',
    '0044-03-15 00:00:00+00 BC',
    'f',
    'NaN',
  ],
  ['3', '', '-9007199254740991', 'infinity', null, '-0'],
  ['3', 'x', '10000000000000000', '2024-01-02 03:04:05+05:30', 'f', '-1.5'],
  ['4', '\\N', '0', '12345-06-07 08:09:10+00', 't', '1e+21'],
  [null, null, null, null, null, null],
];

const copyText = (values: (string | null)[][]) =>
  values
    .map((row) =>
      row
        .map((value) =>
          value === null
            ? '\\N'
            : value.replace(
                /[\\\b\f\n\r\t\v]/g,
                (char) =>
                  `\\${{ '\\': '\\', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v' }[char]}`,
              ),
        )
        .join('\t'),
    )
    .join('\n') + '\n';

function drained(encoder: CopyTextEncoder): { text: string; rows: number } {
  const chunk = encoder.take();
  return { text: chunk ? chunk.bytes.toString('utf8') : '', rows: chunk?.rows ?? 0 };
}

describe('CopyTextEncoder', () => {
  /** The pool's parsers of these columns (types.ts): int4, text, int8, timestamptz, bool, float8. */
  const parsers = [23, 25, 20, 1184, 16, 701].map((oid) => getTypeParser(oid));
  const expected = rows
    .map((row) => {
      const line: Record<string, CellValue> = {};
      for (const [at, c] of columns.entries()) {
        const text = row[at] ?? null;
        line[c.name] =
          text === null ? null : decodeValue(c, (parsers[at] as (text: string) => unknown)(text));
      }
      return `${JSON.stringify(line)}\n`;
    })
    .join('');

  it("writes the same from the cursor's text values", () => {
    const encoder = new CopyTextEncoder(columns);
    for (const row of rows) encoder.values(row);
    expect(drained(encoder)).toEqual({ text: expected, rows: rows.length });
  });

  it('writes what JSON.stringify makes of the wire values', () => {
    const lines = expected.split('\n');
    expect(lines[0]).toBe(
      '{"id":1,"t \\"x\\"":"plain","i8":9007199254740991,"at":"2024-01-02T03:04:05.5+00:00","b":true,"f":1e-7}',
    );
    expect(lines[1]).toBe(
      '{"id":2,"t \\"x\\"":"tab\\there\\nnew \\"line\\"\\\\ \\b\\f\\u000b\\r\\u0001 🎉","i8":"-9007199254740992","at":"0044-03-15 00:00:00+00 BC","b":false,"f":"NaN"}',
    );
    expect(lines[2]).toBe('{"id":3,"t \\"x\\"":"","i8":-9007199254740991,"at":"infinity","b":null,"f":0}');
    expect(lines[3]).toContain('"i8":"10000000000000000","at":"2024-01-02T03:04:05+05:30"');
    expect(lines[4]).toContain(
      '"t \\"x\\"":"\\\\N","i8":0,"at":"12345-06-07T08:09:10+00:00","b":true,"f":1e+21}',
    );
    expect(lines[5]).toBe('{"id":null,"t \\"x\\"":null,"i8":null,"at":null,"b":null,"f":null}');
  });

  it('reads COPY text cut at any byte into the same lines, each counted once', () => {
    const bytes = Buffer.from(copyText(rows));
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (const second of [cut, Math.min(bytes.length, cut + 3)]) {
        const encoder = new CopyTextEncoder(columns);
        encoder.copyData(bytes.subarray(0, cut));
        encoder.copyData(bytes.subarray(cut, second));
        encoder.copyData(bytes.subarray(second));
        encoder.endOfData();
        expect(drained(encoder), `cut at ${cut} and ${second}`).toEqual({
          text: expected,
          rows: rows.length,
        });
      }
    }
  });

  /** What export-formats.ts's csv-stringify makes of the same wire values. */
  const csvOf = (cols: Column[], values: (string | null)[][], oids: number[]) =>
    csvRecords(
      'postgres',
      { name: 't', schema: 'public', columns: cols } as never,
      values.map((row) =>
        Object.fromEntries(
          cols.map((c, at) => {
            const text = row[at] ?? null;
            return [c.name, text === null ? null : decodeValue(c, getTypeParser(oids[at] as number)(text))];
          }),
        ),
      ),
    );

  it('writes the CSV csv-stringify makes of the wire values, from COPY text cut at any byte', () => {
    const csvRows: (string | null)[][] = [
      ...rows,
      ['5', '=cmd', '1', '2024-01-02 03:04:05+00', 't', '1'],
      ['6', '\tx,"y"', '2', '2024-01-02 03:04:05+00', 'f', '2'],
      ['7', '\r', '3', '2024-01-02 03:04:05+00', 't', '-1e-7'],
      ['8', '-5', '-4', '2024-01-02 03:04:05+00', 't', '3'],
    ];
    const expectedCsv = csvOf(columns, csvRows, [23, 25, 20, 1184, 16, 701]);
    expect(expectedCsv.split('\n').slice(-5, -1)).toEqual([
      "5,'=cmd,1,2024-01-02T03:04:05+00:00,true,1",
      `6,"'\tx,""y""",2,2024-01-02T03:04:05+00:00,false,2`,
      `7,"'\r",3,2024-01-02T03:04:05+00:00,true,-1e-7`,
      "8,'-5,-4,2024-01-02T03:04:05+00:00,true,3",
    ]);
    const bytes = Buffer.from(copyText(csvRows));
    for (let cut = 0; cut <= bytes.length; cut++) {
      const encoder = new CopyTextEncoder(columns, 'csv');
      encoder.copyData(bytes.subarray(0, cut));
      encoder.copyData(bytes.subarray(cut));
      encoder.endOfData();
      expect(drained(encoder), `cut at ${cut}`).toEqual({ text: expectedCsv, rows: csvRows.length });
    }
  });

  it('quotes a lone \\. in a one-column CSV, as COPY would read it as the end of the data', () => {
    const only = [column('t', 'text', 'Text')];
    const values = [['\\.'], ['\\.x'], [''], [null]];
    const encoder = new CopyTextEncoder(only, 'csv');
    encoder.copyData(Buffer.from(copyText(values)));
    expect(drained(encoder).text).toBe('"\\."\n\\.x\n""\n\n');
    expect(csvOf(only, values, [25])).toBe('"\\."\n\\.x\n""\n\n');
  });

  it('hands on chunks of about 64 KB with their row counts; a record longer than a chunk grows the buffer', () => {
    const encoder = new CopyTextEncoder(columns);
    const long = ['5', 'x'.repeat(300_000), '1', '2024-01-02 03:04:05+00', 't', '1'];
    const many = Array.from({ length: 3000 }, () => rows[0] as (string | null)[]);
    encoder.copyData(Buffer.from(copyText([...many, long])));
    expect(encoder.full).toBe(true);
    const chunk = encoder.take();
    expect(chunk?.rows).toBe(3001);
    expect(chunk?.bytes.toString('utf8').split('\n')).toHaveLength(3002);
    expect(encoder.take()).toBeNull();
  });

  it('refuses records with more or fewer fields than columns, and data that ends inside a record', () => {
    expect(() => new CopyTextEncoder(columns).copyData(Buffer.from('1\tx\n'))).toThrow('fewer');
    expect(() =>
      new CopyTextEncoder(columns).copyData(Buffer.from('1\tx\t1\tinfinity\tt\t1\textra\n')),
    ).toThrow('more');
    const encoder = new CopyTextEncoder(columns);
    encoder.copyData(Buffer.from('1\tx'));
    expect(() => encoder.endOfData()).toThrow('inside a record');
  });

  it('knows when JSON.stringify would not keep the keys in column order', () => {
    expect(keysKeepColumnOrder(columns)).toBe(true);
    expect(keysKeepColumnOrder([columns[0] as Column, column('2', 'text', 'Text')])).toBe(false);
    expect(keysKeepColumnOrder([columns[0] as Column, column('__proto__', 'text', 'Text')])).toBe(false);
    expect(keysKeepColumnOrder([columns[0] as Column, column('02', 'text', 'Text')])).toBe(true);
  });
});
