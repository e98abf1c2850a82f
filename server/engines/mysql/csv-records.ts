import type { Column } from '#common/contract/sql.ts';
import { ChunkedBytes } from '#server/engines/chunked-bytes.ts';
import { startsFormulaByte } from '#server/engines/formula-cells.ts';

/*
 * MySQL and MariaDB CSV written by Node from the server's own text (docs/decisions/0035-export-speed.md). The
 * select is the plain one (the columns themselves), read with mysql2's `typeCast: false`: each cell arrives as the
 * bytes of the text protocol (numbers, dates and times as the server writes them, text converted by the server to
 * the connection's utf8mb4, binary as its bytes, NULL as null), and is written straight into a 64 KB output buffer,
 * byte by byte, without a JavaScript string or object per cell. The field written is exactly what csv-stringify
 * makes of the wire value (types.ts decodeValue, export-formats.ts csvRecords): RFC 4180 quoting where a field
 * holds " , CR or LF (and an empty string as ""), a leading single quote on text that starts like a formula
 * (formula-cells.ts), booleans as true/false, binary as base64, DATETIME and TIMESTAMP as ISO text, whole numbers
 * without zero fill, floats as JavaScript writes the number mysql2 would parse. Columns the driver turns into
 * objects (geometry, vectors, other types in the Other group but json) have no field kind: such a table is written
 * through the rows instead.
 */

/** How a column's bytes become its field. */
const Kind = {
  /** Text a person writes: quoted as RFC 4180 needs, formula-like text with a leading '. */
  Text: 0,
  /** Text that cannot start a formula (uuid): quoted where needed only. */
  PlainText: 1,
  /** The bytes as they are (decimals, DATE, TIME). */
  Raw: 2,
  /** Whole numbers: as they are unless zero-filled. */
  Integer: 3,
  /** FLOAT, DOUBLE: parsed as mysql2 parses them, written as JavaScript writes the number. */
  Float: 4,
  /** DATETIME: 'YYYY-MM-DD hh:mm:ss[.f]' with a T. */
  DateTime: 5,
  /** TIMESTAMP: the same with Z (the session runs in UTC). */
  Timestamp: 6,
  /** tinyint(1): any number but 0 is true. */
  BooleanNumber: 7,
  /** bit(1): any byte but 0 is true. */
  BooleanBits: 8,
  /** BIT(n): the big-endian bytes as a number (its digits beyond 2^53). */
  BitsNumber: 9,
  /** Binary and images: base64, the empty value as "". */
  Binary: 10,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];
export type CsvFieldKind = Kind;

/** The field kind of a column, or null when the driver would decode it into something else than its text. */
export function csvFieldKind(column: Column): Kind | null {
  switch (column.typeGroup) {
    case 'Text':
      return Kind.Text;
    case 'guid':
      return Kind.PlainText;
    case 'bit':
      return column.type === 'bit' ? Kind.BooleanBits : Kind.BooleanNumber;
    case 'Number':
      if (column.type === 'bit') return Kind.BitsNumber;
      if (/float|double|real/.test(column.type)) return Kind.Float;
      if (/dec|numeric/.test(column.type)) return Kind.Raw;
      return Kind.Integer;
    case 'Date':
      return column.type === 'date' ? Kind.Raw : column.type === 'timestamp' ? Kind.Timestamp : Kind.DateTime;
    case 'Time':
      return Kind.Raw;
    case 'Binary':
    case 'image':
      return Kind.Binary;
    case 'Other':
      // JSON arrives as its text (connect.ts jsonStrings); the rest (geometry…) the driver decodes.
      return column.type === 'json' ? Kind.Text : null;
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const APOSTROPHE = 0x27;
const ZERO = 0x30;
const NINE = 0x39;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const BACKSLASH = 0x5c;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');

/** What the encoder reads a row from: a text protocol row packet as mysql2 holds it (its payload from `offset` to
 * `end` in `buffer`: each cell a length-coded string, 0xfb for NULL). */
export interface RowPacket {
  buffer: Buffer;
  offset: number;
  end: number;
}

/** Encodes rows of raw cells into CSV records, a chunk at a time. */
export class MysqlCsvEncoder extends ChunkedBytes {
  private readonly kinds: Kind[];
  /** A table of one column: a lone \. is quoted (it would read as PostgreSQL's end-of-data marker). */
  private readonly onlyColumn: boolean;

  constructor(kinds: Kind[]) {
    super();
    this.kinds = kinds;
    this.onlyColumn = kinds.length === 1;
  }

  /** Column `at` arrives in a binary character set (not JSON): mysql2 gives such text as its bytes, so base64. */
  binaryText(at: number): void {
    if (this.kinds[at] === Kind.Text || this.kinds[at] === Kind.PlainText) this.kinds[at] = Kind.Binary;
  }

  /** One record from cells as mysql2 gives them with `typeCast: false` (a Buffer each, null for NULL). */
  row(cells: (Buffer | null)[]): void {
    const kinds = this.kinds;
    for (let i = 0; i < kinds.length; i++) {
      if (i > 0) this.byte(COMMA);
      const cell = cells[i];
      if (cell !== null && cell !== undefined) this.field(kinds[i] as Kind, cell, 0, cell.length);
    }
    this.byte(LF);
    this.rowsInChunk++;
  }

  /** One record read straight from a row packet: no Buffer or value per cell. */
  packet(packet: RowPacket): void {
    const kinds = this.kinds;
    const src = packet.buffer;
    let at = packet.offset;
    for (let i = 0; i < kinds.length; i++) {
      if (i > 0) this.byte(COMMA);
      const tag = src[at++] as number;
      let length = tag;
      if (tag >= 0xfb) {
        if (tag === 0xfb) continue; // NULL
        if (tag === 0xfc) {
          length = src.readUInt16LE(at);
          at += 2;
        } else if (tag === 0xfd) {
          length = src.readUIntLE(at, 3);
          at += 3;
        } else {
          length = src.readUInt32LE(at) + src.readUInt32LE(at + 4) * 0x100000000;
          at += 8;
        }
      }
      if (at + length > packet.end) throw new Error('A row packet ended inside a cell.');
      this.field(kinds[i] as Kind, src, at, at + length);
      at += length;
    }
    this.byte(LF);
    this.rowsInChunk++;
  }

  private byte(value: number): void {
    if (this.at >= this.out.length) this.room(1);
    this.out[this.at++] = value;
  }

  private field(kind: Kind, src: Buffer, start: number, end: number): void {
    switch (kind) {
      case Kind.Text:
        return this.text(src, start, end, true);
      case Kind.PlainText:
        return this.text(src, start, end, false);
      case Kind.Raw:
        return this.copy(src, start, end);
      case Kind.Integer:
        return this.integer(src, start, end);
      case Kind.Float:
        return this.ascii(String(parseFloatAsMysql2(src, start, end)));
      case Kind.DateTime:
        return this.dateTime(src, start, end, false);
      case Kind.Timestamp:
        return this.dateTime(src, start, end, true);
      case Kind.BooleanNumber:
        return this.constant(numberIsNotZero(src, start, end) ? TRUE : FALSE);
      case Kind.BooleanBits:
        return this.constant(bitsAreNotZero(src, start, end) ? TRUE : FALSE);
      case Kind.BitsNumber:
        return this.ascii(bitsNumber(src, start, end));
      case Kind.Binary:
        return end === start ? this.emptyText() : this.ascii(src.toString('base64', start, end));
    }
  }

  /** Bytes start…end of src. */
  private copy(src: Buffer, start: number, end: number): void {
    const length = end - start;
    this.room(length);
    const out = this.out;
    let at = this.at;
    // Short cells byte by byte (a native copy costs more than a few bytes' loop).
    if (length < 48) for (let i = start; i < end; i++) out[at++] = src[i] as number;
    else at += src.copy(out, at, start, end);
    this.at = at;
  }

  private constant(bytes: Buffer): void {
    this.copy(bytes, 0, bytes.length);
  }

  private ascii(text: string): void {
    this.room(text.length);
    this.at += this.out.write(text, this.at, 'latin1');
  }

  private emptyText(): void {
    this.room(2);
    this.out[this.at++] = QUOTE;
    this.out[this.at++] = QUOTE;
  }

  private text(src: Buffer, start: number, end: number, formulaSafe: boolean): void {
    const length = end - start;
    if (length === 0) return this.emptyText();
    let quoted = false;
    for (let i = start; i < end; i++) {
      const byte = src[i];
      if (byte === QUOTE || byte === COMMA || byte === LF || byte === CR) {
        quoted = true;
        break;
      }
    }
    if (this.onlyColumn && length === 2 && src[start] === BACKSLASH && src[start + 1] === DOT) quoted = true;
    const formula = formulaSafe && startsFormulaByte(src[start]);
    if (!quoted) {
      if (formula) this.byte(APOSTROPHE);
      return this.copy(src, start, end);
    }
    this.room(2 * length + 3);
    const out = this.out;
    let at = this.at;
    out[at++] = QUOTE;
    if (formula) out[at++] = APOSTROPHE;
    for (let i = start; i < end; i++) {
      const byte = src[i] as number;
      out[at++] = byte;
      if (byte === QUOTE) out[at++] = QUOTE;
    }
    out[at++] = QUOTE;
    this.at = at;
  }

  /** Whole numbers as the server writes them, except zero fill ('0005' → 5), which the driver's number drops
   * (a BIGINT beyond 2^53 stays text, fill and all, as decodeCommon keeps it). */
  private integer(src: Buffer, start: number, end: number): void {
    if (end - start < 2 || src[start] !== ZERO) return this.copy(src, start, end);
    const text = src.toString('latin1', start, end);
    if (!/^\d+$/.test(text)) return this.copy(src, start, end);
    const value = BigInt(text);
    this.ascii(value <= BigInt(Number.MAX_SAFE_INTEGER) ? String(Number(value)) : text);
  }

  /** 'YYYY-MM-DD hh:mm:ss[.f]' → 'YYYY-MM-DDThh:mm:ss[.f]' (+ Z), as types.ts isoDateTime; zero dates and
   * anything else as they are. */
  private dateTime(src: Buffer, start: number, end: number, utc: boolean): void {
    if (!isDateTime(src, start, end)) return this.copy(src, start, end);
    const at = this.at;
    this.copy(src, start, end);
    this.out[at + 10] = 0x54; // T
    if (utc) this.byte(0x5a); // Z
  }
}

/** The server's DATETIME text, 'YYYY-MM-DD hh:mm:ss[.f]' (always digits between these separators), not a zero
 * date '0000-00-00…': what isoDateTime's pattern takes. */
function isDateTime(src: Buffer, start: number, end: number): boolean {
  const length = end - start;
  if (length < 19 || (length > 19 && (length === 20 || src[start + 19] !== DOT))) return false;
  if (
    src[start + 4] !== MINUS ||
    src[start + 7] !== MINUS ||
    src[start + 10] !== 0x20 ||
    src[start + 13] !== 0x3a ||
    src[start + 16] !== 0x3a
  )
    return false;
  if (src[start] !== ZERO) return true;
  for (let i = 0; i < 10; i++) if (i !== 4 && i !== 7 && src[start + i] !== ZERO) return true;
  return false;
}

/** A number's text: whether it is anything but zero (digits other than 0). */
function numberIsNotZero(src: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = src[i] as number;
    if (byte > ZERO && byte <= NINE) return true;
  }
  return false;
}

function bitsAreNotZero(src: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (src[i] !== 0) return true;
  return false;
}

/** BIT(n)'s big-endian bytes as decodeValue gives them: a number, its digits beyond 2^53. */
function bitsNumber(src: Buffer, start: number, end: number): string {
  let value = 0n;
  for (let i = start; i < end; i++) value = (value << 8n) | BigInt(src[i] as number);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? String(Number(value)) : value.toString();
}

/** mysql2's Packet.parseFloat (3.x), so a float's number is the one the rows would carry to the last bit. */
export function parseFloatAsMysql2(src: Buffer, start: number, end: number): number {
  const length = end - start;
  if (length === 0) return 0;
  if (length > 17) return Number.parseFloat(src.toString('utf8', start, end));
  let result = 0;
  let factor = 1;
  let pastDot = false;
  let at = start;
  if (src[at] === MINUS) {
    at++;
    factor = -1;
  }
  if (src[at] === PLUS) at++;
  for (; at < end; at++) {
    const byte = src[at] as number;
    if (byte === DOT) pastDot = true;
    else if (byte === 0x65 || byte === 0x45) return Number.parseFloat(src.toString('utf8', start, end));
    else {
      result *= 10;
      result += byte - ZERO;
      if (pastDot) factor *= 10;
    }
  }
  return result / factor;
}
