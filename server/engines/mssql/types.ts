import { sql } from 'kysely';
import type { CellValue, Column, TypeGroup } from '#common/contract/sql.ts';
import type { NativeType, SqlFragment } from '#server/engines/adapter.ts';
import { looksLikeImageColumn } from '#server/engines/image-columns.ts';
import { decodeCommon } from '#server/engines/wire-values.ts';

/*
 * SQL Server types onto the spec's type groups (docs/decisions/0004-engine-layer.md). `type` is the system type
 * name from sys.types in lower case (`nvarchar`, `int`, `decimal`, `datetime2`, `timestamp`…); an alias type
 * (CREATE TYPE … FROM) and `sysname` are named by the system type they stand for. Lengths: sys.columns.max_length
 * is in bytes, so nchar/nvarchar are halved into characters; -1 (max), text, ntext and image are unlimited (-1);
 * 0 where no length applies. Precision and scale are sys.columns' for numbers; for dates and times the scale is
 * the digits of fractional seconds (datetime2(7) → 7, datetime → 3) and the precision 0.
 *
 * timestamp (rowversion) is an 8-byte row version the server sets on every write, not a time: it is Binary here
 * and read-only (the catalog marks it computed), although the spec's list puts "timestamp" under Time.
 */

/** A column's facts as sys.columns and sys.types tell them. */
export interface MssqlColumnFacts {
  name: string;
  /** The system type name (an alias type resolved to its base type). */
  typeName: string;
  /** sys.columns.max_length: bytes, -1 for (max) and xml. */
  maxLengthBytes: number;
  precision: number;
  scale: number;
}

const TEXT = new Set(['char', 'varchar', 'text', 'nchar', 'nvarchar', 'ntext', 'sysname']);
const UNICODE = new Set(['nchar', 'nvarchar', 'ntext', 'sysname']);
const BINARY = new Set(['binary', 'varbinary', 'timestamp', 'rowversion']);
const NUMBER = new Set([
  'tinyint',
  'smallint',
  'int',
  'bigint',
  'real',
  'float',
  'money',
  'smallmoney',
  'decimal',
  'numeric',
]);
const DATE = new Set(['date', 'datetime', 'datetime2', 'datetimeoffset', 'smalldatetime']);
const UNLIMITED = new Set(['text', 'ntext', 'image']);

/** The native type of a column and its type group. */
export function nativeTypeOf(facts: MssqlColumnFacts): NativeType {
  const type = facts.typeName.toLowerCase() === 'sysname' ? 'nvarchar' : facts.typeName.toLowerCase();
  const typeGroup = groupOf(type, facts.name);
  const isNumber = typeGroup === 'Number' || typeGroup === 'bit';
  const isTemporal = typeGroup === 'Date' || typeGroup === 'Time';
  return {
    type,
    typeGroup,
    maxLength: lengthOf(type, typeGroup, facts.maxLengthBytes),
    precision: isNumber ? facts.precision : 0,
    scale: isNumber || isTemporal ? facts.scale : 0,
  };
}

function groupOf(type: string, name: string): TypeGroup {
  if (TEXT.has(type)) return 'Text';
  if (type === 'image') return 'image';
  if (BINARY.has(type))
    return type !== 'timestamp' && type !== 'rowversion' && looksLikeImageColumn(name) ? 'image' : 'Binary';
  if (NUMBER.has(type)) return 'Number';
  if (DATE.has(type)) return 'Date';
  if (type === 'time') return 'Time';
  if (type === 'bit') return 'bit';
  if (type === 'uniqueidentifier') return 'guid';
  // xml, sql_variant, hierarchyid, geography, geometry, vector, json, CLR types: shown as text.
  return 'Other';
}

function lengthOf(type: string, group: TypeGroup, bytes: number): number {
  if (UNLIMITED.has(type) || bytes === -1)
    return group === 'Text' || group === 'Binary' || group === 'image' || group === 'Other' ? -1 : 0;
  if (group === 'Text') return UNICODE.has(type) ? Math.floor(bytes / 2) : bytes;
  if (group === 'Binary' || group === 'image') return bytes;
  return 0;
}

const isExactDecimal = (type: string) => type === 'decimal' || type === 'numeric';
const isMoney = (type: string) => type === 'money' || type === 'smallmoney';
const SPATIAL_OR_HIERARCHY = new Set(['geography', 'geometry', 'hierarchyid']);

/**
 * What to select for a column so that its value arrives exactly. tedious reads decimal, numeric and money into
 * JavaScript numbers (more than 15 significant digits are lost) and drops a datetimeoffset's offset (it answers
 * the instant in UTC); geography, geometry and hierarchyid arrive as their CLR bytes. Selected as text instead:
 * decimals exactly with their scale, money with its 4 decimals (style 2), datetimeoffset as
 * 'yyyy-mm-dd hh:mi:ss.fffffff +hh:mm' (style 121), spatial values as WKT and hierarchyid as '/1/2/'.
 * The caller aliases the expression; an ORDER BY must then name the column qualified by its table, because
 * SQL Server resolves a bare name in ORDER BY to the select list's alias first (it would sort the text).
 */
export function selectExpression(column: Column, ref: SqlFragment): SqlFragment {
  const type = column.type;
  if (isExactDecimal(type)) return sql`convert(varchar(48), ${ref})`;
  if (isMoney(type)) return sql`convert(varchar(32), ${ref}, 2)`;
  if (type === 'datetimeoffset') return sql`convert(varchar(40), ${ref}, 121)`;
  if (SPATIAL_OR_HIERARCHY.has(type)) return sql`${ref}.ToString()`;
  return ref;
}

/** A Date from tedious carries the sub-millisecond part of datetime2, time and datetimeoffset here (seconds). */
type TediousDate = Date & { nanosecondsDelta?: number };

/**
 * A value from tedious (connected with useUTC: true, see connect.ts) as it goes on the wire: dates and times as
 * ISO text with every digit the type holds (datetime2(7) keeps its 100 ns, from the Date's nanosecondsDelta),
 * datetimeoffset as UTC with `Z` (tedious drops the offset; selectExpression keeps it), dates without a time zone
 * without an offset; decimal and money as strings with the column's scale ("12.3000"); real as the shortest
 * decimal that is the same 32-bit float; bigint (a string from tedious) as a number while exact; guids in lower case.
 */
export function decodeValue(column: Column, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return null;
  const type = column.type;
  if (raw instanceof Date) return dateText(type, column.scale, raw);
  if (typeof raw === 'number' && column.typeGroup === 'Number') {
    if (isExactDecimal(type) || isMoney(type)) return decimalText(raw, isMoney(type) ? 4 : column.scale);
    if (type === 'real') return shortestFloat32(raw);
  }
  if (typeof raw === 'string') {
    if (column.typeGroup === 'guid') return raw.toLowerCase();
    if (type === 'datetimeoffset') return offsetText(raw);
  }
  return decodeCommon(column, raw);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dateText(type: string, scale: number, value: TediousDate): string {
  if (Number.isNaN(value.getTime())) return String(value);
  const day = `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  const clock = `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}`;
  const ticks = value.getUTCMilliseconds() * 10_000 + Math.round((value.nanosecondsDelta ?? 0) * 1e7);
  const fraction = (digits: number) => (digits > 0 ? `.${pad(ticks, 7).slice(0, digits)}` : '');
  switch (type) {
    case 'date':
      return day;
    case 'time':
      return `${clock}${fraction(scale)}`;
    case 'smalldatetime':
      return `${day}T${clock}`;
    case 'datetime':
      return `${day}T${clock}${fraction(3)}`;
    case 'datetime2':
      return `${day}T${clock}${fraction(scale)}`;
    case 'datetimeoffset':
      return `${day}T${clock}${fraction(scale)}Z`;
    default:
      // sql_variant holding a date, and anything else: the instant in UTC.
      return value.toISOString();
  }
}

/** '2024-01-02 03:04:05.1234567 +02:00' (style 121) → '2024-01-02T03:04:05.1234567+02:00'. */
function offsetText(raw: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s*(Z|[+-]\d{2}:\d{2})?$/.exec(
    raw.trim(),
  );
  if (!match) return raw;
  return `${match[1]}T${match[2]}${match[3] ?? ''}`;
}

/** A decimal that tedious read as a number, written with the column's scale. */
function decimalText(value: number, scale: number): string {
  if (Math.abs(value) < 1e21) return value.toFixed(scale);
  // toFixed switches to exponent notation from 1e21; such a value is whole in a double anyway.
  const whole = BigInt(Math.round(value)).toString();
  return scale > 0 ? `${whole}.${'0'.repeat(scale)}` : whole;
}

/** real is a 32-bit float: 1.1 arrives as 1.100000023841858; answer the shortest decimal with the same float. */
function shortestFloat32(value: number): number {
  if (!Number.isFinite(value)) return value;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

const DATE_TIME_IN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const TIME_IN = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

/**
 * A checked wire value as tedious should bind it. Kysely's dialect binds strings as nvarchar, whole numbers as
 * int or bigint, other numbers as float, booleans as bit and Buffers as varbinary, and SQL Server converts to the
 * column's type: so decimals and money go as exact decimal text, whole numbers past 2^53 as text, and dates and
 * times as ISO 8601 text in the one form every type reads the same under any DATEFORMAT or language
 * ('yyyy-mm-ddThh:mi:ss[.fff]'), with no more fractional digits than the type takes. A date with an offset bound
 * for a type without one (datetime, datetime2, smalldatetime) is turned into UTC, as those values are read back
 * (useUTC); datetimeoffset keeps its offset.
 */
export function encodeValue(column: Column, value: string | number | boolean | Buffer): unknown {
  const type = column.type;
  switch (column.typeGroup) {
    case 'bit':
      return value === true || value === 1 || value === '1' || value === 'true';
    case 'Number': {
      if (typeof value === 'boolean' || Buffer.isBuffer(value)) return value;
      if (isExactDecimal(type) || isMoney(type)) return plainDecimal(String(value).trim());
      if (type === 'real' || type === 'float') return Number(value);
      if (typeof value === 'number') return value;
      const text = value.trim().replace(/^\+/, '');
      return Number.isSafeInteger(Number(text)) ? Number(text) : text;
    }
    case 'Date':
      return typeof value === 'string' ? dateTimeLiteral(type, value) : value;
    case 'Time':
      return typeof value === 'string' ? timeLiteral(value) : value;
    case 'guid':
      return typeof value === 'string' ? value.toLowerCase() : value;
    default:
      return value;
  }
}

/** '1.5e3' → '1500', '+2.50' → '2.50': decimal text SQL Server converts exactly (it rejects exponents there). */
export function plainDecimal(text: string): string {
  const match = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!match) return text;
  const sign = match[1] === '-' ? '-' : '';
  let whole = match[2] ?? '';
  let fraction = match[3] ?? '';
  const exponent = Number(match[4] ?? 0);
  if (exponent > 0) {
    const moved = fraction.slice(0, exponent).padEnd(exponent, '0');
    whole += moved;
    fraction = fraction.slice(exponent);
  } else if (exponent < 0) {
    const shift = -exponent;
    const padded = whole.padStart(shift, '0');
    fraction = padded.slice(padded.length - shift) + fraction;
    whole = padded.slice(0, padded.length - shift);
  }
  whole = whole.replace(/^0+(?=\d)/, '') || '0';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

function dateTimeLiteral(type: string, text: string): string {
  const match = DATE_TIME_IN.exec(text.trim());
  if (!match) return text;
  const [, y = '', mo = '', d = '', h = '00', mi = '00', s = '00', fraction = '', zone] = match;
  if (type === 'date') return `${y}-${mo}-${d}`;
  if (type === 'datetimeoffset') {
    const offset = !zone || /^z$/i.test(zone) ? '+00:00' : zone.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
    return `${y}-${mo}-${d}T${h}:${mi}:${s}${fractionOf(fraction, 7)}${offset}`;
  }
  let parts = { y, mo, d, h, mi, s };
  if (zone && !/^z$/i.test(zone)) parts = toUtc(parts, zone);
  const base = `${parts.y}-${parts.mo}-${parts.d}T${parts.h}:${parts.mi}:${parts.s}`;
  if (type === 'smalldatetime') return base;
  if (type === 'datetime') return `${base}${fractionOf(fraction, 3)}`;
  return `${base}${fractionOf(fraction, 7)}`;
}

const fractionOf = (digits: string, most: number) => (digits ? `.${digits.slice(0, most)}` : '');

type DateParts = { y: string; mo: string; d: string; h: string; mi: string; s: string };

function toUtc(parts: DateParts, zone: string): DateParts {
  const [, sign = '+', hours = '0', minutes = '0'] = /^([+-])(\d{2}):?(\d{2})$/.exec(zone) ?? [];
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const at = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are.
  at.setUTCFullYear(Number(parts.y), Number(parts.mo) - 1, Number(parts.d));
  at.setUTCHours(Number(parts.h), Number(parts.mi) - offsetMinutes, Number(parts.s), 0);
  return {
    y: pad(at.getUTCFullYear(), 4),
    mo: pad(at.getUTCMonth() + 1),
    d: pad(at.getUTCDate()),
    h: pad(at.getUTCHours()),
    mi: pad(at.getUTCMinutes()),
    s: pad(at.getUTCSeconds()),
  };
}

function timeLiteral(text: string): string {
  const trimmed = text.trim();
  const dateTime = DATE_TIME_IN.exec(trimmed);
  const clock = dateTime ? `${dateTime[4] ?? '00'}:${dateTime[5] ?? '00'}:${dateTime[6] ?? '00'}` : null;
  if (clock) return `${clock}${fractionOf(dateTime?.[7] ?? '', 7)}`;
  const match = TIME_IN.exec(trimmed);
  if (!match) return text;
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}${fractionOf(match[4] ?? '', 7)}`;
}
