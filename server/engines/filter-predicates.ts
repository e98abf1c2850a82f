import { sql } from 'kysely';
import {
  describeCondition,
  filterProblems,
  isCondition,
  keepsEveryRow,
  type Filter as FilterDocument,
  type FilterValue,
  type PlacedCondition,
} from '#common/contract/filter.ts';
import type { Column, Filter, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import { badInput, EngineError } from './engine-error.ts';
import { searchPredicates } from './search-terms.ts';
import { checkValue, type CheckedValue } from './wire-values.ts';

/*
 * The filter document (common/contract/filter.ts, issue 35) as one SQL predicate
 * (docs/decisions/0061-filters.md). Column names come only from the catalog (each condition's column is looked up
 * in the table's columns; its catalog name is what `sql.id` quotes), every value is a bound parameter, and the only
 * words written into the SQL are the constant operators below.
 *
 * Meaning, the same on every engine:
 * - A condition is true or false for every row, never unknown: a null value makes every condition but isNull false
 *   (`ne 5` keeps the rows that have a value other than 5), and `not` keeps exactly the rows its filter does not.
 *   Conditions under a `not` on a nullable column are written `(column is not null and …)` for that; elsewhere SQL's
 *   unknown already drops the row as false would.
 * - Text: eq / ne / lt … compare as the column's collation does; startsWith, contains and endsWith match case as the
 *   engine's starts-with search does (decision 0004: the range on SQLite and PostgreSQL is case-sensitive, MySQL and
 *   SQL Server follow the column's collation, usually case-insensitive); `%` `_` and the escape character in the text
 *   are taken literally.
 * - Date: a bare `YYYY-MM-DD` given for a date-time column is that whole day (as the search does): eq keeps the day,
 *   ne everything else, lt the rows before it, le up to its end, gt after its end, ge from its start, between from
 *   the first day's start to the last day's end, in any of the listed days.
 * - between is inclusive at both ends; a range whose start is past its end keeps nothing.
 */

const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A checked value as the driver binds it; for a bare date against a date-time column, the day it names; for a whole
 * number past what the column's type holds, which side of it (PostgreSQL refuses to compare such a number with the
 * column, and no value of the column can equal it anyway). */
type Operand =
  | { kind: 'value'; bound: unknown }
  | { kind: 'day'; start: unknown; end: unknown }
  | { kind: 'beyond'; side: 'below' | 'above' };

/** Whole-number types by their names on every engine, and the bits they hold (signed). Other whole-number types
 * (MySQL's tinyint and mediumint, unsigned ones) compare with any number without complaint. */
const WHOLE_NUMBER_BITS: Record<string, bigint> = {
  smallint: 16n,
  int2: 16n,
  integer: 32n,
  int: 32n,
  int4: 32n,
  bigint: 64n,
  int8: 64n,
};

/** Where a whole number falls against its column type's range: inside, below or above. */
function rangeSide(column: Column, value: CheckedValue): 'below' | 'above' | null {
  const bits = WHOLE_NUMBER_BITS[column.type.toLowerCase()];
  if (bits === undefined) return null;
  const text =
    typeof value === 'number' ? (Number.isInteger(value) ? BigInt(value).toString() : null) : value;
  if (typeof text !== 'string' || !/^[-+]?\d+$/.test(text)) return null;
  const number = BigInt(text);
  const limit = 1n << (bits - 1n);
  return number < -limit ? 'below' : number >= limit ? 'above' : null;
}

/** Always false; always true for a row that has a value. */
const NOTHING = sql`1 = 0`;
const anyValue = (ref: SqlFragment) => sql`${ref} is not null`;

/** Why a filter cannot run: at most this many problems are spelled out in one answer. */
const PROBLEMS_SHOWN = 5;

/** The 400 of a filter whose conditions do not fit the table: every problem (up to a few), each naming its
 * condition's path and what to fix. */
export function refuseFilterProblems(problems: { message: string }[]): never {
  const shown = problems.slice(0, PROBLEMS_SHOWN).map((p) => p.message);
  const more = problems.length - shown.length;
  throw badInput(
    more > 0 ? `${shown.join(' ')} And ${more} more problem${more === 1 ? '' : 's'}.` : shown.join(' '),
  );
}

/** The filter's conditions checked against the table (filterProblems, then every value against its column's type);
 * throws the 400 that names each condition and what to fix. */
export function checkFilter(table: Table, filter: FilterDocument): void {
  const problems = filterProblems(filter, table.columns);
  if (problems.length) refuseFilterProblems(problems);
}

/**
 * The filter as one predicate over `table`'s columns, or null when it keeps every row. Checks it first: an unknown
 * column, an operator the column's type does not take, or a value that does not parse as the column's type is a
 * 400 naming the condition's path (`where.and[1].or[0] (Total gt): "abc" is not a number.`).
 */
export function filterPredicate(
  adapter: EngineAdapter,
  table: Table,
  filter: FilterDocument,
): SqlFragment | null {
  checkFilter(table, filter);
  if (keepsEveryRow(filter)) return null;
  return compile(adapter, table, filter, 'where', false);
}

/** The predicates of a page or stream: the spec's search terms (search-terms.ts) and the filter document, if any. */
export function rowPredicates(
  adapter: EngineAdapter,
  table: Table,
  query: { filter: Filter; where?: FilterDocument | undefined },
): SqlFragment[] {
  const predicates = searchPredicates(adapter, table, query.filter);
  const filtered = query.where ? filterPredicate(adapter, table, query.where) : null;
  if (filtered) predicates.push(filtered);
  return predicates;
}

function compile(
  adapter: EngineAdapter,
  table: Table,
  filter: FilterDocument,
  path: string,
  negated: boolean,
): SqlFragment {
  if (isCondition(filter)) return conditionPredicate(adapter, table, { condition: filter, path }, negated);
  if ('not' in filter) return sql`not (${compile(adapter, table, filter.not, `${path}.not`, true)})`;
  const [children, joiner, empty] =
    'and' in filter ? [filter.and, sql` and `, sql`1 = 1`] : [filter.or, sql` or `, sql`1 = 0`];
  const key = 'and' in filter ? 'and' : 'or';
  if (children.length === 0) return empty;
  const parts = children.map((child, i) => compile(adapter, table, child, `${path}.${key}[${i}]`, negated));
  return parts.length === 1 && parts[0] ? parts[0] : sql`(${sql.join(parts, joiner)})`;
}

/** One condition as a predicate; `negated`: a `not` is above it, so it must not be unknown on a null. */
function conditionPredicate(
  adapter: EngineAdapter,
  table: Table,
  placed: PlacedCondition,
  negated: boolean,
): SqlFragment {
  const { condition } = placed;
  const column = columnOf(table, placed);
  const ref = sql.id(column.name);
  if (condition.op === 'isNull') return sql`${ref} is null`;
  if (condition.op === 'isNotNull') return sql`${ref} is not null`;
  const predicate = valuePredicate(adapter, column, placed, ref);
  return negated && column.isNullable ? sql`(${ref} is not null and ${predicate})` : predicate;
}

/** The catalog's column a condition names (filterProblems has made sure it exists). */
function columnOf(table: Table, placed: PlacedCondition): Column {
  const column = table.columns.find((c) => c.name === placed.condition.column);
  if (!column) throw badInput(`${describeCondition(placed)}: ${placed.condition.column} is not a column.`);
  return column;
}

function valuePredicate(
  adapter: EngineAdapter,
  column: Column,
  placed: PlacedCondition,
  ref: SqlFragment,
): SqlFragment {
  const { condition } = placed;
  const one = () => operand(adapter, column, placed, condition.value, null);
  const text = () => textValue(column, placed, condition.value);
  switch (condition.op) {
    case 'eq': {
      const value = one();
      if (value.kind === 'beyond') return NOTHING;
      return value.kind === 'day'
        ? sql`(${ref} >= ${value.start} and ${ref} < ${value.end})`
        : sql`${ref} = ${value.bound}`;
    }
    case 'ne': {
      const value = one();
      if (value.kind === 'beyond') return anyValue(ref);
      return value.kind === 'day'
        ? sql`(${ref} < ${value.start} or ${ref} >= ${value.end})`
        : sql`${ref} <> ${value.bound}`;
    }
    case 'lt':
    case 'le':
      return upperBound(ref, one(), condition.op === 'le');
    case 'gt':
    case 'ge':
      return lowerBound(ref, one(), condition.op === 'ge');
    case 'between': {
      const [from, to] = listOf(adapter, column, placed);
      if (!from || !to) throw badInput(`${describeCondition(placed)}: between needs values of two.`);
      return sql`(${lowerBound(ref, from, true)} and ${upperBound(ref, to, true)})`;
    }
    case 'in': {
      const values = listOf(adapter, column, placed);
      const plain = values.flatMap((v) => (v.kind === 'value' ? [v.bound] : []));
      const days = values.flatMap((v) =>
        v.kind === 'day' ? [sql`(${ref} >= ${v.start} and ${ref} < ${v.end})`] : [],
      );
      const parts = [
        ...(plain.length ? [sql`${ref} in (${sql.join(plain.map((v) => sql`${v}`))})`] : []),
        ...days,
      ];
      if (parts.length === 0) return NOTHING;
      return parts.length === 1 && parts[0] ? parts[0] : sql`(${sql.join(parts, sql` or `)})`;
    }
    case 'startsWith':
      return adapter.textStartsWith(ref, text(), column);
    case 'contains':
      return adapter.textContains(ref, text(), column);
    case 'endsWith':
      return adapter.textEndsWith(ref, text(), column);
    default:
      throw badInput(`${describeCondition(placed)}: ${condition.op} is not an operator.`);
  }
}

/** `column < value` (`<=` when inclusive): a day ends where the next begins, a number past the type's range keeps
 * every value or none. */
function upperBound(ref: SqlFragment, value: Operand, inclusive: boolean): SqlFragment {
  if (value.kind === 'beyond') return value.side === 'above' ? anyValue(ref) : NOTHING;
  if (value.kind === 'day') return inclusive ? sql`${ref} < ${value.end}` : sql`${ref} < ${value.start}`;
  return inclusive ? sql`${ref} <= ${value.bound}` : sql`${ref} < ${value.bound}`;
}

/** `column > value` (`>=` when inclusive), as upperBound. */
function lowerBound(ref: SqlFragment, value: Operand, inclusive: boolean): SqlFragment {
  if (value.kind === 'beyond') return value.side === 'below' ? anyValue(ref) : NOTHING;
  if (value.kind === 'day') return inclusive ? sql`${ref} >= ${value.start}` : sql`${ref} >= ${value.end}`;
  return inclusive ? sql`${ref} >= ${value.bound}` : sql`${ref} > ${value.bound}`;
}

/** The `values` of between / in, each checked; a problem names the value's place in the list. */
function listOf(adapter: EngineAdapter, column: Column, placed: PlacedCondition): Operand[] {
  return (placed.condition.values ?? []).map((value, i) => operand(adapter, column, placed, value, i));
}

/** The text of a text operator (startsWith, contains, endsWith): a string. */
function textValue(column: Column, placed: PlacedCondition, value: FilterValue | undefined): string {
  if (typeof value === 'string') return value;
  throw badInput(
    `${describeCondition(placed)}: ${column.name} holds text; send the value as text (a JSON string), not ${JSON.stringify(value ?? null)}.`,
  );
}

/**
 * A value checked against its column's type (the data API's own checks, wire-values.ts) and encoded as the driver
 * binds it; a bare date against a date-time column becomes its day. `place`: its index in `values`, for the message.
 */
function operand(
  adapter: EngineAdapter,
  column: Column,
  placed: PlacedCondition,
  value: FilterValue | undefined,
  place: number | null,
): Operand {
  const where = `${describeCondition(placed)}: ${place === null ? '' : `values[${place}] `}`;
  if (value === undefined) throw badInput(`${where}the value is missing.`);
  if (column.typeGroup === 'Text') {
    if (typeof value !== 'string')
      throw badInput(
        `${where}${column.name} holds text; send the value as text (a JSON string), not ${JSON.stringify(value)}.`,
      );
    return { kind: 'value', bound: adapter.encodeValue(column, value) };
  }
  if (column.typeGroup === 'Date' || column.typeGroup === 'Time' || column.typeGroup === 'guid') {
    if (typeof value !== 'string')
      throw badInput(
        `${where}${column.name} takes ${whatFits(column)} as text, not ${JSON.stringify(value)}.`,
      );
  }
  if (column.typeGroup === 'Date') {
    const day = BARE_DATE.exec(value as string);
    if (day) {
      const [, year, month, date] = day;
      if (!realDay(Number(year), Number(month), Number(date)))
        throw badInput(`${where}"${String(value)}" is not a day of the calendar.`);
      if (column.type.toLowerCase() !== 'date') {
        return {
          kind: 'day',
          start: adapter.encodeValue(column, value as string),
          end: adapter.encodeValue(column, nextDay(value as string)),
        };
      }
    }
  }
  let checked: CheckedValue | null;
  try {
    // A filter's number may lie outside the column's precision (Total lt 1000000000 on a decimal(10,2)): it is a
    // question about the values, not one to store, so only its form is checked.
    checked = checkValue(column.typeGroup === 'Number' ? withoutPrecision(column) : column, value);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    throw badInput(`${where}${withoutColumnName(error.message, column)}`);
  }
  if (checked === null) throw badInput(`${where}the value is missing.`);
  const side = column.typeGroup === 'Number' ? rangeSide(column, checked) : null;
  if (side) return { kind: 'beyond', side };
  return { kind: 'value', bound: adapter.encodeValue(column, checked) };
}

/** The column without its precision, for checkValue (kept per column: the checks remember facts by column). */
const unbounded = new WeakMap<Column, Column>();
function withoutPrecision(column: Column): Column {
  let copy = unbounded.get(column);
  if (!copy) unbounded.set(column, (copy = { ...column, precision: 0 }));
  return copy;
}

/** What a column of this type takes, for a message. */
function whatFits(column: Column): string {
  if (column.typeGroup === 'Date')
    return 'a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS with an optional offset)';
  if (column.typeGroup === 'Time') return 'a time (HH:MM:SS)';
  return 'a GUID (8-4-4-4-12 hexadecimal digits)';
}

/** checkValue's messages start with the column's name; the condition's description already names it. */
function withoutColumnName(message: string, column: Column): string {
  const prefix = `${column.name}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function realDay(year: number, month: number, date: number): boolean {
  const day = new Date(0);
  day.setUTCFullYear(year, month - 1, date);
  return day.getUTCFullYear() === year && day.getUTCMonth() === month - 1 && day.getUTCDate() === date;
}

/** The day after a YYYY-MM-DD day, as YYYY-MM-DD. */
function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}
