import { describe, expect, it } from 'vitest';
import type { Column } from '#common/contract/sql.ts';
import { CHUNK_BYTES } from '#server/engines/chunked-bytes.ts';
import { csvFieldKind, MysqlCsvEncoder, parseFloatAsMysql2 } from './csv-records.ts';

/*
 * The encoder reads a row two ways: straight from the text protocol packet (the hooked parser, stream.ts) or from
 * the Buffers mysql2 makes with typeCast: false (a mysql2 without that hook). Both must write the same bytes, for
 * every length code (1, 3, 4 and 9 bytes) and NULL. The byte-for-byte comparison with csv-stringify on a real
 * server is server/jobs/export-formats.db.test.ts.
 */

const column = (type: string, typeGroup: Column['typeGroup']) => ({ type, typeGroup }) as Column;

/** A row packet: 4 header bytes, then each cell length-coded (0xfb for NULL). */
function packetOf(cells: (Buffer | null)[]) {
  const parts: Buffer[] = [Buffer.alloc(4)];
  for (const cell of cells) {
    if (cell === null) {
      parts.push(Buffer.from([0xfb]));
      continue;
    }
    const n = cell.length;
    if (n < 251) parts.push(Buffer.from([n]));
    else if (n < 2 ** 16) parts.push(Buffer.from([0xfc, n & 0xff, n >> 8]));
    else if (n < 2 ** 24) parts.push(Buffer.from([0xfd, n & 0xff, (n >> 8) & 0xff, n >> 16]));
    else {
      const length = Buffer.alloc(9);
      length[0] = 0xfe;
      length.writeUInt32LE(n, 1);
      parts.push(length);
    }
    parts.push(cell);
  }
  const buffer = Buffer.concat(parts);
  return { buffer, offset: 4, end: buffer.length };
}

function bothWays(columns: Column[], rows: (string | Buffer | null)[][]) {
  const kinds = columns.map((c) => csvFieldKind(c)!);
  const byCells = new MysqlCsvEncoder(kinds);
  const byPacket = new MysqlCsvEncoder(kinds);
  const cellRows = rows.map((row) =>
    row.map((cell) => (typeof cell === 'string' ? Buffer.from(cell) : cell)),
  );
  let cells = '';
  let packets = '';
  for (const row of cellRows) {
    byCells.row(row);
    byPacket.packet(packetOf(row));
    if (byCells.full) cells += byCells.take()!.bytes.toString('utf8');
    if (byPacket.full) packets += byPacket.take()!.bytes.toString('utf8');
  }
  cells += byCells.take()?.bytes.toString('utf8') ?? '';
  packets += byPacket.take()?.bytes.toString('utf8') ?? '';
  return { cells, packets };
}

describe('MySQL CSV records from raw cells', () => {
  const columns = [
    column('int', 'Number'),
    column('varchar', 'Text'),
    column('datetime', 'Date'),
    column('timestamp', 'Date'),
    column('blob', 'Binary'),
    column('tinyint', 'bit'),
    column('bit', 'bit'),
    column('bit', 'Number'),
    column('double', 'Number'),
    column('uuid', 'guid'),
  ];

  it('writes the same bytes from packets and from cells, for every length code', () => {
    const rows: (string | Buffer | null)[][] = [
      [
        '1',
        'plain',
        '2024-01-02 03:04:05.5',
        '2024-01-02 03:04:05',
        Buffer.from([0, 255]),
        '5',
        Buffer.from([1]),
        Buffer.from([1, 0]),
        '1.5',
        'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      ],
      [null, null, null, null, null, null, null, null, null, null],
      [
        '007',
        '',
        '0000-00-00 00:00:00',
        '2038-01-19 03:14:07.999999',
        Buffer.alloc(0),
        '0',
        Buffer.from([0]),
        Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        '-0.000001',
        '',
      ],
      [
        '-5',
        '=1+"x", y\r\n',
        '9999-12-31 23:59:59',
        '1970-01-01 00:00:01',
        Buffer.alloc(300, 7),
        '-3',
        Buffer.from([0, 1]),
        Buffer.from([22]),
        '1e21',
        '-x',
      ],
      [
        '1',
        'x'.repeat(70_000),
        '2024-00-00 00:00:00',
        null,
        Buffer.alloc(70_000, 1),
        '1',
        null,
        null,
        '123456789012345678',
        null,
      ],
    ];
    for (let i = 0; i < 2000; i++)
      rows.push([String(i), `row, ${i}`, '2020-01-01 00:00:00', null, null, '1', null, null, '0.1', null]);
    const { cells, packets } = bothWays(columns, rows);
    expect(packets).toBe(cells);
    expect(cells.length).toBeGreaterThan(2 * CHUNK_BYTES);
    const lines = cells.split('\n');
    expect(lines[0]).toBe(
      `1,plain,2024-01-02T03:04:05.5,2024-01-02T03:04:05Z,AP8=,true,true,256,1.5,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11`,
    );
    expect(lines[1]).toBe(',,,,,,,,,');
    expect(lines[2]).toBe(
      '7,"",0000-00-00 00:00:00,2038-01-19T03:14:07.999999Z,"",false,false,18446744073709551615,-0.000001,""',
    );
    expect(lines[3]).toBe(`-5,"'=1+""x"", y\r`);
    expect(lines[4]).toBe(
      `",9999-12-31T23:59:59,1970-01-01T00:00:01Z,${Buffer.alloc(300, 7).toString('base64')},true,true,22,1e+21,-x`,
    );
  });

  it('quotes a lone \\. in a one-column file only', () => {
    const one = bothWays([column('varchar', 'Text')], [['\\.'], ['x']]);
    expect(one.cells).toBe('"\\."\nx\n');
    const two = bothWays([column('varchar', 'Text'), column('int', 'Number')], [['\\.', '1']]);
    expect(two.cells).toBe('\\.,1\n');
  });

  it('has no field kind for what the driver decodes into objects', () => {
    expect(csvFieldKind(column('point', 'Other'))).toBeNull();
    expect(csvFieldKind(column('json', 'Other'))).not.toBeNull();
  });

  it('parses floats as mysql2 does', () => {
    for (const text of ['0.1', '-1.5', '1e-7', '123456789.123456789', '3.4028234663852886e38', '+2', '0'])
      expect(parseFloatAsMysql2(Buffer.from(`##${text}`), 2, text.length + 2)).toBe(
        text.length > 17 || /e/i.test(text)
          ? Number.parseFloat(text)
          : parseFloatAsMysql2(Buffer.from(text), 0, text.length),
      );
    expect(parseFloatAsMysql2(Buffer.from('0.1'), 0, 3)).toBe(0.1);
  });
});
