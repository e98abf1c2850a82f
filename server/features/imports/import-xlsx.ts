import path from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import type { Entry, ZipFile } from 'yauzl';
import type { ImportOptions } from '#common/contract/imports.ts';
import type { CellValue } from '#common/contract/sql.ts';
import { UnreadableFile, type FileReader, type FileRecord } from './import-files.ts';

/*
 * XLSX files read a record at a time (issue 39, docs/decisions/0071-xlsx-imports.md). The upload is a zip archive
 * read entry by entry with yauzl (random access: the central directory says where each part is, so the parts are read
 * in the order needed, whatever their order in the file); each part's XML is parsed as it is inflated by saxes, a
 * streaming parser, so no part is ever held whole. The shared strings (text cells point into them) are read first and
 * kept in memory under a cap; the sheet is then read row by row into the same records the CSV reader yields.
 *
 * Every quantity a hostile file could blow up is capped on what is actually read, never on what the archive declares:
 * the bytes inflated (per read of the file, and per part), the characters of text without markup, the shared
 * strings' count and length, the XML's depth, the rows and columns; a DOCTYPE is refused outright (no entity is
 * ever expanded). Each breach stops the read with an UnreadableFile naming what to fix.
 */

/** The caps (tests lower some of them to build small hostile files). */
export const xlsxLimits = {
  /** Bytes inflated in one read of the file, as a multiple of the file's size (a zip bomb inflates far more). */
  inflateRatio: 100,
  /** Bytes inflated in one read of the file, whatever its size. */
  inflateBytes: 4 * 1024 ** 3,
  /** Bytes of one part other than a sheet or the shared strings (workbook, relationships, styles). */
  partBytes: 32 * 1024 ** 2,
  /** Bytes of the shared strings part. */
  sharedStringsBytes: 256 * 1024 ** 2,
  /** Shared strings kept. */
  sharedStrings: 2_000_000,
  /** Characters of all shared strings together. */
  sharedStringChars: 64 * 1024 ** 2,
  /** Characters of text with no markup in them (a cell holds at most 32,767). */
  textRun: 16 * 1024 ** 2,
  /** Elements open at once (a sheet nests six deep). */
  depth: 64,
  /** Entries of the archive. */
  entries: 10_000,
};

/** Excel's own limits. */
const MAX_ROWS = 1_048_576;
const MAX_COLUMNS = 16_384;

const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const STRICT_RELATIONSHIP_TYPES = 'http://purl.oclc.org/ooxml/officeDocument/relationships/';

/** The end of a relationship type (worksheet, sharedStrings, styles, officeDocument). */
function relationshipKind(type: string): string {
  for (const prefix of [RELATIONSHIP_TYPES, STRICT_RELATIONSHIP_TYPES])
    if (type.startsWith(prefix)) return type.slice(prefix.length);
  return '';
}

/** An element's or attribute's name without its prefix (`x:c` → `c`). */
const local = (name: string): string => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/** An attribute by its local name (`r:id` by `id`, when `prefixed`). */
function attribute(tag: SaxesTagPlain, name: string, prefixed = false): string | undefined {
  const direct = tag.attributes[name];
  if (direct !== undefined && !prefixed) return direct;
  for (const [key, value] of Object.entries(tag.attributes))
    if (local(key) === name && (!prefixed || key.includes(':'))) return value;
  return undefined;
}

/** How a number cell is shown, as far as importing it goes. */
type DateKind = 'date' | 'time' | 'datetime';

/** The built-in number formats that show a date or a time (ECMA-376 18.8.30; 27-36 and 50-58 are East Asian dates). */
function builtInDateKind(id: number): DateKind | null {
  if (id >= 14 && id <= 17) return 'date';
  if ((id >= 18 && id <= 21) || (id >= 45 && id <= 47)) return 'time';
  if (id === 22) return 'datetime';
  if ((id >= 27 && id <= 36) || (id >= 50 && id <= 58)) return 'date';
  return null;
}

/** Whether a number format code shows a date, a time or both (its first section; quoted text, escapes, colours and
 * conditions left out; `m` is minutes next to hours or seconds, else months). */
export function formatDateKind(code: string): DateKind | null {
  let text = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '');
  text = text.split(';')[0] ?? '';
  const elapsed = /\[(h+|m+|s+)\]/i.test(text);
  text = text.replace(/\[[^\]]*\]/g, '').replace(/general/gi, '');
  const clock = /AM\/PM|A\/P/i.test(text);
  text = text.replace(/AM\/PM|A\/P/gi, '');
  const time = elapsed || clock || /[hs]/i.test(text);
  const date = /[dy]/i.test(text) || (/m/i.test(text) && !/[hs]/i.test(text));
  if (date && time) return 'datetime';
  if (date) return 'date';
  if (time) return 'time';
  return null;
}

const DAY_MS = 86_400_000;
/** 9999-12-31 in the 1900 date system: Excel shows no later date. */
const LAST_SERIAL = 2_958_465;

/** A date cell's serial number as ISO text (`YYYY-MM-DD`, `HH:MM:SS`, `YYYY-MM-DDTHH:MM:SS[.mmm]`), or null for one
 * Excel cannot show (negative, past 9999, or the 29 February 1900 of its 1900 leap-year bug). */
export function serialToIso(serial: number, date1904: boolean, kind: DateKind): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial > LAST_SERIAL) return null;
  const ms = Math.round(serial * DAY_MS);
  const days = Math.floor(ms / DAY_MS);
  const rest = ms - days * DAY_MS;
  let epoch: number;
  if (date1904) epoch = Date.UTC(1904, 0, 1);
  else if (days === 60) return null;
  // The 1900 system counts a 29 February 1900 that never was: serials before it are a day later.
  else epoch = days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  const iso = new Date(epoch + days * DAY_MS + rest).toISOString();
  const clock = iso.slice(11, rest % 1000 === 0 ? 19 : 23);
  if (kind === 'time' && days === 0) return clock;
  if (kind === 'date' && rest === 0) return iso.slice(0, 10);
  return `${iso.slice(0, 10)}T${clock}`;
}

/** A cell reference's column (1 for A) and row, or null when it is not one. */
function cellPosition(ref: string): { column: number; row: number } | null {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    const upper = code >= 97 ? code - 32 : code;
    if (upper < 65 || upper > 90) break;
    column = column * 26 + (upper - 64);
    if (column > MAX_COLUMNS) return { column, row: 0 };
  }
  const row = Number(ref.slice(i));
  if (i === 0 || !Number.isInteger(row) || row < 1) return null;
  return { column, row };
}

/** A column's letters: 1 → A, 27 → AA. */
function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

const fail = (message: string): never => {
  throw new UnreadableFile(message);
};

const message = {
  notZip:
    'The file is not an XLSX workbook: it cannot be read as a zip archive. Save it from the spreadsheet as .xlsx, or export it as CSV.',
  damaged: (detail: string) =>
    `The file is not a readable XLSX workbook: its zip archive is damaged (${detail}). Save it again from the spreadsheet.`,
  noWorkbook:
    'The file is a zip archive but not an XLSX workbook (it has no workbook part). Save it from the spreadsheet as .xlsx.',
  noSheets: 'The workbook has no worksheet to import.',
  missingPart: (part: string) =>
    `The workbook is incomplete: it names a part ${part} the file does not have. Save it again from the spreadsheet.`,
  encrypted:
    'The workbook is encrypted or uses a compression DBUI cannot read: save it without a password as .xlsx.',
  inflated: (bytes: number) =>
    `The file unpacks to more than ${bytes.toLocaleString('en')} bytes, far more than a workbook of its size holds: it looks like a zip bomb and is refused.`,
  partTooLarge: (part: string, bytes: number) =>
    `The part ${part} of the workbook unpacks to more than ${bytes.toLocaleString('en')} bytes: it is refused.`,
  notXml: (part: string, detail: string) =>
    `The part ${part} of the workbook is not well-formed XML (${detail}). Save the file again from the spreadsheet.`,
  doctype: (part: string) =>
    `The part ${part} of the workbook declares a DOCTYPE, which a workbook never has: the file is refused.`,
  tooDeep: (part: string, depth: number) =>
    `The part ${part} of the workbook nests elements more than ${depth} deep: the file is refused.`,
  textTooLong: (part: string, chars: number) =>
    `The part ${part} of the workbook holds a text of more than ${chars.toLocaleString('en')} characters: the file is refused.`,
  tooManyStrings: (count: number) =>
    `The workbook has more than ${count.toLocaleString('en')} distinct texts: import it as CSV (save the sheet as CSV).`,
  stringsTooLong: (chars: number) =>
    `The workbook's texts are more than ${chars.toLocaleString('en')} characters together: import it as CSV (save the sheet as CSV).`,
  tooManyRows: `The sheet has rows past row ${MAX_ROWS.toLocaleString('en')}, the most a worksheet has: the file is refused.`,
  tooManyColumns: `The sheet has cells past column ${MAX_COLUMNS.toLocaleString('en')} (XFD), the most a worksheet has: the file is refused.`,
  badReference: (ref: string) => `The sheet has a cell reference ${ref} that is not one (like B7).`,
  tooManyEntries: (count: number) =>
    `The file has more than ${count.toLocaleString('en')} parts, far more than a workbook has: it is refused.`,
  unknownSheet: (given: string, names: string[]) =>
    `The workbook has no sheet ${JSON.stringify(given)}: its sheets are ${names.map((n) => JSON.stringify(n)).join(', ')} (send one of these names, or a number from 1 to ${names.length}).`,
  chosenSheetGone: (name: string) => `The workbook has no sheet ${JSON.stringify(name)} any more.`,
};

/** What a read of the file may still inflate. */
interface Budget {
  left: number;
  limit: number;
}

/** A worksheet of the workbook. */
interface Sheet {
  name: string;
  part: string;
  hidden: boolean;
}

/** An opened workbook: its archive's entries by part name (lower case), its sheets, its parts. */
interface Workbook {
  /** saxes's parser, loaded with the first XLSX file read (not at every start). */
  Parser: typeof SaxesParser;
  zip: ZipFile;
  fileSize: number;
  entries: Map<string, Entry>;
  budget: Budget;
  sheets: Sheet[];
  date1904: boolean;
  sharedStrings: string | null;
  styles: string | null;
}

/** A part name from a relationship's target, relative to the part that has the relationship. */
function resolvePart(source: string, target: string): string {
  const joined = target.startsWith('/')
    ? target.slice(1)
    : path.posix.join(path.posix.dirname(source), target);
  return path.posix.normalize(joined).replace(/^(\.\.\/)+/, '');
}

/** The relationships part of a part (`xl/workbook.xml` → `xl/_rels/workbook.xml.rels`). */
const relationshipsOf = (part: string): string =>
  path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`);

/**
 * A part's XML as text chunks, inflated as read. `onCompressed` is told of the compressed bytes as they are read (the
 * sheet's progress). The bytes inflated count against the part's cap and the read's budget.
 */
async function* partText(
  book: Workbook,
  part: string,
  cap: number,
  onCompressed?: (bytes: number) => void,
): AsyncGenerator<string> {
  const entry = book.entries.get(part.toLowerCase());
  if (!entry) return fail(message.missingPart(part));
  if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8))
    return fail(message.encrypted);
  let raw: Readable;
  try {
    raw = await book.zip.openReadStreamPromise(entry, { decodeFileData: false });
  } catch (error) {
    return fail(message.damaged((error as Error).message));
  }
  const inflate = entry.compressionMethod === 8 ? zlib.createInflateRaw() : null;
  // A stored part's bytes are counted as they are read below; a deflated one's as they enter the inflater.
  if (onCompressed && inflate) raw.on('data', (chunk: Buffer) => onCompressed(chunk.length));
  const source: Readable = inflate ? raw.pipe(inflate) : raw;
  raw.on('error', (error) => source.destroy(error));
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let first = true;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (onCompressed && !inflate) onCompressed(chunk.length);
      bytes += chunk.length;
      book.budget.left -= chunk.length;
      if (book.budget.left < 0) fail(message.inflated(book.budget.limit));
      if (bytes > cap) fail(message.partTooLarge(part, cap));
      let text = decoder.write(chunk);
      if (first && text.length > 0) {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      if (text.length > 0) yield text;
    }
    const rest = decoder.end();
    if (rest.length > 0) yield rest;
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    return fail(message.damaged((error as Error).message));
  } finally {
    raw.unpipe();
    raw.destroy();
    inflate?.destroy();
  }
}

/** The handlers a part's parse calls: open and close of elements (local names), text inside them. */
interface XmlHandlers {
  open(name: string, tag: SaxesTagPlain): void;
  close(name: string): void;
  text?(text: string): void;
}

/**
 * Parses a part's XML with saxes as it is inflated, calling `handlers`; after each chunk `afterChunk` runs (the sheet
 * hands its finished rows on there). A DOCTYPE, nesting past the cap, a text run past the cap and XML that is not
 * well-formed stop it.
 */
async function* parsePart(
  book: Workbook,
  part: string,
  cap: number,
  handlers: XmlHandlers,
  onCompressed?: (bytes: number) => void,
): AsyncGenerator<void> {
  const parser = new book.Parser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  let depth = 0;
  parser.on('doctype', () => fail(message.doctype(part)));
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth > xlsxLimits.depth) fail(message.tooDeep(part, xlsxLimits.depth));
    handlers.open(local(tag.name), tag);
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    handlers.close(local(tag.name));
  });
  const { text } = handlers;
  if (text) parser.on('text', text);
  /** Characters since the last `<`: saxes holds a text node whole until its end. */
  let run = 0;
  const write = (chunk: string) => {
    // A run inside one chunk is bounded by the chunk; one across chunks is counted.
    const firstTag = chunk.indexOf('<');
    if (firstTag < 0) run += chunk.length;
    else {
      if (run + firstTag > xlsxLimits.textRun) fail(message.textTooLong(part, xlsxLimits.textRun));
      run = chunk.length - chunk.lastIndexOf('<');
    }
    if (run > xlsxLimits.textRun) fail(message.textTooLong(part, xlsxLimits.textRun));
    parser.write(chunk);
  };
  try {
    for await (const chunk of partText(book, part, cap, onCompressed)) {
      write(chunk);
      yield;
    }
    parser.close();
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    fail(message.notXml(part, (error as Error).message.replace(/^undefined:/, '').trim()));
  }
}

/** Runs through an iteration, keeping nothing. */
async function drain(items: AsyncIterable<unknown>): Promise<void> {
  const iterator = items[Symbol.asyncIterator]();
  while (!(await iterator.next()).done);
}

/** Runs a part's parse to its end. */
const readPart = (book: Workbook, part: string, cap: number, handlers: XmlHandlers): Promise<void> =>
  drain(parsePart(book, part, cap, handlers));

/** A part's relationships: id → { kind, part }. */
async function relationships(
  book: Workbook,
  part: string,
): Promise<Map<string, { kind: string; part: string }>> {
  const found = new Map<string, { kind: string; part: string }>();
  const rels = relationshipsOf(part);
  if (!book.entries.has(rels.toLowerCase())) return found;
  await readPart(book, rels, xlsxLimits.partBytes, {
    open(name, tag) {
      if (name !== 'Relationship' || attribute(tag, 'TargetMode') === 'External') return;
      const id = attribute(tag, 'Id');
      const target = attribute(tag, 'Target');
      if (id === undefined || target === undefined) return;
      found.set(id, {
        kind: relationshipKind(attribute(tag, 'Type') ?? ''),
        part: resolvePart(part, target),
      });
    },
    close() {},
  });
  return found;
}

/** Opens the archive and reads the workbook's part: its sheets, its date system, where its strings and styles are. */
async function openWorkbook(file: string): Promise<Workbook> {
  const [{ openPromise }, { SaxesParser: Parser }] = await Promise.all([import('yauzl'), import('saxes')]);
  let zip: ZipFile;
  try {
    zip = await openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      strictFileNames: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    const detail = (error as Error).message;
    if (/end of central directory record signature not found/i.test(detail)) return fail(message.notZip);
    return fail(message.damaged(detail));
  }
  // yauzl emits a failure to close the file on the zip: without a listener it would end the process.
  zip.on('error', () => undefined);
  const fileSize = zip.fileSize;
  const limit = Math.min(xlsxLimits.inflateBytes, Math.max(1024 ** 2, fileSize * xlsxLimits.inflateRatio));
  const book: Workbook = {
    Parser,
    zip,
    fileSize,
    entries: new Map(),
    budget: { left: limit, limit },
    sheets: [],
    date1904: false,
    sharedStrings: null,
    styles: null,
  };
  try {
    for await (const entry of zip.eachEntry()) {
      if (book.entries.size >= xlsxLimits.entries) fail(message.tooManyEntries(xlsxLimits.entries));
      if (!entry.fileName.endsWith('/')) book.entries.set(entry.fileName.toLowerCase(), entry);
    }
    let workbookPart = 'xl/workbook.xml';
    if (book.entries.has('_rels/.rels'))
      for (const rel of (await relationships(book, '')).values())
        if (rel.kind === 'officeDocument') workbookPart = rel.part;
    if (!book.entries.has(workbookPart.toLowerCase())) fail(message.noWorkbook);
    const rels = await relationships(book, workbookPart);
    for (const rel of rels.values()) {
      if (rel.kind === 'sharedStrings') book.sharedStrings = rel.part;
      if (rel.kind === 'styles') book.styles = rel.part;
    }
    await readPart(book, workbookPart, xlsxLimits.partBytes, {
      open(name, tag) {
        if (name === 'workbookPr') {
          const value = attribute(tag, 'date1904');
          book.date1904 = value === '1' || value === 'true';
        } else if (name === 'sheet') {
          const rel = rels.get(attribute(tag, 'id', true) ?? '');
          if (rel?.kind !== 'worksheet') return;
          const state = attribute(tag, 'state');
          book.sheets.push({
            name: attribute(tag, 'name') ?? `Sheet${book.sheets.length + 1}`,
            part: rel.part,
            hidden: state === 'hidden' || state === 'veryHidden',
          });
        }
      },
      close() {},
    });
    if (book.sheets.length === 0) fail(message.noSheets);
    return book;
  } catch (error) {
    zip.close();
    if (error instanceof UnreadableFile) throw error;
    return fail(message.damaged((error as Error).message));
  }
}

/** The sheet a `sheet` part names: a name (exactly, else ignoring case), else a number from 1; none: the first
 * visible sheet. */
function chooseSheet(book: Workbook, given: string | null | undefined): Sheet {
  const { sheets } = book;
  if (given === undefined || given === null || given.trim() === '')
    return sheets.find((sheet) => !sheet.hidden) ?? (sheets[0] as Sheet);
  const byName =
    sheets.find((sheet) => sheet.name === given) ??
    sheets.find((sheet) => sheet.name.toLowerCase() === given.trim().toLowerCase());
  if (byName) return byName;
  const number = /^\d+$/.test(given.trim()) ? Number(given.trim()) : 0;
  const byNumber = sheets[number - 1];
  if (number >= 1 && byNumber) return byNumber;
  return fail(
    message.unknownSheet(
      given,
      sheets.map((sheet) => sheet.name),
    ),
  );
}

/** Each cell style's date kind (null: not a date), from styles.xml's number formats and cellXfs. */
async function readStyles(book: Workbook): Promise<(DateKind | null)[]> {
  const kinds: (DateKind | null)[] = [];
  if (!book.styles || !book.entries.has(book.styles.toLowerCase())) return kinds;
  const custom = new Map<number, DateKind | null>();
  const xfs: number[] = [];
  let inCellXfs = false;
  await readPart(book, book.styles, xlsxLimits.partBytes, {
    open(name, tag) {
      if (name === 'numFmt') {
        const id = Number(attribute(tag, 'numFmtId'));
        if (Number.isInteger(id)) custom.set(id, formatDateKind(attribute(tag, 'formatCode') ?? ''));
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfs.push(Number(attribute(tag, 'numFmtId') ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  for (const id of xfs) kinds.push(custom.has(id) ? (custom.get(id) ?? null) : builtInDateKind(id));
  return kinds;
}

/** The shared strings, in order (rich text's runs joined, phonetic runs left out), under the caps. */
async function readSharedStrings(book: Workbook): Promise<string[]> {
  const strings: string[] = [];
  if (!book.sharedStrings || !book.entries.has(book.sharedStrings.toLowerCase())) return strings;
  let chars = 0;
  let current: string[] | null = null;
  let inT = false;
  let phonetic = 0;
  await readPart(book, book.sharedStrings, xlsxLimits.sharedStringsBytes, {
    open(name) {
      if (name === 'si') current = [];
      else if (name === 't') inT = true;
      else if (name === 'rPh') phonetic += 1;
    },
    close(name) {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'si' && current) {
        const text = current.length === 1 ? (current[0] as string) : current.join('');
        chars += text.length;
        if (strings.length >= xlsxLimits.sharedStrings)
          fail(message.tooManyStrings(xlsxLimits.sharedStrings));
        if (chars > xlsxLimits.sharedStringChars) fail(message.stringsTooLong(xlsxLimits.sharedStringChars));
        strings.push(text);
        current = null;
      }
    },
    text(text) {
      if (inT && phonetic === 0 && current) current.push(text);
    },
  });
  return strings;
}

/** Excel's error values, as a cell's failure. */
const cellFailure = {
  error: (ref: string, value: string) => `Cell ${ref} holds the error ${value}.`,
  noResult: (ref: string) =>
    `Cell ${ref} holds a formula whose result was never saved: open the file in a spreadsheet, save it, and upload it again.`,
  noString: (ref: string, index: string) => `Cell ${ref} points to text ${index} the workbook does not have.`,
  notNumber: (ref: string, value: string) =>
    `Cell ${ref} holds ${JSON.stringify(value)}, which is not a number.`,
  badDate: (ref: string) =>
    `Cell ${ref} holds a date a spreadsheet cannot show (before 1900, after 9999, or 29 February 1900).`,
  beyond: (ref: string, count: number, header: boolean) =>
    `Cell ${ref} has a value beyond the ${header ? "header's" : "first row's"} ${count} columns.`,
};

/** Opens an XLSX upload for reading a record at a time (the sheet `options.sheet`, else the first). */
export function openXlsxReader(file: string, options: ImportOptions): FileReader {
  const columns: string[] = [];
  let book: Workbook | null = null;
  let closed = false;
  let compressed = 0;
  let sheetCompressed = 0;
  const close = () => {
    closed = true;
    book?.zip.close();
    book = null;
  };
  async function* records(): AsyncGenerator<FileRecord> {
    try {
      const opened = await openWorkbook(file);
      if (closed) {
        opened.zip.close();
        return;
      }
      book = opened;
      const sheet = chooseSheet(opened, options.sheet);
      sheetCompressed = opened.entries.get(sheet.part.toLowerCase())?.compressedSize ?? 0;
      const styles = await readStyles(opened);
      const strings = await readSharedStrings(opened);
      yield* sheetRecords(opened, sheet, styles, strings, options.header, columns, (bytes) => {
        compressed += bytes;
      });
    } finally {
      close();
    }
  }
  return {
    columns,
    records: records(),
    bytesRead: () =>
      sheetCompressed > 0 && book
        ? Math.floor((Math.min(compressed, sheetCompressed) / sheetCompressed) * book.fileSize)
        : 0,
    close,
  };
}

/** The sheet's rows as records: the first row with a value is the header (when `header`), rows without one are none. */
async function* sheetRecords(
  book: Workbook,
  sheet: Sheet,
  styles: (DateKind | null)[],
  strings: string[],
  header: boolean,
  columns: string[],
  onCompressed: (bytes: number) => void,
): AsyncGenerator<FileRecord> {
  const ready: FileRecord[] = [];
  let record = 0;
  let width = -1;
  // The row being read.
  let rowNumber = 0;
  let cells: CellValue[] = [];
  let hasValue = false;
  let problem: string | null = null;
  let lastColumn = 0;
  // The cell being read.
  let inCell = false;
  let ref = '';
  let column = 0;
  let type = 'n';
  let style = 0;
  let collecting: 'v' | 't' | null = null;
  let inInline = false;
  let sawInline = false;
  let phonetic = 0;
  let text = '';
  let hasV = false;
  let hasFormula = false;

  const cellValue = (): CellValue => {
    if (type === 'inlineStr') return sawInline || hasV ? text : null;
    if (!hasV) {
      if (hasFormula && !problem) problem = cellFailure.noResult(ref);
      return null;
    }
    switch (type) {
      case 's': {
        const value = strings[Number(text)];
        if (value === undefined && !problem) problem = cellFailure.noString(ref, text);
        return value ?? null;
      }
      case 'str':
      case 'd':
        return text;
      case 'b':
        return text.trim() === '1' || text.trim().toLowerCase() === 'true';
      case 'e':
        problem ??= cellFailure.error(ref, text);
        return null;
      default: {
        const trimmed = text.trim();
        if (trimmed === '') return null;
        const number = Number(trimmed);
        if (!Number.isFinite(number)) {
          problem ??= cellFailure.notNumber(ref, trimmed);
          return null;
        }
        const kind = styles[style];
        if (!kind) return number;
        const iso = serialToIso(number, book.date1904, kind);
        if (iso === null) problem ??= cellFailure.badDate(ref);
        return iso;
      }
    }
  };

  const endRow = () => {
    if (!hasValue && problem === null) return;
    if (width < 0) {
      width = cells.length;
      if (header) {
        for (let i = 0; i < width; i++) {
          const name = cells[i];
          columns.push((name === null || name === undefined ? '' : String(name)).trim() || `Column ${i + 1}`);
        }
        return;
      }
      for (let i = 0; i < width; i++) columns.push(`Column ${i + 1}`);
    }
    record += 1;
    const values: Record<string, CellValue> = {};
    for (let i = 0; i < width; i++) values[columns[i] as string] = cells[i] ?? null;
    if (problem === null && cells.length > width)
      for (let i = width; i < cells.length; i++)
        if (cells[i] !== null && cells[i] !== undefined) {
          problem = cellFailure.beyond(`${columnLetters(i + 1)}${rowNumber}`, width, header);
          break;
        }
    ready.push({ row: record, values, problem });
  };

  const handlers: XmlHandlers = {
    open(name, tag) {
      switch (name) {
        case 'row': {
          const r = tag.attributes.r;
          const number = r === undefined ? rowNumber + 1 : Number(r);
          if (!Number.isInteger(number) || number < 1) fail(message.badReference(`row ${r}`));
          if (number > MAX_ROWS) fail(message.tooManyRows);
          rowNumber = number;
          cells = [];
          hasValue = false;
          problem = null;
          lastColumn = 0;
          break;
        }
        case 'c': {
          const r = tag.attributes.r;
          if (r === undefined) column = lastColumn + 1;
          else {
            const position = cellPosition(r);
            if (position === null) return fail(message.badReference(r));
            column = position.column;
          }
          if (column > MAX_COLUMNS) fail(message.tooManyColumns);
          lastColumn = column;
          ref = `${columnLetters(column)}${rowNumber}`;
          type = tag.attributes.t ?? 'n';
          style = Number(tag.attributes.s ?? 0);
          inCell = true;
          text = '';
          hasV = false;
          hasFormula = false;
          inInline = false;
          sawInline = false;
          break;
        }
        case 'v':
          if (inCell) {
            collecting = 'v';
            hasV = true;
          }
          break;
        case 'f':
          if (inCell) hasFormula = true;
          break;
        case 'is':
          if (inCell) inInline = sawInline = true;
          break;
        case 'rPh':
          phonetic += 1;
          break;
        case 't':
          if (inInline && phonetic === 0) collecting = 't';
          break;
      }
    },
    close(name) {
      switch (name) {
        case 'v':
        case 't':
          collecting = null;
          break;
        case 'rPh':
          phonetic -= 1;
          break;
        case 'is':
          inInline = false;
          break;
        case 'c': {
          if (!inCell) break;
          inCell = false;
          const value = cellValue();
          while (cells.length < column - 1) cells.push(null);
          cells[column - 1] = value;
          if (value !== null) hasValue = true;
          break;
        }
        case 'row':
          endRow();
          break;
      }
    },
    text(chunk) {
      if (collecting) text += chunk;
    },
  };
  const parse = parsePart(book, sheet.part, Number.MAX_SAFE_INTEGER, handlers, onCompressed);
  for (;;) {
    const step = await parse.next();
    for (const done of ready) yield done;
    ready.length = 0;
    if (step.done) return;
  }
}

/**
 * At the upload: the workbook opened, the sheet chosen (400 naming the sheets when the `sheet` part names none), and
 * the whole sheet read once, so that a file that cannot be read (a zip bomb, a DOCTYPE, nesting, too many strings,
 * rows or columns) is refused before the import exists. Answers the options with the sheet's name and the workbook's
 * sheets.
 */
export async function checkXlsx(file: string, options: ImportOptions): Promise<ImportOptions> {
  const book = await openWorkbook(file);
  let sheet: Sheet;
  try {
    sheet = chooseSheet(book, options.sheet);
  } finally {
    book.zip.close();
  }
  // Every sheet by name, for the page's choice: the visible ones, and the one read if it is hidden.
  const sheets = book.sheets.filter((each) => !each.hidden || each === sheet).map((each) => each.name);
  const chosen = { ...options, sheet: sheet.name, sheets };
  const reader = openXlsxReader(file, chosen);
  try {
    await drain(reader.records);
  } finally {
    reader.close();
  }
  return chosen;
}
