import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZipFile } from 'yazl';
import type { ImportPreview, ImportStatus } from '#common/contract/imports.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { writeXlsxWorkbook } from '#server/jobs/xlsx-workbook.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { importsFolder, openFileReader } from './import-files.ts';
import { formatDateKind, serialToIso, xlsxLimits } from './import-xlsx.ts';

/*
 * XLSX imports over HTTP (issue 39, decision 0071): workbooks made by exceljs and by DBUI's own export, and hand-made
 * zips (yazl) for what spreadsheets write that exceljs does not (inline strings, the 1904 date system, cells without
 * references, phonetic runs) and for hostile files, each of which must be a 400 naming the problem with nothing kept.
 * Reading is the engine's business only in the dry run: SQLite runs everything, PostgreSQL one dry run (ENGINES=…).
 */

const chosen = (process.env.ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());
const kinds = (['sqlite', 'postgres'] as const).filter((kind) => chosen.includes(kind));

interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A zip of the given parts, as yazl writes it. */
function zipOf(parts: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(parts))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compressionLevel: 9 });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A hand-made workbook: one sheet (sheetData's inside given), optional shared strings, styles and workbook tweaks. */
function handWorkbook(options: {
  sheetData: string;
  sharedStrings?: string;
  styles?: string;
  workbookPr?: string;
  workbook?: string;
  sheetXml?: string;
}): Promise<Buffer> {
  const parts: Record<string, string> = {
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${TYPE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml':
      options.workbook ??
      `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${TYPE}">${options.workbookPr ?? ''}<sheets><sheet name="Hand" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `<?xml version="1.0"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${TYPE}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${TYPE}/sharedStrings" Target="sharedStrings.xml"/>` +
      `<Relationship Id="rId3" Type="${TYPE}/styles" Target="/xl/styles.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml':
      options.sheetXml ??
      `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>${options.sheetData}</sheetData></worksheet>`,
  };
  if (options.sharedStrings !== undefined)
    parts['xl/sharedStrings.xml'] =
      `<?xml version="1.0"?><sst xmlns="${MAIN}">${options.sharedStrings}</sst>`;
  if (options.styles !== undefined)
    parts['xl/styles.xml'] =
      `<?xml version="1.0"?><styleSheet xmlns="${MAIN}">${options.styles}</styleSheet>`;
  return zipOf(parts);
}

/** A multipart/form-data body: the file part and text parts. */
function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]) {
  const boundary = `----dbui${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n${type}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** The exceljs workbook the preview and dry run read: every kind of cell, a sparse row, an empty row, two sheets. */
async function excelWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Tracks');
  sheet.addRow(['TrackId', 'Name', 'Milliseconds', 'ArtistId', 'Note']);
  sheet.addRow([20, 'Good', 100, 1, new Date(Date.UTC(2024, 0, 2))]); // 1: inserted, the date as ISO text
  sheet.addRow([
    21,
    { richText: [{ text: 'Ri' }, { text: 'ch' }] },
    { formula: '2*50', result: 100 },
    2,
    true,
  ]); // 2
  sheet.addRow([22, 'Way too long name', 5, 1, 'x']); // 3: Name longer than 10
  sheet.getRow(6).values = [23, 'Err', { error: '#DIV/0!' }, 1]; // 4 (row 5 of the sheet is empty: no record)
  sheet.getRow(7).getCell(1).value = 24; // 5: sparse, no Name
  sheet.getRow(7).getCell(4).value = 2;
  sheet.addRow([1, 'Exists', 7, 1, new Date(Date.UTC(2024, 0, 2, 3, 4, 5))]); // 6: the key is in the table
  sheet.getCell('E2').numFmt = 'yyyy-mm-dd';
  sheet.getCell('E8').numFmt = 'yyyy-mm-dd hh:mm:ss';
  book.addWorksheet('Second').addRow(['Name', 'TrackId']);
  book.getWorksheet('Second')?.addRow(['Two', 30]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('XLSX number formats and serials', () => {
  it('tells dates, times and both from number formats, and turns serials into ISO text in both date systems', () => {
    expect(formatDateKind('yyyy-mm-dd')).toBe('date');
    expect(formatDateKind('d/m/yy h:mm AM/PM')).toBe('datetime');
    expect(formatDateKind('[h]:mm:ss')).toBe('time');
    expect(formatDateKind('mm:ss.0')).toBe('time');
    expect(formatDateKind('#,##0.00 "days"')).toBe(null);
    expect(formatDateKind('[Red]0.00;[Blue]-0.00')).toBe(null);
    expect(formatDateKind('General')).toBe(null);
    expect(formatDateKind('0.00E+00')).toBe(null);
    expect(serialToIso(45293, false, 'date')).toBe('2024-01-02');
    expect(serialToIso(45293 + (3 * 3600 + 5 * 60 + 5) / 86_400, false, 'datetime')).toBe(
      '2024-01-02T03:05:05',
    );
    expect(serialToIso(0.5, false, 'time')).toBe('12:00:00');
    expect(serialToIso(1, false, 'date')).toBe('1900-01-01');
    expect(serialToIso(59, false, 'date')).toBe('1900-02-28');
    expect(serialToIso(60, false, 'date')).toBe(null);
    expect(serialToIso(61, false, 'date')).toBe('1900-03-01');
    expect(serialToIso(0, true, 'date')).toBe('1904-01-01');
    expect(serialToIso(43831, true, 'date')).toBe('2024-01-02');
    expect(serialToIso(-1, false, 'date')).toBe(null);
  });
});

describe.each(kinds)('XLSX imports on %s', (kind) => {
  const folder = tempDir();
  let database: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let editor: TestUser;
  const named = (name: string) => (kind === 'postgres' ? name.toLowerCase() : name);
  const sqliteOnly = it.runIf(kind === 'sqlite');

  const at = (rest: string) => `/api/sql/shop/${encodeURIComponent(schema)}/track/import${rest}`;
  const upload = (file: Buffer, fileName: string, fields: Record<string, string> = {}) => {
    const body = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', value: file, filename: fileName },
    ]);
    return t.app.inject({
      method: 'POST',
      url: at(''),
      headers: { ...editor.headers, 'content-type': body.type },
      payload: body.payload,
    });
  };
  async function uploaded(file: Buffer, fields: Record<string, string> = {}) {
    const answer = await upload(file, 'book.xlsx', fields);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Envelope<{ id: string }>>().data.id;
  }
  async function preview(id: string): Promise<ImportPreview> {
    const answer = await t.app.inject({ method: 'GET', url: at(`/${id}/preview`), headers: editor.headers });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Envelope<ImportPreview>>().data;
  }
  async function dryRun(id: string, mapping: Record<string, string>): Promise<ImportStatus> {
    const started = await t.app.inject({
      method: 'POST',
      url: at(`/${id}/run`),
      headers: { ...editor.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ mapping, mode: 'insert', dryRun: true }),
    });
    expect(started.statusCode, started.body).toBe(202);
    return vi.waitFor(
      async () => {
        const answer = await t.app.inject({ method: 'GET', url: at(`/${id}`), headers: editor.headers });
        const status = answer.json<Envelope<ImportStatus>>().data;
        expect(status.inProgress).toBe(false);
        return status;
      },
      { timeout: 20_000, interval: 50 },
    );
  }
  const uploadsLeft = () => {
    const dir = importsFolder(t.config.dataDir);
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.upload')) : [];
  };
  /** A hostile file: a 400 with the sentence, and nothing kept. */
  async function refused(file: Buffer, pattern: RegExp, fields: Record<string, string> = {}) {
    const before = uploadsLeft();
    const answer = await upload(file, 'hostile.xlsx', fields);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json<Envelope<null>>().message).toMatch(pattern);
    expect(uploadsLeft()).toEqual(before);
  }

  beforeAll(async () => {
    let url: string;
    if (kind === 'sqlite') {
      const file = path.join(folder.path, 'shop.db');
      new Database(file).close();
      url = `sqlite:${file}`;
    } else {
      database = await createPostgresDatabase();
      url = database.url;
    }
    schema = kind === 'sqlite' ? 'main' : 'public';
    engine = await connectDatabase('shop', kind, url);
    for (const statement of [
      'create table artist (id integer not null primary key, name varchar(50) not null)',
      'create table track (TrackId bigint not null primary key, Name varchar(10) not null, Milliseconds integer, ' +
        'ArtistId integer, Note varchar(20), constraint fk_track_artist foreign key (ArtistId) references artist (id))',
      "insert into artist (id, name) values (1, 'One'), (2, 'Two')",
      "insert into track (TrackId, Name, Milliseconds, ArtistId) values (1, 'Intro', 10, 1)",
    ])
      await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    t = await buildTestApp({ databases: [engine], imports: { batchSize: 2 } });
    const track = `shop/${schema}/track`;
    editor = await buildUser(t, {
      links: [tablePath('shop', schema, 'track')],
      permissions: [{ table: track, canInsert: true }],
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    folder.remove();
  });

  it("previews and dry-runs an exceljs workbook's first sheet: every kind of cell, sparse and empty rows", async () => {
    const id = await uploaded(await excelWorkbook());
    const answer = await preview(id);
    expect(answer.options).toMatchObject({
      format: 'xlsx',
      header: true,
      sheet: 'Tracks',
      sheets: ['Tracks', 'Second'],
    });
    expect(answer.fileColumns).toEqual(['TrackId', 'Name', 'Milliseconds', 'ArtistId', 'Note']);
    expect(answer.rows).toEqual([
      ['20', 'Good', '100', '1', '2024-01-02'],
      ['21', 'Rich', '100', '2', 'true'],
      ['22', 'Way too long name', '5', '1', 'x'],
      ['23', 'Err', null, '1', null],
      ['24', null, null, '2', null],
      ['1', 'Exists', '7', '1', '2024-01-02T03:04:05'],
    ]);
    expect(answer.mapping).toEqual({
      TrackId: named('TrackId'),
      Name: named('Name'),
      Milliseconds: named('Milliseconds'),
      ArtistId: named('ArtistId'),
      Note: named('Note'),
    });
    const status = await dryRun(id, answer.mapping);
    expect(status).toMatchObject({ state: 'done', inserted: 2, failed: 4, percentageCompleted: 100 });
    expect(
      status.errors.map((error) => [error.row, error.message]),
      JSON.stringify(status.errors),
    ).toEqual([
      [3, `${named('Name')} cannot be more than 10 characters.`],
      [4, 'Cell C6 holds the error #DIV/0!.'],
      [5, `${named('Name')} cannot be empty: give it a value.`],
      [6, `A row with the key {"${named('TrackId')}":1} is already in the table.`],
    ]);
  });

  sqliteOnly(
    'reads a chosen sheet by name or number, and names the sheets when the choice is none',
    async () => {
      const file = await excelWorkbook();
      for (const sheet of ['Second', 'second', '2']) {
        const answer = await preview(await uploaded(file, { sheet }));
        expect(answer.options.sheet).toBe('Second');
        expect(answer.fileColumns).toEqual(['Name', 'TrackId']);
        expect(answer.rows).toEqual([['Two', '30']]);
      }
      await refused(file, /no sheet "Third": its sheets are "Tracks", "Second"/, { sheet: 'Third' });
      await refused(file, /no sheet "3"/, { sheet: '3' });
      const headless = await preview(await uploaded(file, { sheet: 'Second', header: 'false' }));
      expect(headless.fileColumns).toEqual(['Column 1', 'Column 2']);
      expect(headless.rows).toEqual([
        ['Name', 'TrackId'],
        ['Two', '30'],
      ]);
    },
  );

  sqliteOnly(
    'reads the first visible sheet by default, and tells its progress by the sheet read',
    async () => {
      const book = new ExcelJS.Workbook();
      book.addWorksheet('Hidden', { state: 'hidden' }).addRow(['Secret']);
      book.addWorksheet('Shown').addRow(['TrackId', 'Name']);
      book.getWorksheet('Shown')?.addRow([1, 'name 1']);
      const answer = await preview(await uploaded(Buffer.from(await book.xlsx.writeBuffer())));
      expect(answer.options.sheet).toBe('Shown');
      // A hidden sheet is not offered.
      expect(answer.options.sheets).toEqual(['Shown']);
      expect(answer.rows).toEqual([['1', 'name 1']]);
      // Random text, so that the sheet's compressed bytes are read in many chunks.
      let sheetData =
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Id</t></is></c><c r="B1" t="inlineStr"><is><t>Text</t></is></c></row>';
      for (let i = 2; i <= 20_001; i++)
        sheetData += `<row r="${i}"><c r="A${i}"><v>${i}</v></c><c r="B${i}" t="inlineStr"><is><t>${randomBytes(12).toString('hex')}</t></is></c></row>`;
      const file = path.join(folder.path, 'progress.xlsx');
      fs.writeFileSync(file, await handWorkbook({ sheetData }));
      const size = fs.statSync(file).size;
      const reader = openFileReader(file, { ...answer.options, sheet: 'Hand' });
      const seen: number[] = [];
      for await (const record of reader.records) if (record.row % 2000 === 0) seen.push(reader.bytesRead());
      expect(seen.length).toBe(10);
      expect(seen[0]).toBeGreaterThan(0);
      expect(seen[0]).toBeLessThan(size / 2);
      expect(seen.every((bytesRead, i) => i === 0 || bytesRead >= (seen[i - 1] as number))).toBe(true);
      expect(seen.at(-1)).toBeLessThanOrEqual(size);
    },
  );

  sqliteOnly("reads DBUI's own XLSX export back as the values exported", async () => {
    const file = path.join(folder.path, `export-${randomBytes(4).toString('hex')}.xlsx`);
    const columns = ['TrackId', 'Name', 'Milliseconds', 'Note'];
    const rows = [
      { TrackId: 40, Name: 'A & <b>', Milliseconds: 1.5, Note: 'tab\there' },
      { TrackId: 41, Name: "=1+1 'q'", Milliseconds: null, Note: true },
      { TrackId: 42, Name: 'Ünïcødé 🎵', Milliseconds: -3, Note: null },
    ];
    await writeXlsxWorkbook({
      file,
      columns,
      rows: (async function* () {
        yield rows;
      })(),
      rowsPerSheet: 1_048_576,
      sheetName: (n) => `Track ${n}`,
      signal: new AbortController().signal,
      onRows: () => undefined,
    });
    const answer = await preview(await uploaded(fs.readFileSync(file)));
    expect(answer.options.sheet).toBe('Track 1');
    expect(answer.fileColumns).toEqual(columns);
    expect(answer.rows).toEqual(
      rows.map((row) =>
        columns.map((name) => {
          const value = row[name as keyof typeof row];
          return value === null ? null : String(value);
        }),
      ),
    );
  });

  sqliteOnly(
    'reads what spreadsheets write beyond exceljs: inline and phonetic text, 1904 dates, cells without references',
    async () => {
      const file = await handWorkbook({
        workbookPr: '<workbookPr date1904="1"/>',
        sharedStrings:
          '<si><t>TrackId</t></si><si><t>Name</t></si><si><r><t>Ka</t></r><r><t>na</t></r><rPh sb="0" eb="2"><t>カナ</t></rPh></si>',
        styles:
          '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>' +
          '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
          '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="20"/></cellXfs>',
        sheetData:
          '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Note</t></is></c><c r="D1" t="inlineStr"><is><t>At</t></is></c></row>' +
          '<row r="2"><c t="n"><v>50</v></c><c t="s"><v>2</v></c><c s="1"><v>43831</v></c><c s="2"><v>0.75</v></c></row>' +
          '<row r="4"><c r="B4" t="inlineStr"><is><r><t xml:space="preserve">a </t></r><r><t>b</t></r></is></c><c r="D4" t="b"><v>1</v></c></row>' +
          '<row r="5"><c r="A5" s="1"/><c r="B5"><f>A1</f></c></row>' +
          '<row r="6"><c r="A6" t="str"><f>"x"</f><v>x</v></c><c r="F6"><v>9</v></c></row>',
      });
      const answer = await preview(await uploaded(file));
      expect(answer.fileColumns).toEqual(['TrackId', 'Name', 'Note', 'At']);
      expect(answer.rows).toEqual([
        ['50', 'Kana', '2024-01-02', '18:00:00'],
        [null, 'a b', null, 'true'],
        [null, null, null, null],
        ['x', null, null, null],
      ]);
      // The formula without a saved result and the cell beyond the header are failures of their rows.
      const status = await dryRun(await uploaded(file), { TrackId: named('TrackId'), Name: named('Name') });
      expect(status.errors.filter((error) => error.column === null)).toEqual([
        {
          row: 3,
          column: null,
          message: expect.stringMatching(/^Cell B5 holds a formula whose result was never saved/),
        },
        { row: 4, column: null, message: "Cell F6 has a value beyond the header's 4 columns." },
      ]);
    },
  );

  sqliteOnly(
    'refuses files that are not workbooks: not a zip, a zip without a workbook, no worksheet',
    async () => {
      await refused(Buffer.from('PK\u0003\u0004 not really'), /cannot be read as a zip archive/);
      await refused(randomBytes(3000), /cannot be read as a zip archive/);
      await refused(await zipOf({ 'word/document.xml': '<w/>' }), /zip archive but not an XLSX workbook/);
      await refused(
        await handWorkbook({
          sheetData: '',
          workbook: `<workbook xmlns="${MAIN}"><sheets/></workbook>`,
        }),
        /no worksheet/,
      );
      await refused(await handWorkbook({ sheetData: '<row><c><v>1</v></row>' }), /not well-formed XML/);
    },
  );

  sqliteOnly('refuses a zip bomb by the bytes it inflates, whatever sizes the archive declares', async () => {
    const bomb = await handWorkbook({
      sheetData: `<row r="1"><c r="A1"><v>1</v></c></row>${' '.repeat(40 * 1024 ** 2)}`,
    });
    expect(bomb.length).toBeLessThan(200_000);
    await refused(bomb, /looks like a zip bomb/);
    // The sheet's declared size made small (central directory and local header): the bytes read still count.
    const lying = Buffer.from(bomb);
    for (
      let at = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      at >= 0;
      at = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
    ) {
      const nameLength = lying.readUInt16LE(at + 28);
      if (lying.subarray(at + 46, at + 46 + nameLength).toString() === 'xl/worksheets/sheet1.xml') {
        lying.writeUInt32LE(100, at + 24);
        lying.writeUInt32LE(100, lying.readUInt32LE(at + 42) + 22);
      }
    }
    await refused(lying, /looks like a zip bomb/);
  });

  sqliteOnly('refuses too many or too long shared strings', async () => {
    const saved = { ...xlsxLimits };
    try {
      xlsxLimits.sharedStrings = 100;
      await refused(
        await handWorkbook({ sharedStrings: '<si><t>a</t></si>'.repeat(101), sheetData: '' }),
        /more than 100 distinct texts: import it as CSV/,
      );
      xlsxLimits.sharedStringChars = 1000;
      await refused(
        await handWorkbook({ sharedStrings: `<si><t>${'b'.repeat(600)}</t></si>`.repeat(2), sheetData: '' }),
        /texts are more than 1,000 characters together/,
      );
      xlsxLimits.sharedStringChars = saved.sharedStringChars;
      xlsxLimits.textRun = 50_000;
      await refused(
        await handWorkbook({ sharedStrings: `<si><t>${'c'.repeat(100_000)}</t></si>`, sheetData: '' }),
        /holds a text of more than 50,000 characters/,
      );
    } finally {
      Object.assign(xlsxLimits, saved);
    }
  });

  sqliteOnly(
    'refuses deep nesting, a DOCTYPE (entities), and cells past the last column or row',
    async () => {
      await refused(
        await handWorkbook({ sheetData: `${'<x>'.repeat(100)}${'</x>'.repeat(100)}` }),
        /nests elements more than 64 deep/,
      );
      const laughs =
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>' +
        `<worksheet xmlns="${MAIN}"><sheetData><row><c t="inlineStr"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>`;
      await refused(await handWorkbook({ sheetData: '', sheetXml: laughs }), /declares a DOCTYPE/);
      await refused(
        await handWorkbook({
          sheetData: '',
          workbook: `<?xml version="1.0"?><!DOCTYPE w SYSTEM "file:///etc/passwd"><workbook xmlns="${MAIN}"/>`,
        }),
        /declares a DOCTYPE/,
      );
      await refused(
        await handWorkbook({ sheetData: '<row r="1"><c r="XFE1"><v>1</v></c></row>' }),
        /past column 16,384/,
      );
      await refused(
        await handWorkbook({
          sheetData: '<row r="1"><c r="XFD1"><v>1</v></c></row><row r="1048577"><c><v>1</v></c></row>',
        }),
        /past row 1,048,576/,
      );
    },
  );
});
