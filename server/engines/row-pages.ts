import { sql } from 'kysely';
import type { Column, Filter, PageResult, Row, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import type { PageQuery } from './engine.ts';
import { badInput } from './engine-error.ts';
import { searchPredicates } from './search-terms.ts';
import { countUpTo, rowFigureOf } from './table-catalog.ts';

/*
 * Paged reading. A page is read by seeking from its neighbour's sort key when the server has just served the
 * neighbour (how people page: next, previous), so page 100,000 after page 99,999 costs what page 1 costs; a page
 * asked for by number alone falls back to OFFSET, the driver's own way, except the last page: it is read from the
 * end, in the reversed order, so Last costs what page 1 costs (docs/decisions/0026-row-history-and-last-page.md).
 * Counts are never a full scan of a big table: the engine's estimate without a filter, a capped count with one.
 */

/** A filtered count stops here and is reported as "at least". */
export const FILTERED_COUNT_CAP = 100_000;
const BOUNDARY_TTL_MS = 10 * 60 * 1000;

/** Numbers in a message as people read them: 1,000,000. */
const digits = (n: number) => n.toLocaleString('en-US');
const BOUNDARY_CACHE_SIZE = 2000;

interface SortPart {
  column: Column;
  descending: boolean;
}

/** The first and last row's sort values of a page served, as the driver returned them. */
interface Boundary {
  first: unknown[];
  last: unknown[];
  at: number;
}

/** Reads pages of one engine's tables; remembers page boundaries so neighbouring pages can seek. */
export class RowPages {
  private readonly boundaries = new Map<string, Boundary>();

  constructor(private readonly adapter: EngineAdapter) {}

  async page(table: Table, query: PageQuery): Promise<PageResult> {
    if (!Number.isInteger(query.page) || query.page < 1)
      throw badInput('page must be a whole number from 1.');
    const predicates = searchPredicates(this.adapter, table, query.filter);
    const sort = sortOrder(table, query.orderBy ?? null);
    const where = predicates.length ? sql.join(predicates, sql` and `) : sql`1 = 1`;
    const key = boundaryKey(table, query.filter, query.orderBy ?? null, query.pageSize);
    refuseFarPastEnd(table, query);

    const filtered = predicates.length > 0;
    const counting = this.count(table, filtered, where);
    const refusePastLast = (count: { count: number; exact: boolean }) => {
      if (!count.exact) return;
      const lastPage = Math.max(1, Math.ceil(count.count / query.pageSize));
      if (query.page > lastPage) throw badInput(`Page ${query.page} is past the last page (${lastPage}).`);
    };
    // Past the catalog's exact count (which may be minutes old), count before reading: a page past the end is
    // refused without its statement. Otherwise both at once.
    if (rowFigureOf(table) === 'exact' && (query.page - 1) * query.pageSize >= table.numberOfRows)
      refusePastLast(await counting);
    let count: { count: number; exact: boolean };
    let rows: Record<string, unknown>[];
    if (this.mayBeLastByNumber(table, sort, filtered, query, key)) {
      // The count decides whether this is the last page, so it comes first: free without a filter on an estimated
      // table, capped with a filter, and otherwise a table the catalog counted exactly and this page reaches its end.
      count = await counting;
      refusePastLast(count);
      const end = rowsAtEnd(count, query);
      rows =
        end === null
          ? await this.rows(table, sort, where, query, key)
          : await this.lastRows(table, sort, where, end, query, key);
    } else {
      [count, rows] = await Promise.all([counting, this.rows(table, sort, where, query, key)]);
      refusePastLast(count);
    }
    return {
      results: rows.map((raw) => decodeRow(this.adapter, table, raw)),
      count: count.count,
      countIsExact: count.exact,
    };
  }

  private async count(
    table: Table,
    filtered: boolean,
    where: SqlFragment,
  ): Promise<{ count: number; exact: boolean }> {
    if (!filtered && table.numberOfRowsIsEstimate) return { count: table.numberOfRows, exact: false };
    const cap = filtered ? FILTERED_COUNT_CAP : Number.MAX_SAFE_INTEGER - 1;
    const count = await countUpTo(this.adapter, table, cap, where);
    return count > cap ? { count: cap, exact: false } : { count, exact: true };
  }

  /**
   * Whether a page would be read by OFFSET (no neighbour's boundary to seek from) in a total order and might be the
   * last one: worth knowing the count before reading. Without a filter on a table the catalog counted exactly, only
   * when the page reaches the catalog's count (a page before it is read by OFFSET at once, alongside the count).
   */
  private mayBeLastByNumber(
    table: Table,
    sort: SortOrder,
    filtered: boolean,
    query: PageQuery,
    key: string,
  ): boolean {
    if (query.page === 1 || !sort.total) return false;
    if (
      sort.seekable &&
      (this.boundary(`${key}#${query.page - 1}`) || this.boundary(`${key}#${query.page + 1}`))
    )
      return false;
    return filtered || table.numberOfRowsIsEstimate || query.page * query.pageSize >= table.numberOfRows;
  }

  /** The last page, read from the end in the reversed order (`limit` rows), in the asked order again; its
   * boundary is remembered so Previous seeks from it. */
  private async lastRows(
    table: Table,
    sort: SortOrder,
    where: SqlFragment,
    limit: number,
    query: PageQuery,
    key: string,
  ): Promise<Record<string, unknown>[]> {
    const reversed = sort.parts.map((part) => ({ ...part, descending: !part.descending }));
    const rows = (await this.select(table, reversed, where, limit, 0)).reverse();
    if (sort.seekable && rows.length > 0) this.remember(`${key}#${query.page}`, sort.parts, rows);
    return rows;
  }

  private async rows(
    table: Table,
    sort: SortOrder,
    where: SqlFragment,
    query: PageQuery,
    key: string,
  ): Promise<Record<string, unknown>[]> {
    const before = sort.seekable ? this.boundary(`${key}#${query.page - 1}`) : undefined;
    const after = sort.seekable && !before ? this.boundary(`${key}#${query.page + 1}`) : undefined;
    let rows: Record<string, unknown>[];
    if (before) {
      rows = await this.select(
        table,
        sort.parts,
        sql`${where} and ${seekPredicate(sort.parts, before.last, 'after')}`,
        query.pageSize,
        0,
      );
    } else if (after) {
      const reversed = sort.parts.map((part) => ({ ...part, descending: !part.descending }));
      rows = (
        await this.select(
          table,
          reversed,
          sql`${where} and ${seekPredicate(sort.parts, after.first, 'before')}`,
          query.pageSize,
          0,
        )
      ).reverse();
    } else {
      rows = await this.select(table, sort.parts, where, query.pageSize, (query.page - 1) * query.pageSize);
    }
    if (sort.seekable && rows.length > 0) this.remember(`${key}#${query.page}`, sort.parts, rows);
    return rows;
  }

  private async select(table: Table, parts: SortPart[], where: SqlFragment, limit: number, offset: number) {
    // Sort columns are qualified: where the select list rewrites a column (selectExpression), its alias would win.
    const qualified = (p: SortPart) => sql.id(table.schema, table.name, p.column.name);
    const order = parts.length
      ? sql`order by ${sql.join(parts.map((p) => (p.descending ? sql`${qualified(p)} desc` : sql`${qualified(p)} asc`)))}`
      : this.adapter.kind === 'mssql'
        ? sql`order by (select null)`
        : sql``;
    const statement = sql<
      Record<string, unknown>
    >`select ${selectList(this.adapter, table)} from ${sql.id(table.schema, table.name)} where ${where} ${order} ${this.adapter.limitOffset(limit, offset)}`;
    return (await statement.execute(this.adapter.db)).rows;
  }

  private boundary(key: string): Boundary | undefined {
    const found = this.boundaries.get(key);
    if (found && Date.now() - found.at > BOUNDARY_TTL_MS) {
      this.boundaries.delete(key);
      return undefined;
    }
    return found;
  }

  private remember(key: string, parts: SortPart[], rows: Record<string, unknown>[]): void {
    // Seek values are bound as the column's own values (a driver may hand back a coarser type than the column).
    const values = (row: Record<string, unknown> | undefined) =>
      parts.map((p) => {
        const wire = this.adapter.decodeValue(p.column, row?.[p.column.name]);
        return wire === null
          ? null
          : this.adapter.encodeValue(
              p.column,
              typeof wire === 'string' && ['Binary', 'image'].includes(p.column.typeGroup)
                ? Buffer.from(wire, 'base64')
                : wire,
            );
      });
    this.boundaries.delete(key);
    this.boundaries.set(key, { first: values(rows[0]), last: values(rows[rows.length - 1]), at: Date.now() });
    if (this.boundaries.size > BOUNDARY_CACHE_SIZE) {
      const oldest = this.boundaries.keys().next().value;
      if (oldest !== undefined) this.boundaries.delete(oldest);
    }
  }

  /** Forgets the page boundaries of a table whose rows changed. */
  forget(table: Table): void {
    const prefix = JSON.stringify([table.schema, table.name]).slice(0, -1);
    for (const key of this.boundaries.keys()) if (key.startsWith(prefix)) this.boundaries.delete(key);
  }
}

/**
 * Refuses, before any statement, a page whose first row lies beyond what the table can hold (issue 10 finding 8):
 * past twice the engine's estimate plus a page, when the figure is an estimate. A page past the estimate but within
 * that reach is read: estimates lag behind a table that grew (PostgreSQL until its next analyse). A capped count
 * gives no upper bound, and an exact one is checked against a fresh count (`page`). A filter only narrows the table.
 */
function refuseFarPastEnd(table: Table, query: PageQuery): void {
  const firstRow = (query.page - 1) * query.pageSize;
  const rows = table.numberOfRows;
  if (rowFigureOf(table) === 'estimate' && firstRow >= 2 * rows + query.pageSize) {
    const pages = Math.max(1, Math.ceil(rows / query.pageSize));
    throw badInput(
      `Page ${digits(query.page)} is past the end: ${table.name} has about ${digits(rows)} rows (${digits(pages)} pages).`,
    );
  }
  // No table holds this many rows; no engine takes such an offset.
  if (!Number.isSafeInteger(firstRow))
    throw badInput(`Page ${digits(query.page)} is past the end of ${table.name}.`);
}

/** Every column of a table, each as the adapter wants it selected. */
export function selectList(adapter: EngineAdapter, table: Table): SqlFragment {
  return sql.join(
    table.columns.map((c) =>
      adapter.selectExpression
        ? sql`${adapter.selectExpression(c, sql.id(c.name))} as ${sql.id(c.name)}`
        : sql.id(c.name),
    ),
  );
}

/** A row from the driver as it goes on the wire. */
export function decodeRow(adapter: EngineAdapter, table: Table, raw: Record<string, unknown>): Row {
  const row: Row = {};
  for (const column of table.columns) row[column.name] = adapter.decodeValue(column, raw[column.name]);
  return row;
}

/**
 * How many rows the last page holds when `query` asks for it, or null when it asks for another page. The last page
 * is the one whose range holds the count's end; with an exact count it holds what is left after the pages before
 * it, with an estimate or a capped count it is the final page-size rows (the end as it is, whatever the figure).
 */
function rowsAtEnd(count: { count: number; exact: boolean }, query: PageQuery): number | null {
  const firstRow = (query.page - 1) * query.pageSize;
  if (!(firstRow < count.count && count.count <= query.page * query.pageSize)) return null;
  return count.exact ? count.count - firstRow : query.pageSize;
}

const boundaryKey = (table: Table, filter: Filter, orderBy: string | null, pageSize: number) =>
  JSON.stringify([table.schema, table.name, Object.entries(filter).sort(), orderBy, pageSize]);

/** A page's order: its columns, whether it is total (the key breaks ties, so reversing it reverses the rows
 * exactly), and whether pages can seek in it. */
export interface SortOrder {
  parts: SortPart[];
  total: boolean;
  seekable: boolean;
}

/**
 * The asked sort column, then the row key as a tie-breaker so the order is total. Seeking needs a key and no
 * NULLs in the sort columns (NULLs sort differently on each engine), else paging uses OFFSET. Reading the last page
 * backwards needs only the total order: every engine sorts NULLs at opposite ends ascending and descending.
 */
export function sortOrder(table: Table, orderBy: string | null): SortOrder {
  const descending = orderBy?.startsWith('-') ?? false;
  const name = orderBy ? orderBy.replace(/^-/, '') : null;
  const parts: SortPart[] = [];
  if (name) {
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(`orderBy: ${name} is not a column of ${table.name}.`);
    if (['Binary', 'image'].includes(column.typeGroup))
      throw badInput(`orderBy: ${name} holds binary data and cannot be sorted.`);
    parts.push({ column, descending });
  }
  const keyNames = table.primaryKey.length
    ? table.primaryKey
    : table.identityColumn
      ? [table.identityColumn]
      : [];
  for (const keyName of keyNames) {
    const column = table.columns.find((c) => c.name === keyName);
    if (column && !parts.some((p) => p.column.name === keyName)) parts.push({ column, descending });
  }
  const total = keyNames.length > 0;
  const seekable = total && parts.every((p) => !p.column.isNullable);
  return { parts, total, seekable };
}

/** Rows strictly after (or before) the given sort values in the sort order, with a leading range bound on the
 * first column so the engine can start from the index. */
function seekPredicate(parts: SortPart[], values: unknown[], side: 'after' | 'before'): SqlFragment {
  const op = (part: SortPart) => ((side === 'after') !== part.descending ? sql.raw('>') : sql.raw('<'));
  const bound = (part: SortPart, i: number) => sql`${sql.id(part.column.name)} ${op(part)} ${values[i]}`;
  const same = (part: SortPart, i: number) => sql`${sql.id(part.column.name)} = ${values[i]}`;
  const alternatives = parts.map((part, i) =>
    sql.join([...parts.slice(0, i).map(same), bound(part, i)], sql` and `),
  );
  const first = parts[0];
  if (!first) return sql`1 = 1`;
  const lead = (side === 'after') !== first.descending ? sql.raw('>=') : sql.raw('<=');
  return sql`(${sql.id(first.column.name)} ${lead} ${values[0]} and (${sql.join(alternatives, sql` or `)}))`;
}
