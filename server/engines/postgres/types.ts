import pg from 'pg';
import type { CellValue, Column, TypeGroup } from '#common/contract/sql.ts';
import type { NativeType } from '#server/engines/adapter.ts';
import { looksLikeImageColumn } from '#server/engines/image-columns.ts';
import { decodeCommon } from '#server/engines/wire-values.ts';

/*
 * PostgreSQL's native types: how the driver parses them (for our pool only), how they map to the type groups,
 * and the value conversions the generic rules in wire-values.ts do not cover.
 */

/** Types whose default driver parsing keeps every digit: booleans, bytea, 16/32-bit integers, oid and floats. */
const parsedByDriver = new Set([16, 17, 21, 23, 26, 700, 701]);

const rawText = (value: string) => value;

/** Text PostgreSQL sends in a form the wire rules (checkValue) do not take back: normalised already here, so
 * the keys insertRow answers and the values paging seeks from can be bound again as they are. */
const normalised: Record<number, (value: string) => string> = {
  1114: (value) => isoPointInTime(value), // timestamp
  1184: (value) => isoPointInTime(value), // timestamptz
  1266: (value) => isoTimeWithOffset(value), // timetz
  790: (value) => plainMoney(value), // money
};

/**
 * The pool's type parsers: everything except the types above arrives as the text PostgreSQL sends. Dates and
 * timestamps keep their microseconds and offset (a JavaScript Date would lose both), int8 and numeric keep their
 * digits, and json, arrays, ranges and intervals stay in PostgreSQL's own notation so they can be written back.
 */
export function getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (format === 'binary' || parsedByDriver.has(oid)) return pg.types.getTypeParser(oid, 'text');
  return normalised[oid] ?? rawText;
}

/** The session settings that make the text above stable: UTC offsets, ISO dates, '$1,234.56' money. */
export const sessionOptions = '-c TimeZone=UTC -c DateStyle=ISO -c IntervalStyle=postgres -c lc_monetary=C';

/** A type as pg_type describes it (domains already resolved to their base type). */
export interface PostgresType {
  /** pg_type.typname, e.g. int4, varchar, timestamptz, or a user type's name. */
  name: string;
  /** pg_type.typtype: b base, e enum, r range, m multirange, c composite, p pseudo. */
  kind: string;
  /** pg_type.typcategory: A array, S string, N numeric, … */
  category: string;
  /** For arrays, the element type's name. */
  elementName: string | null;
}

/** Digits of the whole-number types and binary digits of the floats (as information_schema reports floats). */
const numberPrecision: Record<string, number> = {
  int2: 5,
  int4: 10,
  int8: 19,
  oid: 10,
  float4: 24,
  float8: 53,
  money: 19,
};

const dateTypes = new Set(['date', 'timestamp', 'timestamptz']);
const timeTypes = new Set(['time', 'timetz']);
const unlimitedText = new Set(['text', 'citext', 'json', 'jsonb', 'xml']);

/** varchar/bpchar/numeric keep a 4-byte header in their typmod. */
const VARHDRSZ = 4;

/** Maps a column's type and typmod (pg_attribute.atttypmod) to the type facts the catalog reports. */
export function nativeTypeOf(type: PostgresType, typmod: number, columnName: string): NativeType {
  const base = { type: type.name.toLowerCase(), maxLength: 0, precision: 0, scale: 0 };
  const of = (typeGroup: TypeGroup, facts: Partial<NativeType> = {}): NativeType => ({
    ...base,
    typeGroup,
    ...facts,
  });

  if (type.category === 'A')
    return of('Other', { type: `${(type.elementName ?? 'unknown').toLowerCase()}[]`, maxLength: -1 });
  if (type.kind === 'e') return of('Text');
  switch (type.name) {
    case 'varchar':
    case 'bpchar':
      return of('Text', { maxLength: typmod >= VARHDRSZ ? typmod - VARHDRSZ : -1 });
    case 'name':
      return of('Text', { maxLength: 63 });
    case 'char':
      return of('Text', { maxLength: 1 });
    case 'bytea':
      return of(looksLikeImageColumn(columnName) ? 'image' : 'Binary', { maxLength: -1 });
    case 'numeric':
      return of('Number', numericPrecision(typmod));
    case 'money':
      return of('Number', { precision: 19, scale: 2 });
    case 'bool':
      return of('bit');
    case 'bit':
      return typmod === 1 ? of('bit') : of('Other', { maxLength: typmod > 0 ? typmod : -1 });
    case 'varbit':
      return of('Other', { maxLength: typmod > 0 ? typmod : -1 });
    case 'uuid':
      return of('guid');
  }
  const precision = numberPrecision[type.name];
  if (precision !== undefined) return of('Number', { precision });
  // Fractional-second digits of a point in time go in scale (6 unless declared, e.g. timestamp(3)).
  if (dateTypes.has(type.name))
    return of('Date', type.name === 'date' ? {} : { scale: typmod >= 0 ? typmod : 6 });
  if (timeTypes.has(type.name)) return of('Time', { scale: typmod >= 0 ? typmod : 6 });
  if (type.category === 'S' || type.name === 'citext') return of('Text', { maxLength: -1 });
  return of('Other', { maxLength: unlimitedText.has(type.name) ? -1 : 0 });
}

/** numeric(p,s) packs both in its typmod; an unconstrained numeric has typmod -1 (reported as 0, 0). */
function numericPrecision(typmod: number): { precision: number; scale: number } {
  if (typmod < VARHDRSZ) return { precision: 0, scale: 0 };
  const packed = typmod - VARHDRSZ;
  // Since PostgreSQL 15 the scale is an 11-bit signed field (numeric(3,-2)); older servers only use 0…1000.
  return { precision: (packed >> 16) & 0xffff, scale: ((packed & 0x7ff) ^ 1024) - 1024 };
}

const POINT_IN_TIME = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)(.*)$/;
const OFFSET = /^([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/;

/** '+05' → '+05:00'; an offset with seconds (historic local mean time, never seen with TimeZone=UTC) keeps them. */
function isoOffset(offset: string): string | null {
  if (offset === '') return '';
  const parts = OFFSET.exec(offset);
  if (!parts) return null;
  const [, hours = '', minutes = '00', seconds] = parts;
  return seconds ? `${hours}:${minutes}:${seconds}` : `${hours}:${minutes}`;
}

/** PostgreSQL's ISO output ('2024-01-02 03:04:05.123456+00') as ISO 8601 ('2024-01-02T03:04:05.123456+00:00').
 * BC dates, 'infinity' and anything unexpected stay as PostgreSQL wrote them. */
export function isoPointInTime(text: string): string {
  const quick = quickIsoPointInTime(text);
  if (quick !== null) return quick;
  const parts = POINT_IN_TIME.exec(text);
  if (!parts) return text;
  const [, date = '', time = '', rest = ''] = parts;
  const offset = isoOffset(rest);
  return offset === null ? text : `${date}T${time}${offset}`;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * The shapes a page's timestamps take with TimeZone=UTC, without a regular expression (every timestamp of every
 * page passes here; the match and its parts were a good part of a page's garbage, issue 17): 'YYYY-MM-DD
 * hh:mm:ss[.f]' and the same ending in a two-digit offset '+HH' or '-HH'. Anything else (BC, infinity, a year past
 * 9999, an offset with minutes) is null: the regular expression decides.
 */
function quickIsoPointInTime(text: string): string | null {
  if (text.length < 19 || text.charCodeAt(10) !== 32 || text.charCodeAt(4) !== 45) return null;
  let end = 19;
  if (text.charCodeAt(19) === 46) {
    end = 20;
    while (isDigit(text.charCodeAt(end))) end++;
    if (end === 20) return null;
  }
  for (const at of [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18])
    if (!isDigit(text.charCodeAt(at))) return null;
  if (end === text.length) return `${text.slice(0, 10)}T${text.slice(11)}`;
  const sign = text.charCodeAt(end);
  if (end + 3 !== text.length || (sign !== 43 && sign !== 45)) return null;
  if (!isDigit(text.charCodeAt(end + 1)) || !isDigit(text.charCodeAt(end + 2))) return null;
  return `${text.slice(0, 10)}T${text.slice(11)}:00`;
}

/** '03:04:05+05' → '03:04:05+05:00' (time with time zone). */
export function isoTimeWithOffset(text: string): string {
  const parts = /^(\d{2}:\d{2}:\d{2}(?:\.\d+)?)(.*)$/.exec(text);
  if (!parts) return text;
  const offset = isoOffset(parts[2] ?? '');
  return offset === null ? text : `${parts[1] ?? ''}${offset}`;
}

/** With lc_monetary=C (sessionOptions) money reads '-$1,234.56': keep the sign, digits and point. */
export function plainMoney(text: string): string {
  return text.replace(/[^\d.-]/g, '');
}

/** A value as the pool's parsers give it, as it goes on the wire. */
export function decodeValue(column: Column, raw: unknown): CellValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string') {
    switch (column.type) {
      case 'timestamp':
      case 'timestamptz':
        // The pool's parser made it ISO already ('T' where PostgreSQL writes a space).
        return raw.charCodeAt(10) === 84 ? raw : isoPointInTime(raw);
      case 'timetz':
        return isoTimeWithOffset(raw);
      case 'money':
        return plainMoney(raw);
    }
  }
  // NaN and ±Infinity are valid float4/float8 values but not JSON numbers.
  if (typeof raw === 'number' && !Number.isFinite(raw))
    return Number.isNaN(raw) ? 'NaN' : raw > 0 ? 'Infinity' : '-Infinity';
  return decodeCommon(column, raw);
}

/** A checked wire value as pg should bind it: bit(1) wants '1'/'0', everything else binds as it is (booleans
 * as booleans, bytes as Buffers, numbers and decimals as numbers or strings, dates as ISO text). */
export function encodeValue(column: Column, value: string | number | boolean | Buffer): unknown {
  if (column.typeGroup === 'bit') {
    const on = value === true || value === 1 || value === '1' || value === 'true';
    return column.type === 'bit' ? (on ? '1' : '0') : on;
  }
  return value;
}
