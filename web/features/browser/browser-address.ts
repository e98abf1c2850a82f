import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '#common/limits.ts';
import type { Filter } from '#common/contract/filter.ts';
import type { SavedView } from '#common/contract/views.ts';
import { encodeSegment } from '#common/links.ts';
import type { RowKey } from '#web/api/sql/row-by-key.ts';
import { encodeWhere, readWhereParam, WHERE_PARAM } from './filter/where-param.ts';
import { sameStateField, stateOfView, type ViewField } from './views/view-state.ts';
import {
  COLUMNS_PARAM,
  encodeColumnsParam,
  parseColumnsParam,
  type ColumnLayout,
} from './columns/columns-param.ts';

/*
 * The browser's view in its address (docs/architecture.md habit 16): /db/{db}/{schema}/{table}?page=3&size=40&
 * sort=-Name&q.<Column>=<term>&where=<filter>&cols=<columns>, so a view can be bookmarked, shared and reloaded.
 * Defaults are left out (page 1, size 20, no sort, no terms, no filter, the spec's columns); a value that does not
 * parse falls back to its default instead of failing the page (a filter that does not, with a sentence saying why:
 * filter/where-param.ts, where-check.ts).
 *
 * A saved view (issue 36, decision 0062) is `view=<Id>` plus only what differs from it: `?view=7` alone opens the
 * view as saved; `?view=7&sort=-Name` sorts it otherwise; an empty parameter (`sort=`, `where=`, `cols=`) sets that
 * part to none (the spec's columns) over the view's.
 *
 * A row (issue 37, decision 0067) is `row=<key>`: base64url of the JSON of the row's key, column → value, encoded as
 * `where=` is (`row=eyJUcmFja0lkIjoyfQ` is {"TrackId":2}). The table opens with that row in its editor; the columns
 * are any that name one row (a foreign key's referenced columns: its primary key or a unique column).
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
  /** The saved view the state started from (`view=<Id>`); null: none. */
  viewId: number | null;
  /** That view as the server answered it for this person, once loaded. */
  savedView: SavedView | null;
  /** While the address's view loads (the page waits): the parts the address sets itself, over the view's. */
  viewPending: readonly ViewField[] | null;
  /** What the card says about the view: what was left out of it, or why it could not be opened; null: nothing. */
  viewNotice: string | null;
  /** The columns shown, their order, widths and pins (columns/columns-param.ts); null: the spec's default. Names the
   * table does not have are dropped when shown (grid/column-layout.ts). */
  columns: ColumnLayout | null;
  /** The row open in the editor (`row=`, decision 0067); absent or null: none. */
  row?: RowKey | null;
  /** Why the address's `row=` could not be read (the card says so); absent or null: it could, or there is none. */
  rowProblem?: string | null;
}

/** The address parameter that names the row open in the editor. */
export const ROW_PARAM = 'row';
/** The sentence for a `row=` that is not a key. */
export const ROW_BROKEN =
  'The row in this address could not be read: it is not a key of this table. The table is shown instead.';

/** base64url of a row key's JSON, for `row=`. */
export const encodeRowParam = (key: RowKey): string => encodeWhere(key);

/** The key a `row=` parameter holds: a JSON object of at least one column, each value text, a number or a boolean;
 * null: no parameter; a problem: anything else. */
export function parseRowParam(raw: string | null): { key: RowKey } | { problem: string } | null {
  const reading = readWhereParam(raw);
  if (reading === null) return null;
  const json = reading.json;
  if (reading.problem !== null || typeof json !== 'object' || json === null || Array.isArray(json))
    return { problem: ROW_BROKEN };
  const entries = Object.entries(json as Record<string, unknown>);
  const fits = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);
  if (entries.length === 0 || entries.some(([column, value]) => column === '' || !fits(value)))
    return { problem: ROW_BROKEN };
  return { key: Object.fromEntries(entries) as RowKey };
}

/** The address of one row of a table: the table's page with `row=` (a link to a referenced row). */
export function rowAddressUrl(db: string, table: BrowserTableName, key: RowKey): string {
  return browserAddressUrl({ ...freshView(db, table), row: key });
}

/** The address parameter that names a saved view. */
export const VIEW_PARAM = 'view';
/** The address parameter of each part of the state a view keeps. */
const VIEW_FIELD_PARAMS: Record<ViewField, string> = {
  sort: 'sort',
  where: WHERE_PARAM,
  size: 'size',
  columns: COLUMNS_PARAM,
};

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
    viewId: null,
    savedView: null,
    viewPending: null,
    viewNotice: null,
    columns: null,
  };
}

/** A view's Id from the address: a whole number from 1, else none. */
export function parseViewId(raw: string | null): number | null {
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return null;
  const id = Number(raw.trim());
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
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
  const viewId = parseViewId(params.get(VIEW_PARAM));
  const fields = Object.keys(VIEW_FIELD_PARAMS) as ViewField[];
  const row = parseRowParam(params.get(ROW_PARAM));
  return {
    ...(row === null ? {} : 'key' in row ? { row: row.key } : { rowProblem: row.problem }),
    db,
    table,
    filter,
    where: null,
    whereToCheck: reading?.problem === null ? { json: reading.json } : null,
    whereProblem: reading?.problem ?? null,
    sort: parseSort(params.get('sort')),
    page: parsePage(params.get('page')),
    size: parseSize(params.get('size')),
    viewId,
    savedView: null,
    viewPending: viewId === null ? null : fields.filter((field) => params.has(VIEW_FIELD_PARAMS[field])),
    viewNotice: null,
    columns: parseColumnsParam(params.get(COLUMNS_PARAM)),
  };
}

/**
 * Which parts of the state the address writes: without a saved view, those that are not defaults; with one, those
 * that differ from it (while it loads, those the address set itself).
 */
function writesField(view: BrowserAddress, field: ViewField, isDefault: boolean): boolean {
  if (view.viewId === null) return !isDefault;
  if (view.savedView) return !sameStateField(view, stateOfView(view.savedView), field);
  return view.viewPending?.includes(field) ?? false;
}

/** The address of a view: its path and the query string of the values that are not defaults. */
export function browserAddressUrl(view: BrowserAddress): string {
  const path = view.table
    ? `/db/${encodeSegment(view.db)}/${encodeSegment(view.table.schema)}/${encodeSegment(view.table.name)}`
    : `/db/${encodeSegment(view.db)}`;
  const params = new URLSearchParams();
  if (view.table) {
    if (view.viewId !== null) params.set(VIEW_PARAM, String(view.viewId));
    if (view.page > 1) params.set('page', String(view.page));
    if (writesField(view, 'size', view.size === DEFAULT_PAGE_SIZE)) params.set('size', String(view.size));
    if (writesField(view, 'sort', view.sort === null)) params.set('sort', view.sort ?? '');
    for (const [column, term] of Object.entries(view.filter)) {
      const trimmed = term.trim();
      if (trimmed !== '') params.append(`${TERM_PREFIX}${column}`, trimmed);
    }
    if (view.whereToCheck) params.set(WHERE_PARAM, encodeWhere(view.whereToCheck.json));
    else if (writesField(view, 'where', view.where === null))
      params.set(WHERE_PARAM, view.where ? encodeWhere(view.where) : '');
    const columns = view.columns?.length ? view.columns : null;
    if (writesField(view, 'columns', columns === null))
      params.set(COLUMNS_PARAM, columns ? encodeColumnsParam(columns) : '');
    if (view.row) params.set(ROW_PARAM, encodeRowParam(view.row));
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
