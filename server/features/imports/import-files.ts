import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse, CsvError } from 'csv-parse';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  IMPORT_DELIMITERS,
  importMessages as im,
  type ImportEncoding,
  type ImportFormat,
  type ImportOptions,
} from '#common/contract/imports.ts';
import type { CellValue } from '#common/contract/sql.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { checkXlsx, openXlsxReader } from './import-xlsx.ts';

/*
 * An import's files (issue 39, docs/decisions/0069-imports.md): `{DATA_DIR}/imports/{id}.upload` (the file as sent),
 * `{id}.errors.csv` (every failure of the last run) and `{id}.keys.db` (a run's scratch list of the keys seen, so a
 * duplicate is found without holding the file's keys in memory). Names are built from the UUID alone, never from
 * input. The upload is streamed to disk as it arrives, its size capped, and looked at on the way (whether it is valid
 * UTF-8, its first bytes for the delimiter); it is read again a record at a time for the preview and the runs.
 */

const importId = z.uuid();
const suffixes = { upload: 'upload', errors: 'errors.csv', keys: 'keys.db' } as const;
export type ImportFileKind = keyof typeof suffixes;

/** The imports' folder under the data folder. */
export const importsFolder = (dataDir: string): string => path.join(path.resolve(dataDir), 'imports');

/** One of an import's files; throws unless `id` is a UUID. */
export function importFile(folder: string, id: string, kind: ImportFileKind): string {
  return path.join(path.resolve(folder), `${importId.parse(id)}.${suffixes[kind]}`);
}

/** Removes every file of an import. */
export async function removeImportFiles(folder: string, id: string): Promise<void> {
  for (const kind of Object.keys(suffixes) as ImportFileKind[])
    await fs.promises.rm(importFile(folder, id, kind), { force: true });
}

const fileName =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(upload|errors\.csv|keys\.db)$/;

/** Files of imports whose row is gone, older than `olderThanMs` (only names an import writes count). */
export async function orphanImportFiles(
  folder: string,
  known: Set<string>,
  olderThanMs: number,
): Promise<string[]> {
  const names = await fs.promises.readdir(folder).catch(() => [] as string[]);
  const orphans: string[] = [];
  for (const name of names) {
    const id = fileName.exec(name)?.[1];
    if (id === undefined || known.has(id)) continue;
    const file = path.join(folder, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile() && Date.now() - stat.mtimeMs > olderThanMs) orphans.push(file);
  }
  return orphans;
}

/** Bytes of the file's start kept for detection. */
const HEAD_BYTES = 64 * 1024;

/** What the upload's pass over the bytes learnt. */
interface Looked {
  size: number;
  head: Buffer;
  validUtf8: boolean;
}

/** Passes the bytes on, counting them, keeping the first ones and checking that they are UTF-8. */
function lookingGlass(looked: Looked): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const heads: Buffer[] = [];
  let kept = 0;
  const check = (chunk?: Buffer) => {
    if (!looked.validUtf8) return;
    try {
      if (chunk) decoder.decode(chunk, { stream: true });
      else decoder.decode();
    } catch {
      looked.validUtf8 = false;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      looked.size += chunk.length;
      if (kept < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - kept);
        heads.push(part);
        kept += part.length;
        looked.head = Buffer.concat(heads);
      }
      check(chunk);
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      check();
      done();
    },
  });
}

/** An upload on disk, with its parts and what was seen of it. */
export interface ReceivedUpload {
  fileName: string;
  size: number;
  fields: Record<string, string>;
  head: Buffer;
  validUtf8: boolean;
}

/**
 * Streams the multipart request's `file` part to `target` (never into memory) and reads its other parts as text.
 * A file over `maxBytes` is a 413 and its partial file is removed; so is a request without a file. (The plugin is
 * registered with throwFileSizeLimit: false, so a file over the limit arrives cut, with `truncated` set.)
 */
export async function receiveUpload(
  request: FastifyRequest,
  target: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw new ApiError(400, im.notMultipart);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const fields: Record<string, string> = {};
  const looked: Looked = { size: 0, head: Buffer.alloc(0), validUtf8: true };
  let name: string | null = null;
  let tooLarge = false;
  try {
    const parts = request.parts({
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1000 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || name !== null) {
        part.file.resume();
        continue;
      }
      name = part.filename || 'upload';
      await pipeline(part.file, lookingGlass(looked), fs.createWriteStream(target));
      if (part.file.truncated) tooLarge = true;
    }
  } catch (error) {
    await fs.promises.rm(target, { force: true });
    throw error instanceof ApiError ? error : new ApiError(400, im.notMultipart);
  }
  if (tooLarge) {
    await fs.promises.rm(target, { force: true });
    throw new ApiError(413, im.tooLarge(maxBytes));
  }
  if (name === null) {
    await fs.promises.rm(target, { force: true });
    throw new ApiError(400, im.fileMissing);
  }
  return { fileName: name, size: looked.size, fields, head: looked.head, validUtf8: looked.validUtf8 };
}

const formatByExtension: Record<string, ImportFormat> = {
  csv: 'csv',
  tsv: 'csv',
  txt: 'csv',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  xlsx: 'xlsx',
};

/** One character, as a part may spell it (`tab` and `\t` for a tab). */
function oneCharacter(name: string, given: string): string {
  const text = given === 'tab' || given === '\\t' ? '\t' : given;
  if ([...text].length !== 1 || text === '\n' || text === '\r')
    throw new ApiError(400, im.badOption(name, 'one character (or tab)'));
  return text;
}

/** How many times `delimiter` splits a line, outside quotes. */
function fieldsOf(line: string, delimiter: string, quote: string): number {
  let count = 0;
  let quoted = false;
  for (const c of line) {
    if (c === quote) quoted = !quoted;
    else if (c === delimiter && !quoted) count += 1;
  }
  return count;
}

/** The delimiter the first lines agree on: the one that splits most lines as the first line, then most often. */
export function detectDelimiter(text: string, quote: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.length > 0);
  // The last line of a cut head may be cut too.
  const sample = (lines.length > 1 ? lines.slice(0, -1) : lines).slice(0, 10);
  let best: { delimiter: string; agree: number; count: number } = { delimiter: ',', agree: 0, count: 0 };
  for (const delimiter of IMPORT_DELIMITERS) {
    const counts = sample.map((line) => fieldsOf(line, delimiter, quote));
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const agree = counts.filter((count) => count === first).length;
    if (agree > best.agree || (agree === best.agree && first > best.count))
      best = { delimiter, agree, count: first };
  }
  return best.delimiter;
}

/** How the file is read: the upload's parts where given, else what its name and bytes say. */
export function importOptionsOf(upload: ReceivedUpload): ImportOptions {
  const { fields } = upload;
  const extension = /\.([A-Za-z0-9]+)$/.exec(upload.fileName)?.[1]?.toLowerCase() ?? '';
  const givenFormat = fields.format?.trim().toLowerCase();
  if (givenFormat !== undefined && !['csv', 'jsonl', 'xlsx'].includes(givenFormat))
    throw new ApiError(400, im.badOption('format', 'csv, jsonl or xlsx'));
  const format = (givenFormat as ImportFormat | undefined) ?? formatByExtension[extension];
  if (!format) throw new ApiError(400, im.formatUnknown);
  if (upload.size === 0) throw new ApiError(400, im.emptyFile);
  const givenHeader = fields.header?.trim().toLowerCase();
  if (givenHeader !== undefined && givenHeader !== 'true' && givenHeader !== 'false')
    throw new ApiError(400, im.badOption('header', 'true or false'));
  // An XLSX file's sheet is chosen, and the file read through, by readyToRead (the other options do not apply).
  if (format === 'xlsx')
    return {
      format,
      delimiter: ',',
      quote: '"',
      header: givenHeader !== 'false',
      encoding: 'utf-8',
      ...(fields.sheet?.trim() ? { sheet: fields.sheet } : {}),
    };
  const givenEncoding = fields.encoding?.trim().toLowerCase();
  let encoding: ImportEncoding;
  if (givenEncoding === undefined) encoding = upload.validUtf8 ? 'utf-8' : 'latin1';
  else if (['utf-8', 'utf8'].includes(givenEncoding)) encoding = 'utf-8';
  else if (['latin1', 'latin-1', 'iso-8859-1'].includes(givenEncoding)) encoding = 'latin1';
  else throw new ApiError(400, im.badOption('encoding', 'utf-8 or latin1'));
  const quote = fields.quote === undefined ? '"' : oneCharacter('quote', fields.quote);
  const delimiter =
    fields.delimiter !== undefined
      ? oneCharacter('delimiter', fields.delimiter)
      : extension === 'tsv'
        ? '\t'
        : detectDelimiter(upload.head.toString(encoding === 'utf-8' ? 'utf8' : 'latin1'), quote);
  return { format, delimiter, quote, header: givenHeader !== 'false', encoding };
}

/**
 * The options a file is read with once the upload is on disk: for XLSX, the workbook opened, the sheet chosen (its
 * name kept) and the whole sheet read once, so that a file that cannot be read is a 400 before the import exists.
 */
export async function readyToRead(file: string, options: ImportOptions): Promise<ImportOptions> {
  if (options.format !== 'xlsx') return options;
  try {
    return await checkXlsx(file, options);
  } catch (error) {
    if (error instanceof UnreadableFile) throw new ApiError(400, error.message);
    throw error;
  }
}

/** One record of the file: its values by file column, or what is wrong with it. */
export interface FileRecord {
  /** 1 is the first data row. */
  row: number;
  values: Record<string, CellValue>;
  problem: string | null;
}

/** A file being read: its columns once known (CSV: at once; JSON Lines: growing as keys appear), its records. */
export interface FileReader {
  columns: string[];
  records: AsyncGenerator<FileRecord>;
  /** Bytes read so far, for the progress (XLSX: the share of the sheet's compressed bytes read, times the file's
   * size). */
  bytesRead(): number;
  close(): void;
}

/** A JSON value as one cell: objects and arrays as their JSON text. */
const cellOf = (value: unknown): CellValue =>
  value === null || value === undefined
    ? null
    : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : JSON.stringify(value);

/** A CSV parse failure in words, with the line it is on. */
function csvProblem(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line ? ` (line ${line} of the file)` : '';
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return `A quoted field is never closed${where}.`;
  if (
    error.code === 'CSV_INVALID_CLOSING_QUOTE' ||
    error.code === 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE'
  )
    return `A quote is followed by other characters inside a field${where}: quote the whole field and double the quotes inside it.`;
  return `The file cannot be read as CSV${where}.`;
}

/** The error a malformed file stops a read with: its sentence is for people. */
export class UnreadableFile extends Error {}

/** Opens an upload for reading a record at a time. */
export function openFileReader(file: string, options: ImportOptions): FileReader {
  if (options.format === 'xlsx') return openXlsxReader(file, options);
  const input = fs.createReadStream(file, { encoding: options.encoding === 'utf-8' ? 'utf8' : 'latin1' });
  const columns: string[] = [];
  const reader: FileReader = {
    columns,
    records: options.format === 'jsonl' ? jsonLines(input, columns) : csvRecords(input, options, columns),
    bytesRead: () => input.bytesRead,
    close: () => input.destroy(),
  };
  return reader;
}

/** An empty field is null; a quoted empty one ("") an empty text, as DBUI's export writes them. */
const emptyAsNull = (value: string, context: { quoting: boolean }) =>
  value === '' && !context.quoting ? null : value;

/** csv-parse's parser as a transform, with its internal field hook where it has one (see below). */
interface CsvParserInternals {
  api?: { __cast?: unknown; state?: { wasQuoting?: boolean } };
}

/**
 * csv-parse with an empty unquoted field read as null. Its `cast` option builds a context object for every field,
 * which made reading 30 times slower (200,000 rows of four fields: 16 s instead of 0.5 s); csv-parse 6's own field
 * hook (`api.__cast`, called with `cast: true`) is replaced instead, reading only whether the field was quoted. When
 * a later version lacks that hook, the public `cast` function is used (slow, but the same values); the preview test
 * pins the values either way.
 */
function csvParser(options: ImportOptions) {
  const common = {
    delimiter: options.delimiter,
    quote: options.quote,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
  };
  const fast = parse({ ...common, cast: true });
  const api = (fast as unknown as CsvParserInternals).api;
  if (api && typeof api.__cast === 'function' && api.state && 'wasQuoting' in api.state) {
    const state = api.state;
    api.__cast = (field: string) => [undefined, emptyAsNull(field, { quoting: state.wasQuoting === true })];
    return fast;
  }
  fast.destroy();
  return parse({ ...common, cast: emptyAsNull });
}

async function* csvRecords(
  input: fs.ReadStream,
  options: ImportOptions,
  columns: string[],
): AsyncGenerator<FileRecord> {
  const parser = input.pipe(csvParser(options));
  input.on('error', (error) => parser.destroy(error));
  let row = 0;
  try {
    for await (const raw of parser as AsyncIterable<(string | null)[]>) {
      if (columns.length === 0) {
        if (options.header) {
          columns.push(...raw.map((name, i) => (name ?? '').trim() || `Column ${i + 1}`));
          continue;
        }
        columns.push(...raw.map((_, i) => `Column ${i + 1}`));
      }
      row += 1;
      const values: Record<string, CellValue> = {};
      columns.forEach((name, i) => (values[name] = raw[i] ?? null));
      const problem =
        raw.length === columns.length
          ? null
          : `The row has ${raw.length} fields; the ${options.header ? 'header has' : 'first row has'} ${columns.length}.`;
      yield { row, values, problem };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new UnreadableFile(csvProblem(error));
    throw error;
  } finally {
    input.destroy();
  }
}

async function* jsonLines(input: fs.ReadStream, columns: string[]): AsyncGenerator<FileRecord> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const known = new Set<string>();
  let row = 0;
  let first = true;
  try {
    for await (let line of lines) {
      if (first) line = line.replace(/^\uFEFF/, '');
      first = false;
      if (line.trim() === '') continue;
      row += 1;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        yield { row, values: {}, problem: 'The line is not valid JSON.' };
        continue;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        yield { row, values: {}, problem: 'The line is not a JSON object ({"column": value, …}).' };
        continue;
      }
      const values: Record<string, CellValue> = {};
      for (const [name, value] of Object.entries(parsed)) {
        if (!known.has(name)) {
          known.add(name);
          columns.push(name);
        }
        values[name] = cellOf(value);
      }
      yield { row, values, problem: null };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
