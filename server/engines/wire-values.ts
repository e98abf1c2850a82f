import type { CellValue, Column } from '#common/contract/sql.ts';
import { badInput } from './engine-error.ts';

/*
 * Values on the wire (docs/decisions/0004-engine-layer.md): whole numbers as JSON numbers while exact, else as
 * strings; decimals and money always as strings (they keep their scale, "0.90"); floats as numbers; dates and
 * times as the engine's ISO text (with the offset when the type has one); bit as a boolean; binary and images as
 * base64; anything else (json, arrays, xml, geometry) as text.
 */

/** Number types fall in three kinds by their native name: floats, decimals (exact with a scale) and integers. */
type NumberKind = 'float' | 'decimal' | 'whole' | null;
const numberKinds = new WeakMap<Column, NumberKind>();
/** A column's kind, worked out once per catalog column: decoding asks it for every cell of every page. */
function numberKindOf(column: Column): NumberKind {
  let kind = numberKinds.get(column);
  if (kind === undefined) {
    kind = /float|real|double/i.test(column.type)
      ? 'float'
      : /dec|numeric|money/i.test(column.type)
        ? 'decimal'
        : column.typeGroup === 'Number'
          ? 'whole'
          : null;
    numberKinds.set(column, kind);
  }
  return kind;
}
const isFloat = (column: Column) => numberKindOf(column) === 'float';
const isDecimal = (column: Column) => numberKindOf(column) === 'decimal';
const isWholeNumberType = (column: Column) =>
  column.typeGroup === 'Number' && numberKindOf(column) === 'whole';

/** Whether a JavaScript number holds this integer exactly. */
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_EXACT = BigInt(Number.MIN_SAFE_INTEGER);
const exact = (n: bigint) => n <= MAX_EXACT && n >= MIN_EXACT;
/** A whole number's text as a JSON number while exact (15 digits always are: no BigInt made for them). */
const wholeNumber = (text: string): CellValue =>
  text.length <= 15 || exact(BigInt(text)) ? Number(text) : text;

/** A driver's value as it goes on the wire; adapters call this after their own special cases. */
export function decodeCommon(column: Column, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return null;
  if (column.typeGroup === 'bit') return decodeBit(raw);
  if (
    column.typeGroup === 'Number' &&
    isDecimal(column) &&
    (typeof raw === 'number' || typeof raw === 'bigint')
  ) {
    return decimalText(raw, column.scale);
  }
  if (raw instanceof Uint8Array) return Buffer.from(raw).toString('base64');
  if (typeof raw === 'bigint') return exact(raw) ? Number(raw) : raw.toString();
  if (raw instanceof Date) return raw.toISOString();
  if (typeof raw === 'string') {
    if (isWholeNumberType(column) && /^-?\d+$/.test(raw)) return wholeNumber(raw);
    if (isFloat(column) && raw !== '' && Number.isFinite(Number(raw))) return Number(raw);
    return raw;
  }
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'boolean') return raw;
  return JSON.stringify(raw);
}

/** A decimal held by the driver as a number, written with the column's scale ("12.50"). */
function decimalText(raw: number | bigint, scale: number): string {
  if (typeof raw === 'bigint') return scale > 0 ? `${raw}.${'0'.repeat(scale)}` : raw.toString();
  return scale > 0 && scale <= 20 && Math.abs(raw) < 1e15 ? raw.toFixed(scale) : String(raw);
}

function decodeBit(raw: unknown): boolean {
  if (raw instanceof Uint8Array) return raw.some((byte) => byte !== 0);
  if (typeof raw === 'string') return raw === '1' || raw === 't' || raw === 'true';
  if (typeof raw === 'bigint') return raw !== 0n;
  // MySQL's tinyint(1) holds any small number: all but 0 are true, as MySQL itself reads them.
  if (typeof raw === 'number') return raw !== 0;
  return raw === true;
}

/** A value checked against its column before it is bound: what the adapter's encodeValue receives. */
export type CheckedValue = string | number | boolean | Buffer;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
const GUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Checks a value a person sent for a column; throws a 400 that names the column and says what fits. */
export function checkValue(column: Column, value: CellValue): CheckedValue | null {
  if (value === null) return null;
  const text = typeof value === 'string' ? value : String(value);
  const fail = (expected: string) => badInput(`${column.name}: "${truncate(text)}" is not ${expected}.`);
  switch (column.typeGroup) {
    case 'Number': {
      if (typeof value === 'boolean') throw fail('a number');
      const trimmed = text.trim();
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) throw fail('a number');
      if (isWholeNumberType(column) && !/^[-+]?\d+$/.test(trimmed)) throw fail('a whole number');
      if (isDecimal(column) && column.precision > 0) checkPrecision(column, trimmed, fail);
      return typeof value === 'number' ? value : trimmed;
    }
    case 'bit':
      if (value === true || value === 1 || text === '1' || text === 'true') return true;
      if (value === false || value === 0 || text === '0' || text === 'false') return false;
      throw fail('true or false');
    case 'Date':
      if (!DATE.test(text) && !DATE_TIME.test(text))
        throw fail('a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS with an optional offset)');
      return text;
    case 'Time':
      if (!TIME.test(text) && !DATE_TIME.test(text)) throw fail('a time (HH:MM:SS)');
      return text;
    case 'guid':
      if (!GUID.test(text)) throw fail('a GUID (8-4-4-4-12 hexadecimal digits)');
      return text.replace(/[{}]/g, '').toLowerCase();
    case 'Binary':
    case 'image': {
      const payload = text.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
      if (!BASE64.test(payload) || payload.length % 4 === 1) throw fail('base64-encoded data');
      const bytes = Buffer.from(payload, 'base64');
      if (column.maxLength > 0 && bytes.length > column.maxLength) {
        throw badInput(`${column.name} cannot be more than ${column.maxLength} bytes.`);
      }
      return bytes;
    }
    case 'Text':
      if (column.maxLength > 0 && [...text].length > column.maxLength) {
        throw badInput(`${column.name} cannot be more than ${column.maxLength} characters.`);
      }
      return text;
    default:
      return typeof value === 'string' ? value : text;
  }
}

function checkPrecision(column: Column, text: string, fail: (expected: string) => Error): void {
  const [whole = '', fraction = ''] = text.replace(/^[-+]/, '').split('.');
  const wholeDigits = whole.replace(/^0+/, '').length;
  if (wholeDigits > column.precision - column.scale) {
    throw fail(`a number with at most ${column.precision - column.scale} digits before the point`);
  }
  if (fraction.length > column.scale) throw fail(`a number with at most ${column.scale} decimals`);
}

const truncate = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
