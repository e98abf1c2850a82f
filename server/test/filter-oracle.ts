import { isCondition, type Filter, type FilterCondition, type FilterValue } from '#common/contract/filter.ts';
import type { CellValue, Row } from '#common/contract/sql.ts';

/*
 * The filter document evaluated in the test, over rows as the data API answers them: the oracle the engines' SQL is
 * checked against (server/engines/filter-predicates.ts, decision 0061). Same meaning: a null makes every condition
 * but isNull false, `not` is the complement, between is inclusive, a bare date given for a date-time column is its
 * whole day. How a column compares is the test's to say (numbers, dates as ISO-like text, text folded as the
 * engine's collation folds it).
 */

/** How the oracle compares a column's values. */
export type OracleColumn =
  | { kind: 'number' }
  /** A date-time column (a bare date is a whole day); `date` for a date-only column. */
  | { kind: 'datetime' }
  | { kind: 'date' }
  | { kind: 'boolean' }
  /** Compared without braces and case, as the data API takes a GUID. */
  | { kind: 'guid' }
  /** `fold`: what the engine's collation makes of a text before comparing (identity when case-sensitive). */
  | { kind: 'text'; fold: (text: string) => string };

export type OracleColumns = Record<string, OracleColumn>;

/** Case- and accent-insensitive, as MariaDB's utf8*_general_ci compares letters. */
export const generalCi = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();

export const exact = (text: string) => text;

/** The rows the filter keeps, in their order. */
export function filterRows(rows: Row[], filter: Filter, columns: OracleColumns): Row[] {
  return rows.filter((row) => keeps(row, filter, columns));
}

export function keeps(row: Row, filter: Filter, columns: OracleColumns): boolean {
  if (isCondition(filter)) return holds(row, filter, columns);
  if ('and' in filter) return filter.and.every((child) => keeps(row, child, columns));
  if ('or' in filter) return filter.or.some((child) => keeps(row, child, columns));
  return !keeps(row, filter.not, columns);
}

const BARE_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date-time's text with a T, without fractions of zero, so texts compare in time order. */
const dateText = (value: string) =>
  value
    .replace(' ', 'T')
    .replace(/\.0+$/, '')
    .replace(/(T\d{2}:\d{2})$/, '$1:00');

function nextDay(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function holds(row: Row, condition: FilterCondition, columns: OracleColumns): boolean {
  const cell = row[condition.column];
  if (condition.op === 'isNull') return cell === null || cell === undefined;
  if (condition.op === 'isNotNull') return cell !== null && cell !== undefined;
  if (cell === null || cell === undefined) return false;
  const column = columns[condition.column];
  if (!column) throw new Error(`the oracle does not know ${condition.column}`);
  const compare = comparer(column);
  const [a, b] = condition.values ?? [];
  const value = condition.value;
  switch (condition.op) {
    case 'eq':
      return within(column, cell, value, compare);
    case 'ne':
      return !within(column, cell, value, compare);
    case 'lt':
      return compare(cell, start(column, value)) < 0;
    case 'le':
      return isDay(column, value) ? compare(cell, end(value)) < 0 : compare(cell, value ?? null) <= 0;
    case 'gt':
      return isDay(column, value) ? compare(cell, end(value)) >= 0 : compare(cell, value ?? null) > 0;
    case 'ge':
      return compare(cell, start(column, value)) >= 0;
    case 'between':
      return (
        compare(cell, start(column, a)) >= 0 &&
        (isDay(column, b) ? compare(cell, end(b)) < 0 : compare(cell, b ?? null) <= 0)
      );
    case 'in':
      return (condition.values ?? []).some((v) => within(column, cell, v, compare));
    case 'startsWith':
    case 'contains':
    case 'endsWith': {
      const fold = column.kind === 'text' ? column.fold : exact;
      const text = fold(String(cell));
      const term = fold(String(value));
      return condition.op === 'startsWith'
        ? text.startsWith(term)
        : condition.op === 'endsWith'
          ? text.endsWith(term)
          : text.includes(term);
    }
  }
}

const isDay = (column: OracleColumn, value: FilterValue | undefined): value is string =>
  column.kind === 'datetime' && typeof value === 'string' && BARE_DATE.test(value);

const start = (column: OracleColumn, value: FilterValue | undefined): CellValue =>
  isDay(column, value) ? value : (value ?? null);
const end = (day: string) => nextDay(day);

/** Equal, or (a bare date for a date-time column) within that day. */
function within(
  column: OracleColumn,
  cell: CellValue,
  value: FilterValue | undefined,
  compare: (a: CellValue, b: CellValue) => number,
): boolean {
  if (isDay(column, value)) return compare(cell, value) >= 0 && compare(cell, end(value)) < 0;
  return compare(cell, value ?? null) === 0;
}

function comparer(column: OracleColumn): (a: CellValue, b: CellValue) => number {
  switch (column.kind) {
    case 'number':
      return (a, b) => Number(a) - Number(b);
    case 'guid':
      return (a, b) => {
        const x = String(a).replace(/[{}]/g, '').toLowerCase();
        const y = String(b).replace(/[{}]/g, '').toLowerCase();
        return x < y ? -1 : x > y ? 1 : 0;
      };
    case 'boolean':
      return (a, b) =>
        Number(a === true || a === 'true' || a === 1) - Number(b === true || b === 'true' || b === 1);
    case 'date':
    case 'datetime':
      return (a, b) => {
        const x = dateText(String(a));
        const y = dateText(String(b));
        return x < y ? -1 : x > y ? 1 : 0;
      };
    case 'text':
      return (a, b) => {
        const x = column.fold(String(a));
        const y = column.fold(String(b));
        return x < y ? -1 : x > y ? 1 : 0;
      };
  }
}
