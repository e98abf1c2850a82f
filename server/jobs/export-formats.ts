import fs from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import type { ExportFormat } from '#common/contract/exports.ts';
import type { CellValue, Row, Table } from '#common/contract/sql.ts';
import type { DatabaseEngine, EngineKind, RowStreamQuery } from '#server/engines/engine.ts';
import { formulaSafeCell, formulaSafeText } from '#server/engines/formula-cells.ts';
import { writeXlsxWorkbook } from './xlsx-workbook.ts';

/*
 * Writing an export file, streamed end to end with backpressure (database → format → file): the next chunk of
 * rows is read only when the file has taken the last one, so memory stays flat whatever the table size.
 *
 * - CSV: RFC 4180 by csv-stringify; a header row of the column names; LF line ends; null as an empty field and an
 *   empty string as ""; booleans as true/false; values as the wire gives them (binary as base64, big numbers as
 *   their digits, dates as ISO text). Text that starts like a formula (= + - @, tab, CR) gets a leading single
 *   quote, in the header too, so a spreadsheet shows it instead of running it (engines/formula-cells.ts); numbers
 *   stay numbers. `bom` starts the file with the UTF-8 byte-order mark Excel wants. On PostgreSQL and
 *   MySQL/MariaDB, when the columns and filter allow, the records are written from the database's own output
 *   (PostgreSQL COPY's plain text, engines/postgres/copy-text.ts; MySQL's raw cells; the same bytes).
 * - JSON Lines: one JSON object per row, keys in column order, values as on the wire. On PostgreSQL the lines are
 *   written from COPY's plain text (engines/postgres/copy-text.ts, the same bytes).
 * - XLSX: the sheet XML written here as rows arrive and zipped as it goes (xlsx-workbook.ts; the cells exceljs's
 *   streaming writer made, without shared strings or styles: nothing kept per row). A sheet holds at most
 *   1,048,576 rows (Excel's limit) including its header row, so longer exports continue on further sheets
 *   ("Track", "Track (2)", …), each with the header row. Numbers and booleans are typed cells, everything else
 *   text (big numbers and dates keep their exact wire text). What XLSX cannot carry exactly: an empty string
 *   reads back as an empty cell; the file is XML, so a carriage return reads back as a line feed and the writer
 *   drops other control characters; Excel shows at most 32,767 characters of a cell. CSV and JSON Lines carry
 *   all of these. A string is written as a string cell, never a formula, so XLSX needs no quote.
 */

/** Excel's rows per sheet. */
export const XLSX_MAX_ROWS = 1_048_576;

export interface ExportWrite {
  engine: DatabaseEngine;
  table: Table;
  query: RowStreamQuery;
  format: ExportFormat;
  /** CSV only: start with the UTF-8 byte-order mark. */
  bom: boolean;
  /** The file to create (it must not exist). */
  file: string;
  signal: AbortSignal;
  /** Told after each chunk how many more rows are in the file. */
  onRows: (rows: number) => void;
  chunkSize?: number;
  /** XLSX rows per sheet including the header (tests make it small). */
  rowsPerSheet?: number;
}

/** Writes the whole export; throws (leaving the partial file for the caller to remove) on failure or abort. */
export async function writeExportFile(write: ExportWrite): Promise<void> {
  if (write.format === 'xlsx') return writeXlsx(write);
  await writeChunks(write.format === 'csv' ? csvBytes(write) : jsonLines(write), write.file, write.signal);
}

/** Writes each chunk to a new file before asking for the next: an engine's chunk may be its writer's own buffer,
 * written again once the next is asked for (CsvChunk). */
async function writeChunks(
  source: AsyncIterable<string | Uint8Array>,
  file: string,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  const handle = await fs.promises.open(file, 'wx');
  try {
    for await (const chunk of source) {
      signal.throwIfAborted();
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

const columnNames = (table: Table) => table.columns.map((c) => c.name);
const BOM = '\ufeff';

/** csv-stringify's options for DBUI's CSV (see above); `quoted_match` keeps a lone \. quoted in a one-column file,
 * as COPY does (it would read as PostgreSQL's end-of-data marker). With a record delimiter set, csv-stringify
 * quotes only fields holding that one; `quote_record_delimiter` quotes a carriage return too, as RFC 4180 and the
 * engines' own CSV do. */
function csvOptions(table: Table) {
  return {
    eof: true,
    record_delimiter: '\n',
    quote_record_delimiter: true,
    cast: {
      boolean: (value: boolean) => (value ? 'true' : 'false'),
      string: (value: string) => (value === '' ? { value, quoted_empty: true } : value),
    },
    ...(table.columns.length === 1 ? { quoted_match: /^\\\.$/ } : {}),
  };
}

/** The header row as CSV (what both ways of writing CSV start with); a column name is a text cell too. */
export function csvHeader(table: Table): string {
  return stringify([columnNames(table).map(formulaSafeText)], csvOptions(table));
}

/** Rows of an engine of `kind` as CSV records, formula-like text quoted. */
export function csvRecords(kind: EngineKind, table: Table, rows: Row[]): string {
  const cells = table.columns.map((column) => ({ name: column.name, safe: formulaSafeCell(kind, column) }));
  return stringify(
    rows.map((row) => cells.map((cell) => cell.safe(row[cell.name] ?? null))),
    csvOptions(table),
  );
}

async function* csvBytes(write: ExportWrite): AsyncGenerator<string | Uint8Array> {
  yield `${write.bom ? BOM : ''}${csvHeader(write.table)}`;
  const copied = write.engine.streamCsv(write.table, write.query, { signal: write.signal });
  if (copied) {
    for await (const chunk of copied) {
      yield chunk.bytes;
      write.onRows(chunk.rows);
    }
    return;
  }
  for await (const rows of write.engine.streamRows(write.table, write.query, {
    signal: write.signal,
    chunkSize: write.chunkSize,
  })) {
    yield csvRecords(write.engine.kind, write.table, rows);
    write.onRows(rows.length);
  }
}

async function* jsonLines(write: ExportWrite): AsyncGenerator<string | Uint8Array> {
  const written = write.engine.streamJsonLines(write.table, write.query, { signal: write.signal });
  if (written) {
    for await (const chunk of written) {
      yield chunk.bytes;
      write.onRows(chunk.rows);
    }
    return;
  }
  const names = columnNames(write.table);
  for await (const rows of write.engine.streamRows(write.table, write.query, {
    signal: write.signal,
    chunkSize: write.chunkSize,
  })) {
    let text = '';
    for (const row of rows) {
      const ordered: Record<string, CellValue> = {};
      for (const name of names) ordered[name] = row[name] ?? null;
      text += `${JSON.stringify(ordered)}\n`;
    }
    yield text;
    write.onRows(rows.length);
  }
}

/** A sheet name Excel takes: at most 31 characters, none of \ / ? * [ ] :, not blank. */
export function sheetName(table: string, sheet: number): string {
  const suffix = sheet > 1 ? ` (${sheet})` : '';
  const base = table.replace(/[\\/?*[\]:]/g, '_').replace(/^'+|'+$/g, '') || 'Export';
  return `${base.slice(0, 31 - suffix.length)}${suffix}`;
}

function writeXlsx(write: ExportWrite): Promise<void> {
  return writeXlsxWorkbook({
    file: write.file,
    columns: columnNames(write.table),
    rows: write.engine.streamRows(write.table, write.query, {
      signal: write.signal,
      chunkSize: write.chunkSize,
    }),
    rowsPerSheet: write.rowsPerSheet ?? XLSX_MAX_ROWS,
    sheetName: (number) => sheetName(write.table.name, number),
    signal: write.signal,
    onRows: write.onRows,
  });
}
