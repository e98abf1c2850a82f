import type { CellValue, Column } from '#common/contract/sql.ts';

/*
 * How the grid writes a value (spec 000 §3 wire rules, common/contract/sql.ts cellValue): big numbers and decimals
 * may arrive as strings, dates as ISO text, binary and images as base64. Nothing here rounds a string through a
 * JavaScript number.
 */

const DECIMAL = /^([-+]?)(\d*)(?:\.(\d*))?$/;

/** Adds one to a string of digits ("0999" → "1000"). */
function incrementDigits(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i -= 1) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/** Decimal text with exactly `scale` decimals: padded with zeros, or rounded half away from zero, in text. */
export function decimalWithScale(text: string, scale: number): string {
  const parts = DECIMAL.exec(text.trim());
  if (!parts || (parts[2] === '' && (parts[3] ?? '') === '')) return text;
  const [, sign = '', whole = '', fraction = ''] = parts;
  const wholeDigits = whole === '' ? '0' : whole;
  if (fraction.length <= scale) {
    return scale > 0 ? `${sign}${wholeDigits}.${fraction.padEnd(scale, '0')}` : `${sign}${wholeDigits}`;
  }
  let digits = `${wholeDigits}${fraction.slice(0, scale)}`;
  if (Number(fraction[scale]) >= 5) digits = incrementDigits(digits);
  const cut = digits.length - scale;
  const rounded = scale > 0 ? `${digits.slice(0, cut)}.${digits.slice(cut)}` : digits;
  const isZero = /^[0.]*$/.test(rounded);
  return `${sign === '-' && !isZero ? '-' : ''}${rounded}`;
}

/** A number at its column's scale: exactly `scale` decimals when the column declares them, else as it came. */
export function numberText(value: number | string, column: Pick<Column, 'precision' | 'scale'>): string {
  const scale = column.precision > 0 && column.scale > 0 ? column.scale : 0;
  if (typeof value === 'number') {
    if (scale > 0 && Number.isFinite(value) && Math.abs(value) < 1e21)
      return value.toFixed(Math.min(scale, 100));
    return String(value);
  }
  return scale > 0 ? decimalWithScale(value, scale) : value;
}

const DATE_ONLY = /^\d{4,}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4,}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?(\.\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** '+05' or '+0530' → '+05:00' or '+05:30'. */
const isoOffset = (offset: string) =>
  /^z$/i.test(offset) ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(3).replace(':', '').padEnd(2, '0')}`;

/**
 * A date in short form, as its column stores it (docs/decisions/0064-rich-values.md): a date alone as it is
 * (2026-11-24, never shifted by a time zone); a date and time without an offset (PostgreSQL timestamp, MariaDB
 * DATETIME, SQLite text without one) to the minute as written (2026-11-24 14:05), with no offset, for it names no
 * point in time; a point in time (a value with an offset: PostgreSQL timestamptz, MariaDB TIMESTAMP, SQL Server
 * datetimeoffset, SQLite text with one) in the viewer's own time zone with that zone's offset written after it
 * (2026-11-24 15:05 +01:00), so nobody takes it for a local reading without one. Text that is not a date stays as
 * it came.
 */
export function dateText(value: string): string {
  const text = value.trim();
  if (DATE_ONLY.test(text)) return text;
  const instant = pointInTime(text);
  if (instant === undefined) {
    const parts = DATE_TIME.exec(text);
    return parts ? `${parts[1] ?? ''} ${parts[2] ?? ''}` : value;
  }
  return instant === null ? value : `${localMinute(instant)} ${offsetText(-instant.getTimezoneOffset())}`;
}

/** The instant a date and time with an offset names; undefined when it has no offset (or is no date and time),
 * null when the offset makes no valid date. */
export function pointInTime(value: string): Date | null | undefined {
  const parts = DATE_TIME.exec(value.trim());
  if (!parts) return undefined;
  const [, day = '', minutes = '', seconds = ':00', fraction = '', offset] = parts;
  if (!offset) return undefined;
  const instant = new Date(`${day}T${minutes}${seconds}${fraction.slice(0, 4)}${isoOffset(offset)}`);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Minutes east of UTC as an ISO offset: 60 → '+01:00', -330 → '-05:30', 0 → '+00:00'. */
export function offsetText(minutesEast: number): string {
  const sign = minutesEast < 0 ? '-' : '+';
  const size = Math.abs(minutesEast);
  return `${sign}${two(Math.floor(size / 60))}:${two(size % 60)}`;
}

/** YYYY-MM-DD HH:mm in the viewer's time zone (plain Date fields: no formatter or date library per cell). */
function localMinute(instant: Date): string {
  const year = String(instant.getFullYear()).padStart(4, '0');
  return `${year}-${two(instant.getMonth() + 1)}-${two(instant.getDate())} ${two(instant.getHours())}:${two(instant.getMinutes())}`;
}

const TIME = /^(\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(.*)$/;

/** A time of day in short form: 14:05, with the seconds when they are not zero (14:05:30), and any offset. */
export function timeText(value: string): string {
  const parts = TIME.exec(value.trim());
  if (!parts) return value;
  const [, minutes = '', seconds, rest = ''] = parts;
  const clock = seconds && seconds !== '00' ? `${minutes}:${seconds}` : minutes;
  return rest.trim() ? `${clock} ${rest.trim()}` : clock;
}

/** The base64 payload of an image or binary value (a data: URL's prefix removed, white space dropped). */
export const base64Payload = (value: string) => value.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');

/** How many bytes a base64 text holds, without decoding it. */
export function base64ByteCount(value: string): number {
  const payload = base64Payload(value);
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((payload.length * 3) / 4) - padding);
}

/** A size for people: 3 bytes, 1 byte, 4.2 KB, 1.5 MB. */
export function byteSize(bytes: number): string {
  if (bytes === 1) return '1 byte';
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Image types recognised by the first bytes of their base64 text. */
const IMAGE_SIGNATURES: [prefix: string, mime: string][] = [
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
  ['Qk', 'image/bmp'],
  ['AAABAA', 'image/x-icon'],
  ['PHN2Zy', 'image/svg+xml'],
  ['PD94bWwg', 'image/svg+xml'],
];

/** An image value as a data: URL; base64 whose first bytes name no known type is taken as jpeg (spec 000 §5). */
export function imageSource(value: string): string {
  if (/^data:image\/[\w.+-]+;base64,/i.test(value)) return value;
  const payload = base64Payload(value);
  const mime = IMAGE_SIGNATURES.find(([prefix]) => payload.startsWith(prefix))?.[1] ?? 'image/jpeg';
  return `data:${mime};base64,${payload}`;
}

/** Bytes of base64 text as hexadecimal, at most `limit` of them; null when the text is not base64. */
export function hexOf(value: string, limit = Number.POSITIVE_INFINITY): string | null {
  const payload = base64Payload(value);
  // Decode only what is shown: 4 base64 characters make 3 bytes.
  const slice = Number.isFinite(limit) ? payload.slice(0, Math.ceil(limit / 3) * 4) : payload;
  let bytes: string;
  try {
    bytes = atob(slice);
  } catch {
    return null;
  }
  let hex = '';
  for (let i = 0; i < Math.min(bytes.length, limit); i += 1) {
    hex += bytes.charCodeAt(i).toString(16).padStart(2, '0').toUpperCase();
  }
  return hex;
}

/** How many bytes of a binary value the grid writes out. */
export const BINARY_SHOWN_BYTES = 8;

/** A binary value in short form: a short one whole in hexadecimal with its size, 0xFF8800 (3 bytes) (keys, row
 * versions, hashes' starts are read that way); a longer one as its size alone, 2.4 KB binary (its bytes are a
 * download away in the value panel). */
export function binaryText(value: string): string {
  const size = base64ByteCount(value);
  if (size > BINARY_SHOWN_BYTES) return `${byteSize(size)} binary`;
  const hex = hexOf(value, BINARY_SHOWN_BYTES);
  if (hex === null) return `${byteSize(size)} binary`;
  return `0x${hex} (${byteSize(size)})`;
}

/** The bytes of base64 text (a data: URL's prefix removed); null when it is not base64. */
export function bytesOf(value: string): Uint8Array<ArrayBuffer> | null {
  let text: string;
  try {
    text = atob(base64Payload(value));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** How many characters of text the grid puts in a cell; the cell's title holds the rest. */
export const CELL_TEXT_LIMIT = 200;
/** How many characters a cell's title shows at most. */
export const CELL_TITLE_LIMIT = 5000;

/** Text cut to `limit` characters (whole code points) with an ellipsis when longer. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const points = Array.from(text);
  return points.length <= limit ? text : `${points.slice(0, limit).join('')}…`;
}

/** What the copy action puts on the clipboard: the value as stored (decimals exact, binary as 0x hex). */
export function copyText(column: Pick<Column, 'typeGroup'>, value: CellValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (column.typeGroup === 'Binary') {
    const hex = hexOf(value);
    return hex === null ? value : `0x${hex}`;
  }
  if (column.typeGroup === 'image') return base64Payload(value);
  return value;
}
