import type { CellValue, Column } from '#common/contract/sql.ts';
import { ChunkedBytes } from '#server/engines/chunked-bytes.ts';
import { formulaSafeCell, holdsText, startsFormulaByte } from '#server/engines/formula-cells.ts';
import { decodeValue, getTypeParser } from './types.ts';

/*
 * PostgreSQL JSON Lines and CSV written by Node from COPY's plain text
 * (docs/decisions/0037-postgres-json-lines-from-copy-text.md, 0042-postgres-csv-from-copy-text.md). The select is
 * the plain one (the columns themselves, bytea as base64), copied `to stdout` in the text format: a record a line,
 * fields separated by tabs, NULL as \N, and in the data a backslash as \\ and the control characters backspace, form
 * feed, newline, carriage return, tab and vertical tab as \b \f \n \r \t \v (COPY TO never writes octal or hex
 * escapes; other control characters come as they are). Each record is written straight into a 64 KB output buffer,
 * byte by byte, without a JavaScript string or object per cell: the keys precomputed as bytes, each field by a kind
 * chosen from its column's type. The line is exactly what JSON.stringify makes of the row's wire values (types.ts
 * decodeValue, export-formats.ts): integers while exact as numbers, booleans, timestamps as ISO text, text escaped
 * as JSON.stringify escapes it (" \ and control characters; everything else as it is). Values whose wire form is
 * rare or costly to derive by hand (floats, money, timetz, timestamps outside years 1-9999) go through decodeValue
 * itself, a string per cell.
 *
 * The CSV record is what export-formats.ts's csv-stringify makes of the same wire values: fields separated by commas,
 * NULL as an empty field and an empty string as "", a field holding a quote, comma, line feed or carriage return
 * quoted (its quotes doubled), booleans as true/false, timestamps in the same ISO form, text of a text column that
 * starts like a formula with a leading ' (formula-cells.ts), and a lone \. quoted in a one-column table.
 */

/** How a field's text becomes its JSON value (and its CSV field). */
const Kind = {
  /** A JSON string of the text (text, numeric, dates, json, arrays, uuid, base64 …). */
  Text: 0,
  /** int2, int4, oid: the digits are the JSON number. */
  Integer: 1,
  /** int8: a number while exact, else a string of its digits (wire-values.ts). */
  BigInteger: 2,
  /** bool: t/f. */
  Boolean: 3,
  /** bit(1): 1/0. */
  Bit: 4,
  /** timestamp: 'YYYY-MM-DD hh:mm:ss[.f]' with a T. */
  Timestamp: 5,
  /** timestamptz in UTC: 'YYYY-MM-DD hh:mm:ss[.f]+00' with a T and ':00'. */
  TimestampTz: 6,
  /** Anything else: decodeValue of the text as the driver parses it. */
  Wire: 7,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** The types the driver parses itself (types.ts parsedByDriver; bytea is selected as base64 text). */
const driverOids: Record<string, number> = {
  bool: 16,
  int2: 21,
  int4: 23,
  oid: 26,
  float4: 700,
  float8: 701,
};

/** The field kind of a column. */
function fieldKind(column: Column): Kind {
  switch (column.type) {
    case 'int2':
    case 'int4':
    case 'oid':
      return Kind.Integer;
    case 'int8':
      return Kind.BigInteger;
    case 'bool':
      return Kind.Boolean;
    case 'timestamp':
      return Kind.Timestamp;
    case 'timestamptz':
      return Kind.TimestampTz;
    case 'numeric':
      return Kind.Text;
    case 'timetz':
      return Kind.Wire;
  }
  if (column.typeGroup === 'bit') return column.type === 'bit' ? Kind.Bit : Kind.Wire;
  // Floats and money; everything else is its text on the wire (decodeCommon keeps strings as they are).
  return column.typeGroup === 'Number' ? Kind.Wire : Kind.Text;
}

/** A column's text (as COPY writes it, unescaped) to its wire value, as the pool's parsers and decodeValue make it. */
function wireValue(column: Column): (text: string) => CellValue {
  const oid = driverOids[column.type];
  const parse = oid === undefined ? null : getTypeParser(oid);
  return parse ? (text) => decodeValue(column, parse(text)) : (text) => decodeValue(column, text);
}

/** Whether JSON.stringify of an object built key by key in column order writes the keys in that order: a JavaScript
 * object puts integer-like keys first, and a key __proto__ sets the prototype instead. */
export function keysKeepColumnOrder(columns: Column[]): boolean {
  const probe: Record<string, number> = {};
  for (const [at, column] of columns.entries()) probe[column.name] = at;
  const keys = Object.keys(probe);
  return keys.length === columns.length && keys.every((key, at) => key === columns[at]?.name);
}

const TAB = 0x09;
const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const DOT = 0x2e;
const SPACE = 0x20;
const ZERO = 0x30;
const UPPER_N = 0x4e;
const LETTER_T = 0x54;
const CLOSE = 0x7d;
const COMMA = 0x2c;
const APOSTROPHE = 0x27;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const SAFE_DIGITS = Buffer.from(String(Number.MAX_SAFE_INTEGER));

/** What JSON.stringify writes for each control character: \b \t \n \f \r, else \u00XX (lowercase hex). */
const CONTROL: Buffer[] = Array.from({ length: 0x20 }, (_, code) =>
  Buffer.from(JSON.stringify(String.fromCharCode(code)).slice(1, -1)),
);

/** The byte each of COPY's letter escapes stands for (\b \f \n \r \t \v); 0 for none. */
const UNESCAPED = new Uint8Array(256);
UNESCAPED[0x62] = 0x08;
UNESCAPED[0x66] = 0x0c;
UNESCAPED[0x6e] = 0x0a;
UNESCAPED[0x72] = 0x0d;
UNESCAPED[0x74] = 0x09;
UNESCAPED[0x76] = 0x0b;

/** Output bytes a field may need beyond six per input byte (a JSON string's quotes; true for t, null for \N …). */
const FIELD_EXTRA = 8;

/** What the encoder writes: JSON Lines or CSV records. */
export type CopyTextFormat = 'jsonl' | 'csv';

/** Encodes PostgreSQL rows into JSON Lines or CSV, a chunk at a time: from COPY's text cut anywhere, or (JSON Lines)
 * from a cursor's text values. */
export class CopyTextEncoder extends ChunkedBytes {
  /** The start of a record that the last chunk of COPY data cut. */
  private pending: Buffer[] = [];
  private readonly kinds: Uint8Array;
  private readonly wires: ((text: string) => CellValue)[];
  /** `out` as 32-bit words: the keys go in four bytes a write. */
  private view = viewOf(this.out);
  /** Every key with its separator ('{"id":', ',"name":'): as little-endian 32-bit words (column c's from
   * keyWordStarts[c]), then the bytes left over (from keyTailStarts[c]). */
  private readonly keyWords: Uint32Array;
  private readonly keyWordStarts: Uint32Array;
  private readonly keyTails: Uint8Array;
  private readonly keyTailStarts: Uint32Array;
  /** The same keys as text (the cursor's lines); for CSV, the commas between fields. */
  private readonly keyTexts: string[];
  /** Output bytes a record may need beyond six per input byte. */
  private readonly recordExtra: number;
  private readonly csv: boolean;
  /** CSV: which columns' text gets a leading ' when it starts like a formula, and how a wire value's cell does. */
  private readonly formulaChecked: Uint8Array;
  private readonly safeCells: ((value: CellValue) => CellValue)[];

  constructor(columns: Column[], format: CopyTextFormat = 'jsonl') {
    super();
    if (columns.length === 0) throw new Error('COPY text needs at least one column.');
    this.csv = format === 'csv';
    this.kinds = Uint8Array.from(columns.map(fieldKind));
    this.wires = columns.map(wireValue);
    this.formulaChecked = Uint8Array.from(columns.map((column) => (holdsText(column) ? 1 : 0)));
    this.safeCells = columns.map((column) => formulaSafeCell('postgres', column));
    // CSV: a comma before every field but the first, in place of the keys.
    this.keyTexts = this.csv
      ? columns.map((_, at) => (at === 0 ? '' : ','))
      : columns.map((column, at) => `${at === 0 ? '{' : ','}${JSON.stringify(column.name)}:`);
    const keys = this.keyTexts.map((key) => Buffer.from(key));
    const words: number[] = [];
    const tails: number[] = [];
    this.keyWordStarts = new Uint32Array(columns.length + 1);
    this.keyTailStarts = new Uint32Array(columns.length + 1);
    for (const [c, key] of keys.entries()) {
      const whole = key.length - (key.length % 4);
      for (let at = 0; at < whole; at += 4) words.push(key.readUInt32LE(at));
      tails.push(...key.subarray(whole));
      this.keyWordStarts[c + 1] = words.length;
      this.keyTailStarts[c + 1] = tails.length;
    }
    this.keyWords = Uint32Array.from(words);
    this.keyTails = Uint8Array.from(tails);
    const keyBytes = keys.reduce((sum, key) => sum + key.length, 0);
    this.recordExtra = keyBytes + columns.length * FIELD_EXTRA + 2;
  }

  /** COPY text data as it arrives, cut anywhere: every record it completes. A newline in the data is always
   * escaped (\n), so each raw newline ends a record. */
  copyData(chunk: Buffer): void {
    let start = 0;
    if (this.pending.length > 0) {
      const end = chunk.indexOf(LF);
      if (end < 0) {
        this.pending.push(chunk);
        return;
      }
      this.pending.push(chunk.subarray(0, end + 1));
      const record = Buffer.concat(this.pending);
      this.pending = [];
      this.record(record, viewOf(record), 0, record.length - 1);
      start = end + 1;
    }
    const words = viewOf(chunk);
    for (let end = chunk.indexOf(LF, start); end >= 0; end = chunk.indexOf(LF, start)) {
      this.record(chunk, words, start, end);
      start = end + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** The end of the COPY data, which ends with a whole record. */
  endOfData(): void {
    if (this.pending.length > 0) throw new Error('The COPY data ended inside a record.');
  }

  /** One record from a cursor's text values (the driver's type parsers off; null for NULL). JSON Lines only. */
  values(cells: (string | null)[]): void {
    if (this.csv) throw new Error('CSV is written from COPY text only.');
    const kinds = this.kinds;
    let line = '';
    for (let c = 0; c < kinds.length; c++) {
      const cell = cells[c];
      line += this.keyTexts[c] as string;
      if (cell === null || cell === undefined) {
        line += 'null';
        continue;
      }
      switch (kinds[c]) {
        case Kind.Text:
          line += JSON.stringify(cell);
          break;
        case Kind.Integer:
          line += cell;
          break;
        case Kind.BigInteger:
          line += isSafeIntegerText(cell) ? cell : `"${cell}"`;
          break;
        case Kind.Boolean:
          line += cell === 't' ? 'true' : 'false';
          break;
        case Kind.Bit:
          line += cell === '1' ? 'true' : 'false';
          break;
        default:
          line += JSON.stringify((this.wires[c] as (text: string) => CellValue)(cell));
      }
    }
    line += '}\n';
    this.room(3 * line.length);
    this.at += this.out.write(line, this.at, 'utf8');
    this.rowsInChunk++;
  }

  /** The keys and 4-byte copies write through a view of `out`: renewed with it. */
  protected override replace(out: Buffer): void {
    super.replace(out);
    this.view = viewOf(out);
  }

  /** One record: bytes start…end of src (`words` the same bytes as a DataView), src[end] its newline. Every field
   * but Wire's fits in six bytes per input byte plus FIELD_EXTRA, so the room is made once and the loops below write
   * without checks. Text and timestamps are copied four bytes at a time while none of the four needs a look. */
  private record(src: Buffer, words: DataView, start: number, end: number): void {
    const kinds = this.kinds;
    const count = kinds.length;
    const keyWords = this.keyWords;
    const keyWordStarts = this.keyWordStarts;
    const keyTails = this.keyTails;
    const keyTailStarts = this.keyTailStarts;
    this.room(6 * (end - start) + this.recordExtra);
    let out = this.out;
    let view = this.view;
    let at = this.at;
    let i = start;
    for (let c = 0; c < count; c++) {
      for (let w = keyWordStarts[c] as number, last = keyWordStarts[c + 1] as number; w < last; w++) {
        view.setUint32(at, keyWords[w] as number, true);
        at += 4;
      }
      for (let k = keyTailStarts[c] as number, last = keyTailStarts[c + 1] as number; k < last; k++)
        out[at++] = keyTails[k] as number;
      let b = src[i] as number;
      if (b === BACKSLASH && src[i + 1] === UPPER_N) {
        // \N: NULL (a backslash in the data arrives as \\); an empty CSV field.
        if (!this.csv) {
          out[at++] = 0x6e;
          out[at++] = 0x75;
          out[at++] = 0x6c;
          out[at++] = 0x6c;
        }
        i += 2;
      } else if (this.csv && kinds[c] === Kind.Text) {
        this.at = at;
        i = this.csvText(src, words, i, end, c);
        at = this.at;
      } else {
        switch (kinds[c]) {
          case Kind.Text:
            out[at++] = QUOTE;
            for (;;) {
              while (i + 4 <= end) {
                const word = words.getUint32(i, true);
                if (needsLook(word)) break;
                view.setUint32(at, word, true);
                at += 4;
                i += 4;
              }
              b = src[i] as number;
              if (b >= 0x23) {
                if (b !== BACKSLASH) {
                  out[at++] = b;
                  i++;
                  continue;
                }
                // \\, \b \f \n \r \t \v; a backslash before any other character stands for that character.
                const code = unescapedByte(src[i + 1] as number);
                i += 2;
                if (code >= 0x20) {
                  if (code === QUOTE || code === BACKSLASH) out[at++] = BACKSLASH;
                  out[at++] = code;
                } else {
                  const escape = CONTROL[code] as Buffer;
                  for (let k = 0; k < escape.length; k++) out[at++] = escape[k] as number;
                }
                continue;
              }
              if (b >= 0x20) {
                if (b === QUOTE) out[at++] = BACKSLASH;
                out[at++] = b;
                i++;
                continue;
              }
              if (b === TAB || b === LF) break;
              // Control characters other than COPY's escaped ones come as they are.
              const escape = CONTROL[b] as Buffer;
              for (let k = 0; k < escape.length; k++) out[at++] = escape[k] as number;
              i++;
            }
            out[at++] = QUOTE;
            break;
          case Kind.Integer:
            while (b !== TAB && b !== LF) {
              out[at++] = b;
              b = src[++i] as number;
            }
            break;
          case Kind.BigInteger: {
            const first = at;
            while (b !== TAB && b !== LF) {
              out[at++] = b;
              b = src[++i] as number;
            }
            if (!this.csv && !isSafeInteger(out, first, at)) {
              // Beyond 2^53: its digits as a string.
              out.copyWithin(first + 1, first, at);
              out[first] = QUOTE;
              at++;
              out[at++] = QUOTE;
            }
            break;
          }
          case Kind.Boolean:
          case Kind.Bit: {
            const on = kinds[c] === Kind.Boolean ? b === 0x74 : b === 0x31;
            const word = on ? TRUE : FALSE;
            for (let k = 0; k < word.length; k++) out[at++] = word[k] as number;
            while (src[i] !== TAB && src[i] !== LF) i++;
            break;
          }
          default: {
            const kind = kinds[c];
            if (kind === Kind.Timestamp || kind === Kind.TimestampTz) {
              // 'YYYY-MM-DD hh:mm:ss[.f][+hh]' → "YYYY-MM-DDThh:mm:ss[.f][+hh:00]" (types.ts isoPointInTime),
              // checked once copied.
              const from = i;
              const quote = at;
              // JSON's quotes around it; CSV's field needs none (digits, -, :, . and +).
              const quoted = this.csv ? 0 : 1;
              if (quoted) out[at++] = QUOTE;
              while (i + 4 <= end) {
                const word = words.getUint32(i, true);
                if (hasLess(word, 0x0b0b0b0b)) break;
                view.setUint32(at, word, true);
                at += 4;
                i += 4;
              }
              b = src[i] as number;
              while (b !== TAB && b !== LF) {
                out[at++] = b;
                b = src[++i] as number;
              }
              const withOffset = kind === Kind.TimestampTz;
              if (isIsoShape(out, quote + quoted, at, withOffset)) {
                out[quote + quoted + 10] = LETTER_T;
                if (withOffset) {
                  out[at++] = COLON;
                  out[at++] = ZERO;
                  out[at++] = ZERO;
                }
                if (quoted) out[at++] = QUOTE;
                break;
              }
              at = quote;
              i = from;
            }
            let fieldEnd = i;
            while (src[fieldEnd] !== TAB && src[fieldEnd] !== LF) fieldEnd++;
            this.at = at;
            this.wire(c, src, i, fieldEnd);
            // The wire value's JSON may be longer than the room made: make it again for the rest.
            this.room(6 * (end - fieldEnd) + this.recordExtra);
            out = this.out;
            view = this.view;
            at = this.at;
            i = fieldEnd;
          }
        }
      }
      if (src[i] !== (c === count - 1 ? LF : TAB))
        throw new Error(`A COPY record has ${c === count - 1 ? 'more' : 'fewer'} fields than columns.`);
      i++;
    }
    if (!this.csv) out[at++] = CLOSE;
    out[at++] = LF;
    this.at = at;
    this.rowsInChunk++;
  }

  /** A CSV field of text from src[i] to its tab or newline: unescaped, a leading ' when its column holds text and
   * it starts like a formula, quoted when it holds a quote, comma, line feed or carriage return (its quotes
   * doubled), when it is empty (an empty string; NULL is \N), or when it is a lone \. in a one-column table. Writes
   * at this.at (room made by record) and returns the index of the field's end. */
  private csvText(src: Buffer, words: DataView, i: number, end: number, c: number): number {
    const out = this.out;
    const view = this.view;
    const first = this.at;
    let at = first;
    let quoted = false;
    let b = src[i] as number;
    if (this.formulaChecked[c] && b !== TAB && b !== LF) {
      const code = b === BACKSLASH ? unescapedByte(src[i + 1] as number) : b;
      if (startsFormulaByte(code)) out[at++] = APOSTROPHE;
    }
    for (;;) {
      while (i + 4 <= end) {
        const word = words.getUint32(i, true);
        if (needsCsvLook(word)) break;
        view.setUint32(at, word, true);
        at += 4;
        i += 4;
      }
      b = src[i] as number;
      if (b === TAB || b === LF) break;
      if (b === BACKSLASH) {
        b = unescapedByte(src[i + 1] as number);
        i += 2;
      } else i++;
      if (b === QUOTE) {
        out[at++] = QUOTE;
        quoted = true;
      } else if (b === COMMA || b === LF || b === 0x0d) quoted = true;
      out[at++] = b;
    }
    const lone =
      this.kinds.length === 1 && at - first === 2 && out[first] === BACKSLASH && out[first + 1] === DOT;
    if (quoted || at === first || lone) {
      out.copyWithin(first + 1, first, at);
      out[first] = QUOTE;
      at++;
      out[at++] = QUOTE;
    }
    this.at = at;
    return i;
  }

  /** A field through decodeValue: the text unescaped, its wire value's JSON or CSV field (as csv-stringify writes
   * it, export-formats.ts). */
  private wire(c: number, src: Buffer, start: number, end: number): void {
    const value = (this.wires[c] as (text: string) => CellValue)(unescapedText(src, start, end));
    const text = this.csv
      ? csvField((this.safeCells[c] as (v: CellValue) => CellValue)(value))
      : JSON.stringify(value);
    this.room(3 * text.length);
    this.at += this.out.write(text, this.at, 'utf8');
  }
}

/** A DataView of the same bytes. */
const viewOf = (bytes: Buffer) => new DataView(bytes.buffer, bytes.byteOffset, bytes.length);

/** Whether a byte of the four in `word` is less than the byte of `bytes` (all four the same, at most 0x80). */
const hasLess = (word: number, bytes: number) => ((word - bytes) & ~word & 0x80808080) !== 0;

/** Whether a byte of the four in `word` is zero. */
const hasZero = (word: number) => ((word - 0x01010101) & ~word & 0x80808080) !== 0;

/** Whether one of four bytes of text needs more than a copy: a control character, " or \. */
const needsLook = (word: number) =>
  hasLess(word, 0x20202020) || hasZero(word ^ 0x22222222) || hasZero(word ^ 0x5c5c5c5c);

/** The same for a CSV field: a comma too. */
const needsCsvLook = (word: number) => needsLook(word) || hasZero(word ^ 0x2c2c2c2c);

/** The byte COPY's escape \x stands for: \b \f \n \r \t \v their control characters, any other (\\ too) the
 * character itself. */
const unescapedByte = (next: number) => UNESCAPED[next] || next;

/** A wire value as csv-stringify writes it with DBUI's options: null empty, booleans true/false, numbers as
 * JavaScript writes them, text quoted when it holds a quote, comma, line feed or carriage return, or is empty. */
function csvField(value: CellValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  return value === '' || /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Whether the digits start…end are an integer JavaScript holds exactly (at most 9007199254740991 either side). */
function isSafeInteger(src: Buffer, start: number, end: number): boolean {
  const first = src[start] === MINUS ? start + 1 : start;
  const digits = end - first;
  if (digits !== SAFE_DIGITS.length) return digits < SAFE_DIGITS.length;
  for (let k = 0; k < digits; k++) {
    const byte = src[first + k] as number;
    const limit = SAFE_DIGITS[k] as number;
    if (byte !== limit) return byte < limit;
  }
  return true;
}

const SAFE_TEXT = String(Number.MAX_SAFE_INTEGER);

/** The same for an integer's text. */
function isSafeIntegerText(text: string): boolean {
  const digits = text.charCodeAt(0) === MINUS ? text.length - 1 : text.length;
  if (digits !== SAFE_TEXT.length) return digits < SAFE_TEXT.length;
  return (digits === text.length ? text : text.slice(1)) <= SAFE_TEXT;
}

/** Whether a byte is a digit. */
const isDigit = (byte: number | undefined) => byte !== undefined && byte - ZERO >= 0 && byte - ZERO <= 9;

/** Whether start…end reads 'YYYY-MM-DD hh:mm:ss[.f]' (years 1 to 9999, AD), then '+hh' or '-hh' when `withOffset`,
 * else nothing: the text isoPointInTime turns into ISO 8601 by a T (and ':00'). BC dates, infinity, years beyond
 * 9999 and other offsets go through decodeValue. */
function isIsoShape(bytes: Buffer, start: number, end: number, withOffset: boolean): boolean {
  if (
    end - start < (withOffset ? 22 : 19) ||
    bytes[start + 4] !== MINUS ||
    bytes[start + 7] !== MINUS ||
    bytes[start + 10] !== SPACE ||
    bytes[start + 13] !== COLON ||
    bytes[start + 16] !== COLON
  )
    return false;
  if (
    !isDigit(bytes[start]) ||
    !isDigit(bytes[start + 1]) ||
    !isDigit(bytes[start + 2]) ||
    !isDigit(bytes[start + 3]) ||
    !isDigit(bytes[start + 5]) ||
    !isDigit(bytes[start + 6]) ||
    !isDigit(bytes[start + 8]) ||
    !isDigit(bytes[start + 9]) ||
    !isDigit(bytes[start + 11]) ||
    !isDigit(bytes[start + 12]) ||
    !isDigit(bytes[start + 14]) ||
    !isDigit(bytes[start + 15]) ||
    !isDigit(bytes[start + 17]) ||
    !isDigit(bytes[start + 18])
  )
    return false;
  let at = start + 19;
  if (at < end && bytes[at] === DOT) {
    const first = ++at;
    while (at < end && isDigit(bytes[at])) at++;
    if (at === first) return false;
  }
  if (!withOffset) return at === end;
  return (
    end - at === 3 &&
    (bytes[at] === PLUS || bytes[at] === MINUS) &&
    isDigit(bytes[at + 1]) &&
    isDigit(bytes[at + 2])
  );
}

/** A field's text with COPY's escapes undone. */
function unescapedText(src: Buffer, start: number, end: number): string {
  const backslash = src.indexOf(BACKSLASH, start);
  if (backslash < 0 || backslash >= end) return src.toString('utf8', start, end);
  const bytes = Buffer.allocUnsafe(end - start);
  let at = 0;
  for (let i = start; i < end; i++) {
    let byte = src[i] as number;
    if (byte === BACKSLASH && i + 1 < end) {
      byte = unescapedByte(src[++i] as number);
    }
    bytes[at++] = byte;
  }
  return bytes.toString('utf8', 0, at);
}
