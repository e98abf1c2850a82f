import type { CellValue, Column, TypeGroup } from '#common/contract/sql.ts';
import type { NativeType } from '#server/engines/adapter.ts';
import { decodeCommon } from '#server/engines/wire-values.ts';

/*
 * MySQL and MariaDB types onto the spec's type groups (docs/decisions/0004-engine-layer.md). `type` is
 * information_schema.COLUMNS.DATA_TYPE in lower case (`varchar`, `int`, `decimal`, `datetime`…), except that a
 * MariaDB JSON column (stored as longtext with a json_valid check) is called `json`. Lengths: characters for
 * char/varchar, bytes for binary/varbinary, and the byte limit the engine enforces for tinytext/text/mediumtext
 * and the blobs (255, 65535, 16777215); longtext, longblob and json are unlimited (-1); 0 where no length applies.
 */

/** A column's facts as information_schema.COLUMNS tells them. */
export interface MysqlColumnFacts {
  name: string;
  dataType: string;
  columnType: string;
  characterMaximumLength: number | null;
  numericPrecision: number | null;
  numericScale: number | null;
  datetimePrecision: number | null;
  /** MariaDB: a longtext column with a `json_valid(col)` check is a JSON column. */
  isJson: boolean;
}

const TEXT = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);
const BINARY = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const NUMBER = new Set([
  'tinyint',
  'smallint',
  'mediumint',
  'int',
  'integer',
  'bigint',
  'decimal',
  'numeric',
  'float',
  'double',
  'real',
  'year',
  'bit',
]);
const DATE = new Set(['date', 'datetime', 'timestamp']);
const UNLIMITED = new Set(['longtext', 'longblob', 'json']);
/** Binary columns whose name says they hold a picture are shown as images. */
const IMAGE_NAME = /image|photo|picture|avatar|logo|thumbnail|icon/i;

/** The native type of a column and its type group. */
export function nativeTypeOf(facts: MysqlColumnFacts): NativeType {
  const type = facts.isJson ? 'json' : facts.dataType.toLowerCase();
  const columnType = facts.columnType.toLowerCase();
  const group = groupOf(type, columnType, facts.name);
  const isNumber = group === 'Number' || group === 'bit';
  const isTemporal = group === 'Date' || group === 'Time';
  return {
    type,
    typeGroup: group,
    maxLength: lengthOf(type, group, facts.characterMaximumLength),
    precision: isNumber ? (facts.numericPrecision ?? 0) : 0,
    // For dates and times the scale is the digits of fractional seconds (datetime(6) → 6).
    scale: isNumber ? (facts.numericScale ?? 0) : isTemporal ? (facts.datetimePrecision ?? 0) : 0,
  };
}

function groupOf(type: string, columnType: string, name: string): TypeGroup {
  // tinyint(1) is MySQL's boolean (BOOL and BOOLEAN are aliases of it); bit(1) holds one bit.
  if ((type === 'tinyint' && /^tinyint\(1\)/.test(columnType)) || columnType === 'bit(1)') return 'bit';
  if (TEXT.has(type)) return 'Text';
  if (BINARY.has(type)) return IMAGE_NAME.test(name) ? 'image' : 'Binary';
  if (NUMBER.has(type)) return 'Number';
  if (DATE.has(type)) return 'Date';
  if (type === 'time') return 'Time';
  if (type === 'uuid') return 'guid';
  // json, geometry types, MariaDB inet4/inet6 and vector, anything newer: shown as text.
  return 'Other';
}

function lengthOf(type: string, group: TypeGroup, characterMaximumLength: number | null): number {
  if (UNLIMITED.has(type)) return -1;
  if (group !== 'Text' && group !== 'Binary' && group !== 'image') return 0;
  return characterMaximumLength ?? 0;
}

/** A value from mysql2 as it goes on the wire. */
export function decodeValue(column: Column, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return null;
  // BIT(n) with n > 1 arrives as big-endian bytes: show the number (as text beyond 2^53).
  if (column.typeGroup === 'Number' && column.type === 'bit' && raw instanceof Uint8Array) {
    const value = raw.reduce((sum, byte) => (sum << 8n) | BigInt(byte), 0n);
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (typeof raw === 'string' && column.typeGroup === 'Date') return isoDateTime(column, raw);
  return decodeCommon(column, raw);
}

/**
 * DATETIME as ISO text without an offset (it has none); TIMESTAMP as ISO text in UTC with `Z` (the session's time
 * zone is UTC, see connect.ts). Fractional seconds stay as the server wrote them. Zero dates stay as they are.
 */
function isoDateTime(column: Column, raw: string): string {
  // A test, not a match: no array of parts made for every date of every page (issue 17).
  if (!DATE_TIME_OUT.test(raw) || raw.startsWith('0000-00-00')) return raw;
  return `${raw.slice(0, 10)}T${raw.slice(11)}${column.type === 'timestamp' ? 'Z' : ''}`;
}
const DATE_TIME_OUT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?$/;

const DATE_TIME_IN =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A checked wire value as mysql2 should bind it for this column. */
export function encodeValue(column: Column, value: string | number | boolean | Buffer): unknown {
  switch (column.typeGroup) {
    case 'bit':
      // 1/0 suit both tinyint(1) and bit(1).
      return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
    case 'Number':
      // A quoted string would be taken as bytes by a BIT column: bind a number (a bigint beyond 2^53).
      if (column.type === 'bit') return typeof value === 'number' ? value : BigInt(String(value).trim());
      return value;
    case 'Date':
    case 'Time':
      return typeof value === 'string' ? mysqlDateTime(value) : value;
    default:
      return value;
  }
}

/**
 * ISO date-time text in the form MySQL accepts: 'YYYY-MM-DD HH:MM:SS[.ffffff]'. An offset or Z is applied, giving
 * UTC (MariaDB rejects offsets; TIMESTAMP values are read back in UTC). Other text passes unchanged.
 */
export function mysqlDateTime(text: string): string {
  const match = DATE_TIME_IN.exec(text.trim());
  if (!match) return text;
  const [, year, month, day, hour, minute, second = '00', fraction = '', offset] = match;
  const local = `${year}-${month}-${day} ${hour}:${minute}:${second}${fraction}`;
  if (!offset || offset.toUpperCase() === 'Z' || /^[+-]00:?00$/.test(offset)) return local;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  // Whole seconds through Date (no rounding); the fraction is kept as written.
  const utc = new Date(
    Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) -
      offsetMinutes * 60_000,
  );
  if (Number.isNaN(utc.getTime())) return text;
  return `${utc.toISOString().slice(0, 19).replace('T', ' ')}${fraction}`;
}
