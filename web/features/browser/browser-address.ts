import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '#common/limits.ts';
import type { Filter } from '#common/contract/filter.ts';
import { encodeSegment } from '#common/links.ts';
import { encodeWhere, readWhereParam, WHERE_PARAM } from './filter/where-param.ts';
import {
  COLUMNS_PARAM,
  encodeColumnsParam,
  parseColumnsParam,
  type ColumnLayout,
} from './columns/columns-param.ts';

/*
 * The browser's view in its address (docs/architecture.md habit 16): /db/{db}/{schema}/{table}?page=3&size=40&
 * sort=-Name&q.<Column>=<term>&where=<filter>&cols=<columns>, so a view can be bookmarked, shared and reloaded. Defaults are left
 * out (page 1, size 20, no sort, no terms, no filter, the spec's columns); a value that does not parse falls back to its default instead
 * of failing the page (a filter that does not, with a sentence saying why: filter/where-param.ts, where-check.ts).
 */

/** The prefix of a search term's parameter: q.Name=Ada searches the column Name for "Ada". */
export const TERM_PREFIX = 'q.';

export interface BrowserTableName {
  schema: string;
  name: string;
}

export interface BrowserAddress {
  db: string;
  /** null: no table chosen yet (/db/{db}). */
  table: BrowserTableName | null;
  /** Column → trimmed, non-empty term. */
  filter: Record<string, string>;
  /** The filter document (issue 35), checked, ANDed with the terms; null: none. */
  where: Filter | null;
  /** The address's filter JSON until it is checked (filter/where-check.ts, loaded on demand); the page waits. */
  whereToCheck: { json: unknown } | null;
  /** Why the address's filter was refused (the page says so and shows every row); null when it was not. Never
   * written back into the address. */
  whereProblem: string | null;
  /** 'Name', '-Name' or null. */
  sort: string | null;
  /** From 1. */
  page: number;
  /** One of PAGE_SIZES. */
  size: number;
  /** The columns shown, their order, widths and pins (columns/columns-param.ts); null: the spec's default. Names the
   * table does not have are dropped when shown (grid/column-layout.ts). */
  columns: ColumnLayout | null;
}

/** The view of a table before anyone searches, sorts or pages. */
export function freshView(
  db: string,
  table: BrowserTableName | null,
  size = DEFAULT_PAGE_SIZE,
): BrowserAddress {
  return {
    db,
    table,
    filter: {},
    where: null,
    whereToCheck: null,
    whereProblem: null,
    sort: null,
    page: 1,
    size,
    columns: null,
  };
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** A page number from the address: a whole number from 1, else 1. */
export function parsePage(raw: string | null): number {
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return 1;
  const page = Number(raw.trim());
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** A page size from the address: one of PAGE_SIZES, else the default. */
export function parseSize(raw: string | null): number {
  const size = Number(raw);
  return raw !== null && (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE;
}

/** A sort string from the address: a column name, - before it for descending; anything else is no sort. */
export function parseSort(raw: string | null): string | null {
  if (raw === null) return null;
  const sort = raw.trim();
  const column = sort.startsWith('-') ? sort.slice(1) : sort;
  return column.trim() === '' ? null : sort;
}

/**
 * The view an address names, or null when the path is not one of the browser's (/db/{db} or /db/{db}/{schema}/
 * {table}, names percent-encoded as one segment each).
 */
export function parseBrowserAddress(pathname: string, search: string): BrowserAddress | null {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments[0] !== 'db' || (segments.length !== 2 && segments.length !== 4)) return null;
  const names = segments.slice(1).map(decode);
  if (names.some((name) => name === null || name === '')) return null;
  const [db, schema, name] = names as string[];
  if (db === undefined) return null;
  const table = schema !== undefined && name !== undefined ? { schema, name } : null;
  if (!table) return freshView(db, null, parseSize(new URLSearchParams(search).get('size')));

  const params = new URLSearchParams(search);
  const filter: Record<string, string> = {};
  for (const [key, value] of params) {
    if (!key.startsWith(TERM_PREFIX)) continue;
    const column = key.slice(TERM_PREFIX.length);
    const term = value.trim();
    if (column !== '' && term !== '') filter[column] = term;
  }
  const reading = readWhereParam(params.get(WHERE_PARAM));
  return {
    db,
    table,
    filter,
    where: null,
    whereToCheck: reading?.problem === null ? { json: reading.json } : null,
    whereProblem: reading?.problem ?? null,
    sort: parseSort(params.get('sort')),
    page: parsePage(params.get('page')),
    size: parseSize(params.get('size')),
    columns: parseColumnsParam(params.get(COLUMNS_PARAM)),
  };
}

/** The address of a view: its path and the query string of the values that are not defaults. */
export function browserAddressUrl(view: BrowserAddress): string {
  const path = view.table
    ? `/db/${encodeSegment(view.db)}/${encodeSegment(view.table.schema)}/${encodeSegment(view.table.name)}`
    : `/db/${encodeSegment(view.db)}`;
  const params = new URLSearchParams();
  if (view.table) {
    if (view.page > 1) params.set('page', String(view.page));
    if (view.size !== DEFAULT_PAGE_SIZE) params.set('size', String(view.size));
    if (view.sort) params.set('sort', view.sort);
    for (const [column, term] of Object.entries(view.filter)) {
      const trimmed = term.trim();
      if (trimmed !== '') params.append(`${TERM_PREFIX}${column}`, trimmed);
    }
    if (view.where) params.set(WHERE_PARAM, encodeWhere(view.where));
    else if (view.whereToCheck) params.set(WHERE_PARAM, encodeWhere(view.whereToCheck.json));
    if (view.columns && view.columns.length > 0) params.set(COLUMNS_PARAM, encodeColumnsParam(view.columns));
  } else if (view.size !== DEFAULT_PAGE_SIZE) {
    params.set('size', String(view.size));
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Writes the view into the address bar without a router navigation (the site layout rebuilds the page on every
 * navigation). history.state is kept: the data router keeps its key and index there.
 */
export function writeBrowserAddress(view: BrowserAddress): void {
  const url = browserAddressUrl(view);
  if (`${window.location.pathname}${window.location.search}` === url) return;
  window.history.replaceState(window.history.state, '', url);
}
