import fs from 'node:fs';
import { Readable, type PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Row } from '#common/contract/sql.ts';
import { PACKAGE_RELATIONSHIPS, SHEET_END, SHEET_START, sheetRow, workbookParts } from './xlsx-parts.ts';
import { XLSX_THEME } from './xlsx-theme.ts';

/*
 * An XLSX workbook streamed from rows into a file (docs/decisions/0038-xlsx-written-by-dbui.md): each sheet's XML
 * is made a chunk of rows at a time and pulled by the zip writer (yazl, the deflate on libuv's threads), which is
 * pulled by the file, so the next chunk is read from the database only when the file has taken the last one. Nothing
 * is kept per row, and no object is made per cell: memory stays flat whatever the row count.
 */

/** The sheet XML's buffers: a chunk of rows is handed to the zip as one or a few of them. */
const BUFFER_BYTES = 256 * 1024;

export interface XlsxWorkbookWrite {
  /** The file to create (it must not exist). */
  file: string;
  /** The header row, and which of each row's values go in the columns, in order. */
  columns: readonly string[];
  /** Chunks of rows, read as the file takes them. */
  rows: AsyncIterable<Row[]>;
  /** Rows per sheet including the header row: more rows continue on another sheet, with the header again. */
  rowsPerSheet: number;
  /** The name of sheet `number` (1, 2, …). */
  sheetName: (number: number) => string;
  signal: AbortSignal;
  /** Told after each chunk how many more rows are in the file. */
  onRows: (rows: number) => void;
}

/** Writes the workbook; throws (leaving the partial file for the caller to remove) on failure or abort. */
export async function writeXlsxWorkbook(write: XlsxWorkbookWrite): Promise<void> {
  if (!(write.rowsPerSheet >= 2)) throw new Error('a sheet holds the header row and at least one more');
  // Loaded on the first XLSX export, not at every start.
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  // yazl's output is a PassThrough; its types say only ReadableStream.
  const output = zip.outputStream as PassThrough;
  zip.on('error', (error: Error) => output.destroy(error));
  const created = new Date();
  // zlib's fastest level, as exceljs's zip writer used: the sheets' XML is repetitive enough that level 6 saves a
  // tenth of the file for a fifth of the speed.
  const entry = { mtime: created, compressionLevel: 1 };
  const add = (path: string, xml: string) => zip.addBuffer(Buffer.from(xml), path, entry);
  const written = pipeline(output, fs.createWriteStream(write.file, { flags: 'wx' }), {
    signal: write.signal,
  });

  const source = write.rows[Symbol.asyncIterator]();
  const rowXml = sheetRow(write.columns);
  const header = rowXml(Object.fromEntries(write.columns.map((name) => [name, name])), 1);
  const sheetNames: string[] = [];
  /** Rows read but not written yet: the rest of a chunk that filled a sheet. */
  let carried: Row[] = [];
  let sheet: Readable | null = null;

  /** The sheet's XML, a chunk of rows at a time; when it is full and rows remain, it adds the next sheet, and after
   * the last row it adds the parts that list the sheets and ends the zip. */
  async function* sheetXml(): AsyncGenerator<Buffer> {
    yield Buffer.from(SHEET_START + header);
    let rowsInSheet = 1;
    // Each row's XML is written into a buffer as it is made: one string of a whole chunk would cost more to
    // flatten and encode than to make.
    let buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    let used = 0;
    for (;;) {
      let rows = carried;
      carried = [];
      if (rows.length === 0) {
        const next = await source.next();
        if (next.done) {
          yield Buffer.from(SHEET_END);
          for (const [path, xml] of workbookParts(sheetNames, created)) add(path, xml);
          zip.end();
          return;
        }
        rows = next.value;
      }
      const room = write.rowsPerSheet - rowsInSheet;
      if (rows.length > room) {
        carried = rows.slice(room);
        rows = rows.slice(0, room);
      }
      for (const row of rows) {
        const xml = rowXml(row, ++rowsInSheet);
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (used + xml.length * 3 > buffer.length) {
          if (used > 0) yield buffer.subarray(0, used);
          buffer = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, xml.length * 3));
          used = 0;
        }
        used += buffer.write(xml, used);
      }
      if (used > 0) {
        // The rest of the buffer takes the next rows: the part handed over is never written again.
        yield buffer.subarray(0, used);
        buffer = buffer.subarray(used);
        used = 0;
      }
      write.onRows(rows.length);
      if (carried.length > 0) {
        yield Buffer.from(SHEET_END);
        addSheet();
        return;
      }
    }
  }

  function addSheet(): void {
    sheetNames.push(write.sheetName(sheetNames.length + 1));
    // Not object mode: the zip pulls bytes, and one chunk's XML waits here at most.
    sheet = Readable.from(sheetXml(), { objectMode: false, highWaterMark: 64 * 1024 });
    // yazl does not listen for a read stream's errors: a failed read (the database's) fails the file.
    sheet.on('error', (error) => output.destroy(error));
    zip.addReadStream(sheet, `xl/worksheets/sheet${sheetNames.length}.xml`, entry);
  }

  try {
    add('xl/theme/theme1.xml', XLSX_THEME);
    add('_rels/.rels', PACKAGE_RELATIONSHIPS);
    addSheet();
    await written;
  } finally {
    // On failure or abort: stop the sheet being read and close the rows (the cursor goes with them).
    (sheet as Readable | null)?.destroy();
    await source.return?.().catch(() => undefined);
  }
}
