import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Row } from '#common/contract/sql.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { columnLetters, xmlText } from './xlsx-parts.ts';
import { writeXlsxWorkbook, type XlsxWorkbookWrite } from './xlsx-workbook.ts';

/*
 * DBUI writes an XLSX export's XML itself (docs/decisions/0038-xlsx-written-by-dbui.md) where it used exceljs's
 * streaming writer: every part of the file must be what exceljs wrote for the same rows, byte for byte (the
 * workbook's time aside), and the file must read back in exceljs.
 */

const dir = tempDir('dbui-xlsx-');
afterAll(() => dir.remove());
let files = 0;
const nextFile = () => path.join(dir.path, `${++files}.xlsx`);

/** Each part of a zip file by name, inflated (a small reader of the central directory, enough for these files). */
function unzip(file: Buffer): Map<string, string> {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = file.readUInt16LE(end + 10);
  const parts = new Map<string, string>();
  for (let i = 0, at = file.readUInt32LE(end + 16); i < count; i++) {
    const method = file.readUInt16LE(at + 10);
    const size = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const local = file.readUInt32LE(at + 42);
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    const data = file.subarray(start, start + size);
    parts.set(name, (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8'));
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return parts;
}

/** What exceljs 4.4's streaming writer made of these rows, as export-formats.ts used it. */
async function exceljsFile(
  columns: string[],
  rows: Row[],
  rowsPerSheet: number,
  sheetName: (n: number) => string,
) {
  const file = nextFile();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useStyles: false,
    useSharedStrings: false,
  });
  let number = 1;
  let sheet = workbook.addWorksheet(sheetName(number));
  sheet.addRow(columns).commit();
  let rowsInSheet = 1;
  for (const row of rows) {
    if (rowsInSheet >= rowsPerSheet) {
      sheet.commit();
      sheet = workbook.addWorksheet(sheetName(++number));
      sheet.addRow(columns).commit();
      rowsInSheet = 1;
    }
    sheet.addRow(columns.map((name) => row[name] ?? null)).commit();
    rowsInSheet++;
  }
  sheet.commit();
  await workbook.commit();
  return fs.readFileSync(file);
}

async function* chunksOf(rows: Row[], size: number): AsyncGenerator<Row[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

async function dbuiFile(write: Partial<XlsxWorkbookWrite> & Pick<XlsxWorkbookWrite, 'columns' | 'rows'>) {
  const file = nextFile();
  let told = 0;
  await writeXlsxWorkbook({
    file,
    rowsPerSheet: 1_048_576,
    sheetName: (n) => (n > 1 ? `Sheet (${n})` : 'Sheet'),
    signal: new AbortController().signal,
    onRows: (rows) => (told += rows),
    ...write,
  });
  return { body: fs.readFileSync(file), told };
}

/** The workbook's creation time, the one part that differs between two runs. */
const timeless = (xml: string) => xml.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'TIME');

const columns = ['id', 'text', 'flag', 'amount', 'big', 'empty', 'a<b&"c\'>'];
const awkward: Row[] = [
  {
    id: 1,
    text: 'plain',
    flag: true,
    amount: 1.5,
    big: '12345678901234567890',
    empty: null,
    'a<b&"c\'>': 'x',
  },
  {
    id: 2,
    text: 'a<b>&"c\'d',
    flag: false,
    amount: -0,
    big: '-9223372036854775808',
    empty: '',
    'a<b&"c\'>': null,
  },
  {
    id: 3,
    text: 'tab\tlf\ncrlf\r\ncr\rend',
    flag: null,
    amount: 1e21,
    big: 'NaN',
    empty: null,
    'a<b&"c\'>': '=1+2',
  },
  {
    id: 4,
    text: 'ctl\u0000\u0001\u0008\u000b\u000c\u000e\u001f\u007f.',
    amount: 1e-7,
    big: 'Infinity',
    empty: ' ',
  },
  { id: null, text: null, flag: null, amount: null, big: null, empty: null, 'a<b&"c\'>': null },
  {},
  {
    id: 0.1 + 0.2,
    text: 'émoji 😀 and a lone \ud800 surrogate',
    flag: true,
    amount: -123.456,
    big: '0044-03-15 BC',
  },
  {
    id: Number.MAX_SAFE_INTEGER,
    text: ' leading and trailing ',
    amount: 0,
    big: '{"a":[1,2]}',
    empty: '\\x00ff',
  },
  { id: 9, text: 'x'.repeat(40_000), flag: false, 'a<b&"c\'>': 'last' },
];

describe('an XLSX workbook written by DBUI', () => {
  it('is what exceljs wrote, part for part and byte for byte, awkward values included', async () => {
    const ours = await dbuiFile({ columns, rows: chunksOf(awkward, 4) });
    expect(ours.told).toBe(awkward.length);
    const theirs = await exceljsFile(columns, awkward, 1_048_576, (n) => (n > 1 ? `Sheet (${n})` : 'Sheet'));
    const [a, b] = [unzip(ours.body), unzip(theirs)];
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [name, xml] of b) expect(timeless(a.get(name) ?? ''), name).toBe(timeless(xml));
  });

  it('continues on more sheets, each with the header, as exceljs did, whatever the chunks', async () => {
    const rows: Row[] = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, text: `row ${i + 1}` }));
    const names = (n: number) => (n > 1 ? `T&'s <${n}>` : 'T&\'s "one"');
    const theirs = unzip(await exceljsFile(['id', 'text'], rows, 6, names));
    for (const chunk of [1, 4, 5, 7, 23, 100]) {
      const ours = await dbuiFile({
        columns: ['id', 'text'],
        rows: chunksOf(rows, chunk),
        rowsPerSheet: 6,
        sheetName: names,
      });
      expect(ours.told).toBe(23);
      const parts = unzip(ours.body);
      expect([...parts.keys()]).toEqual([...theirs.keys()]);
      for (const [name, xml] of theirs)
        expect(timeless(parts.get(name) ?? ''), `${name}, chunks of ${chunk}`).toBe(timeless(xml));
    }
    // 5 rows a sheet after the header: a full last sheet adds no empty one.
    const full = unzip(
      (await dbuiFile({ columns: ['id'], rows: chunksOf(rows.slice(0, 10), 5), rowsPerSheet: 6 })).body,
    );
    expect([...full.keys()].filter((name) => name.startsWith('xl/worksheets/'))).toHaveLength(2);
  });

  it('reads back in exceljs: the header, then the cells typed as the wire values', async () => {
    const { body } = await dbuiFile({ columns, rows: chunksOf(awkward, 2) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Sheet');
    expect(sheet.getRow(1).values).toEqual([undefined, ...columns]);
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      1,
      'plain',
      true,
      1.5,
      '12345678901234567890',
      undefined,
      'x',
    ]);
    expect(sheet.getRow(4).getCell(2).value).toBe('tab\tlf\ncrlf\ncr\nend');
    expect(sheet.getRow(10).getCell(2).value).toBe('x'.repeat(40_000));
  });

  it('stops on abort and closes the rows it was reading', async () => {
    const stop = new AbortController();
    let closed = false;
    async function* endless(): AsyncGenerator<Row[]> {
      try {
        for (let i = 0; ; i++)
          yield Array.from({ length: 100 }, (_, j) => ({ id: i * 100 + j, text: 'y'.repeat(200) }));
      } finally {
        closed = true;
      }
    }
    let told = 0;
    const writing = dbuiFile({
      columns: ['id', 'text'],
      rows: endless(),
      signal: stop.signal,
      onRows: (rows) => {
        told += rows;
        if (told >= 50_000) stop.abort();
      },
    });
    await expect(writing).rejects.toThrow(/abort/i);
    expect(closed).toBe(true);
  });

  it('fails with the rows’ own error', async () => {
    async function* failing(): AsyncGenerator<Row[]> {
      yield [{ id: 1 }];
      throw new Error('the database went away');
    }
    await expect(dbuiFile({ columns: ['id'], rows: failing() })).rejects.toThrow('the database went away');
  });

  it('escapes and names as exceljs', () => {
    expect(xmlText('a<b>&"c\'\u0001\t\n\r\u007f')).toBe('a&lt;b&gt;&amp;&quot;c&apos;\t\n\r');
    expect([0, 25, 26, 51, 52, 701, 702, 16383].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
  });
});
