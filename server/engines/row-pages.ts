import { sql, type CompiledQuery } from 'kysely';
import type { CellValue, Column, Row, Table } from '#common/contract/sql.ts';
import { isSortable } from '#common/sorting.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import type { EnginePage, PageBoundary, PageQuery } from './engine.ts';
import { compiledOnce } from './compiled-shapes.ts';
import { engineCapabilities } from './engine-capabilities.ts';
import { badInput } from './engine-error.ts';
import { ScanStopped } from './engine-error.ts';
import { filteredRead, scanned, UNFILTERED, type FilteredRead } from './filter-scan.ts';
import { countUpTo, rowFigureOf, type RunSelect } from './table-catalog.ts';

/*
 * Paged reading, without memory between calls (docs/decisions/0036-stateless-paging.md). A page answers its
 * boundary (the first and last rows' sort values); the caller hands it back (as a signed cursor, features/sql) when
 * it asks for the next or previous page, which is then read by seeking from it, so page 100,000 after page 99,999
 * costs what page 1 costs, on any instance, after any restart. A page asked for by number alone is read by OFFSET
 * over the keys alone through an index and joined back to its rows (a deferred join), and past the middle of the
 * table from the end in the reversed order, so Last costs what First costs (0026). Counts are never a full scan of a
 * big table: the engine's estimate without a filter, a capped count with one.
 */

/** A filtered count stops here and is reported as "at least". */
export const FILTERED_COUNT_CAP = 100_000;
/** Below this offset a page by number reads its rows at once; from it, keys first (the deferred join). */
const DEFERRED_JOIN_FROM_OFFSET = 1000;

/** Numbers in a message as people read them: 1,000,000. */
const digits = (n: number) => n.toLocaleString('en-US');

interface SortPart {
  column: Column;
  descending: boolean;
}

type Count = { count: number; exact: boolean };
type ReadBy = EnginePage['readBy'];

/** Reads pages of one engine's tables. Holds nothing between calls. */
export class RowPages {
  constructor(private readonly adapter: EngineAdapter) {}

  async page(table: Table, query: PageQuery): Promise<EnginePage> {
    if (!Number.isInteger(query.page) || query.page < 1)
      throw badInput('page must be a whole number from 1.');
    const read = filteredRead(this.adapter, table, query);
    const { where, filtered, run } = read;
    const sort = sortOrder(table, query.orderBy ?? null);
    refuseFarPastEnd(table, query);

    // A scanning filter's count that the budget stops is not a failure: the page still answers, its count then
    // the rows known so far ("at least").
    const counting: Promise<Count | null> = this.count(table, filtered, where, run).catch(
      (error: unknown) => {
        if (error instanceof ScanStopped) return null;
        throw error;
      },
    );
    const refusePastLast = (count: Count | null) => {
      if (!count?.exact) return;
      const lastPage = Math.max(1, Math.ceil(count.count / query.pageSize));
      if (query.page > lastPage) throw badInput(`Page ${query.page} is past the last page (${lastPage}).`);
    };
    // Past the catalog's exact count (which may be minutes old), count before reading: a page past the end is
    // refused without its statement. Otherwise both at once.
    if (rowFigureOf(table) === 'exact' && (query.page - 1) * query.pageSize >= table.numberOfRows)
      refusePastLast(await counting);

    let counted: Count | null;
    let rows: Record<string, unknown>[];
    const readBy: ReadBy = { seek: false, fromEnd: false, deferredJoin: false };
    const seek = this.seekFrom(sort, query);
    const reading = (work: () => Promise<Record<string, unknown>[]>) =>
      scanned(this.adapter, table, read, work);
    if (seek) {
      readBy.seek = true;
      [counted, rows] = await Promise.all([
        counting,
        reading(() => this.seek(table, sort.parts, read, seek, query.pageSize)),
      ]);
      refusePastLast(counted);
    } else if (!read.scanning && this.waitsForCount(table, sort, filtered, query)) {
      // Whether the page is read from the end depends on the count: free without a filter on an estimated table,
      // capped with a filter, else a table the catalog counted exactly whose second half this page is in. (Not for
      // a scanning filter: its count and its rows would take two budgets one after the other.)
      counted = await counting;
      refusePastLast(counted);
      const known = counted;
      rows = await reading(() => this.byNumber(table, sort, read, query, known, readBy));
    } else {
      [counted, rows] = await Promise.all([
        counting,
        reading(() => this.byNumber(table, sort, read, query, null, readBy)),
      ]);
      refusePastLast(counted);
    }
    const count = counted ?? { count: (query.page - 1) * query.pageSize + rows.length, exact: false };
    return {
      results: rows.map((raw) => decodeRow(this.adapter, table, raw)),
      count: count.count,
      countIsExact: count.exact,
      boundary: sort.seekable && rows.length > 0 ? this.boundaryOf(sort.parts, rows) : null,
      readBy,
    };
  }

  private async count(table: Table, filtered: boolean, where: SqlFragment, run: RunSelect): Promise<Count> {
    if (!filtered && table.numberOfRowsIsEstimate) return { count: table.numberOfRows, exact: false };
    const cap = filtered ? FILTERED_COUNT_CAP : Number.MAX_SAFE_INTEGER - 1;
    const count = await countUpTo(this.adapter, table, cap, where, run);
    return count > cap ? { count: cap, exact: false } : { count, exact: true };
  }

  /** Whether a page by number may be read from the end (a total order, past page 1, and with a filter, an
   * estimated count, or in the second half of the catalog's exact count): worth knowing the count first. */
  private waitsForCount(table: Table, sort: SortOrder, filtered: boolean, query: PageQuery): boolean {
    if (query.page === 1 || !sort.total) return false;
    return filtered || table.numberOfRowsIsEstimate || 2 * query.page * query.pageSize > table.numberOfRows;
  }

  /** The neighbour's boundary to seek from, as the driver binds it, or null (no cursor, or not a neighbour's). */
  private seekFrom(
    sort: SortOrder,
    query: PageQuery,
  ): { side: 'after' | 'before'; values: unknown[] } | null {
    const from = query.from;
    if (!from || !sort.seekable) return null;
    const side = from.page === query.page - 1 ? 'after' : from.page === query.page + 1 ? 'before' : null;
    const wire = side === 'after' ? from.boundary.last : from.boundary.first;
    if (!side || wire.length !== sort.parts.length) return null;
    try {
      return { side, values: sort.parts.map((part, i) => this.bindable(part.column, wire[i] ?? null)) };
    } catch {
      // A value this column cannot take (the table changed under the cursor): the page is read by number.
      return null;
    }
  }

  /** A wire value as the driver binds it for this column (binary arrives as base64). */
  private bindable(column: Column, wire: CellValue): unknown {
    if (wire === null) return null;
    return this.adapter.encodeValue(
      column,
      typeof wire === 'string' && ['Binary', 'image'].includes(column.typeGroup)
        ? Buffer.from(wire, 'base64')
        : wire,
    );
  }

  /** The rows strictly after (or before) the neighbour's boundary, in the asked order. */
  private async seek(
    table: Table,
    parts: SortPart[],
    read: FilteredRead,
    from: { side: 'after' | 'before'; values: unknown[] },
    limit: number,
  ): Promise<Record<string, unknown>[]> {
    const { where } = read;
    const order = from.side === 'after' ? parts : reversed(parts);
    const seeking = (values: readonly unknown[]) => seekPredicate(this.adapter, parts, values, from.side);
    const rows =
      where === UNFILTERED
        ? await this.run(
            compiledOnce(
              this.adapter,
              table,
              `seek ${from.side} ${shapeOf(order)} ${limit}`,
              from.values,
              (places) => this.statement(table, order, seeking(places), limit, 0),
            ),
          )
        : await read.run(this.statement(table, order, sql`${where} and ${seeking(from.values)}`, limit, 0));
    return from.side === 'after' ? rows : rows.reverse();
  }

  /** Page N by number: from the start by OFFSET, or, in a total order past the middle of a known end, from the end
   * in the reversed order (the count decides; see fromEnd). */
  private async byNumber(
    table: Table,
    sort: SortOrder,
    read: FilteredRead,
    query: PageQuery,
    count: Count | null,
    readBy: ReadBy,
  ): Promise<Record<string, unknown>[]> {
    const end = count && sort.total ? fromEnd(count, query, read.filtered) : null;
    readBy.fromEnd = end !== null;
    if (end)
      return (await this.read(table, reversed(sort.parts), read, end.limit, end.offset, readBy)).reverse();
    return this.read(table, sort.parts, read, query.pageSize, (query.page - 1) * query.pageSize, readBy);
  }

  /** `limit` rows after `offset` in this order: deep into an unfiltered table through an index over the sort and
   * the key alone, then joined back to the rows; else directly. */
  private async read(
    table: Table,
    parts: SortPart[],
    read: FilteredRead,
    limit: number,
    offset: number,
    readBy: ReadBy,
  ): Promise<Record<string, unknown>[]> {
    readBy.deferredJoin =
      offset >= DEFERRED_JOIN_FROM_OFFSET && !read.filtered && keysCovered(this.adapter, table, parts);
    if (readBy.deferredJoin) return this.deferredJoin(table, parts, limit, offset);
    return this.select(table, parts, read, limit, offset);
  }

  /** `limit` rows after `offset` in this order; a page of the whole table from its start or end from a statement
   * compiled once per table, order and page size (compiled-shapes.ts). */
  private async select(table: Table, parts: SortPart[], read: FilteredRead, limit: number, offset: number) {
    const { where } = read;
    if (where === UNFILTERED && offset === 0)
      return this.run(
        compiledOnce(this.adapter, table, `page ${shapeOf(parts)} ${limit}`, [], () =>
          this.statement(table, parts, where, limit, 0),
        ),
      );
    return read.run(this.statement(table, parts, where, limit, offset));
  }

  private statement(table: Table, parts: SortPart[], where: SqlFragment, limit: number, offset: number) {
    // Sort columns are qualified: where the select list rewrites a column (selectExpression), its alias would win.
    const order = this.orderBy(parts, (p) => sql.id(table.schema, table.name, p.column.name));
    return sql<
      Record<string, unknown>
    >`select ${selectList(this.adapter, table)} from ${sql.id(table.schema, table.name)} where ${where} ${order} ${this.adapter.limitOffset(limit, offset)}`;
  }

  private async run(statement: CompiledQuery<Record<string, unknown>>) {
    return (await this.adapter.db.executeQuery(statement)).rows;
  }

  /**
   * The deferred join: the page's keys are read with OFFSET from the index alone (the sort column(s) and the key:
   * a secondary index carries the key on MariaDB/MySQL and SQL Server; PostgreSQL needs an index over both), so
   * skipping rows touches neither the table's rows nor their columns, then the page's rows are read by key.
   */
  private async deferredJoin(table: Table, parts: SortPart[], limit: number, offset: number) {
    const keys = keyNames(table);
    const row = (name: string) => sql.id('dbui_row', name);
    const key = (name: string) => sql.id('dbui_key', name);
    const keyList = sql.join(keys.map((name) => sql.id(name)));
    const keyOrder = this.orderBy(parts, (p) => sql.id(p.column.name));
    const columns = sql.join(
      table.columns.map((c) =>
        this.adapter.selectExpression
          ? sql`${this.adapter.selectExpression(c, row(c.name))} as ${sql.id(c.name)}`
          : sql`${row(c.name)} as ${sql.id(c.name)}`,
      ),
    );
    const joined = sql.join(
      keys.map((name) => sql`${row(name)} = ${key(name)}`),
      sql` and `,
    );
    const statement = sql<Record<string, unknown>>`select ${columns}
      from ${sql.id(table.schema, table.name)} as ${sql.id('dbui_row')}
      inner join (select ${keyList} from ${sql.id(table.schema, table.name)} ${keyOrder} ${this.adapter.limitOffset(limit, offset)}) as ${sql.id('dbui_key')}
      on ${joined} ${this.orderBy(parts, (p) => row(p.column.name))}`;
    return (await statement.execute(this.adapter.db)).rows;
  }

  private orderBy(parts: SortPart[], ref: (part: SortPart) => SqlFragment): SqlFragment {
    if (!parts.length)
      return engineCapabilities(this.adapter.kind).offsetNeedsOrderBy ? sql`order by (select null)` : sql``;
    return sql`order by ${sql.join(parts.map((p) => (p.descending ? sql`${ref(p)} desc` : sql`${ref(p)} asc`)))}`;
  }

  /** The first and last rows' sort values, as wire values (what a cursor carries). */
  private boundaryOf(parts: SortPart[], rows: Record<string, unknown>[]): PageBoundary {
    const values = (row: Record<string, unknown> | undefined) =>
      parts.map((p) => this.adapter.decodeValue(p.column, row?.[p.column.name]));
    return { first: values(rows[0]), last: values(rows[rows.length - 1]) };
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

/**
 * Where page N by number is read from the end (rows skipped from the end, rows read), or null to read it from the
 * start. With an exact count: the last page (what is left after the pages before it), and any page whose rows after
 * it are fewer than its rows before it — the same rows OFFSET gives. With an estimate (no filter): the page's place
 * counted back from the table's real end, the last page being its final `size` rows, so the pages of the second half
 * meet the last page exactly (an estimate off by d rows moves them by d rows against OFFSET's; 0036). With a capped
 * count (a filter matching more than the cap) only the page holding the cap's end is read from the end, as the
 * final `size` rows (0026); the end's place is unknown otherwise.
 */
function fromEnd(
  count: Count,
  query: PageQuery,
  filtered: boolean,
): { offset: number; limit: number } | null {
  const size = query.pageSize;
  const before = (query.page - 1) * size;
  if (count.exact) {
    if (before >= count.count) return null;
    const after = count.count - query.page * size;
    if (after <= 0) return { offset: 0, limit: count.count - before };
    return after < before ? { offset: after, limit: size } : null;
  }
  const lastPage = Math.max(1, Math.ceil(count.count / size));
  if (query.page === lastPage) return { offset: 0, limit: size };
  if (filtered || query.page > lastPage) return null;
  const after = (lastPage - query.page) * size;
  return after < before ? { offset: after, limit: size } : null;
}

/** Each catalog table's select list, built once per engine (a fragment is immutable; its nodes are reused). */
const selectLists = new WeakMap<EngineAdapter, WeakMap<Table, SqlFragment>>();

/**
 * Every column of a table, each as the adapter wants it selected: built at a table's first read, then reused, since
 * building a node for each column was about 4 % of what a page request allocated (decision 0034).
 */
export function selectList(adapter: EngineAdapter, table: Table): SqlFragment {
  let lists = selectLists.get(adapter);
  if (!lists) selectLists.set(adapter, (lists = new WeakMap()));
  let list = lists.get(table);
  if (!list) {
    list = sql.join(
      table.columns.map((c) =>
        adapter.selectExpression
          ? sql`${adapter.selectExpression(c, sql.id(c.name))} as ${sql.id(c.name)}`
          : sql.id(c.name),
      ),
    );
    lists.set(table, list);
  }
  return list;
}

/** A row from the driver as it goes on the wire. */
export function decodeRow(adapter: EngineAdapter, table: Table, raw: Record<string, unknown>): Row {
  const row: Row = {};
  for (const column of table.columns) row[column.name] = adapter.decodeValue(column, raw[column.name]);
  return row;
}

/** A page's order: its columns, whether it is total (the key breaks ties, so reversing it reverses the rows
 * exactly), and whether pages can seek in it. */
export interface SortOrder {
  parts: SortPart[];
  total: boolean;
  seekable: boolean;
}

/** The row key's columns: the primary key, else the identity column, else none. */
function keyNames(table: Table): string[] {
  return table.primaryKey.length ? table.primaryKey : table.identityColumn ? [table.identityColumn] : [];
}

/** The column a sort string names ('Name' or '-Name' → Name). */
export const sortColumnOf = (orderBy: string): string => orderBy.replace(/^-/, '');

/**
 * The asked sort column, then the row key as a tie-breaker so the order is total. Seeking needs the key (a total
 * order); NULLs in a sort column are sought past where the engine sorts them (seekPredicate). Reading backwards
 * needs only the total order: every engine sorts NULLs at opposite ends ascending and descending.
 */
export function sortOrder(table: Table, orderBy: string | null): SortOrder {
  const descending = orderBy?.startsWith('-') ?? false;
  const name = orderBy ? sortColumnOf(orderBy) : null;
  const parts: SortPart[] = [];
  if (name) {
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(`orderBy: ${name} is not a column of ${table.name}.`);
    if (!isSortable(column)) throw badInput(`orderBy: ${name} holds binary data and cannot be sorted.`);
    parts.push({ column, descending });
  }
  const keys = keyNames(table);
  for (const keyName of keys) {
    const column = table.columns.find((c) => c.name === keyName);
    if (column && !parts.some((p) => p.column.name === keyName)) parts.push({ column, descending });
  }
  const total = keys.length > 0;
  return { parts, total, seekable: total };
}

const reversed = (parts: SortPart[]) => parts.map((part) => ({ ...part, descending: !part.descending }));

/** An order as a statement's shape names it (compiled-shapes.ts). */
const shapeOf = (parts: SortPart[]) => JSON.stringify(parts.map((p) => [p.column.name, p.descending]));

/**
 * Whether an index gives the page's keys in this order without reading the rows, as the engine's keysFromIndex
 * says (capabilities.ts): on PostgreSQL an index whose
 * columns start with the sort columns and the key; on MariaDB/MySQL and SQL Server the primary key for the key's own
 * order (the rows are stored in it) or an index led by the sort column (a secondary index carries the primary key).
 * SQLite skips OFFSET's rows without reading their columns already: it reads directly.
 */
function keysCovered(adapter: EngineAdapter, table: Table, parts: SortPart[]): boolean {
  const keys = keyNames(table);
  const names = parts.map((p) => p.column.name);
  if (!keys.length || !names.length) return false;
  const startsWith = (columns: string[], start: string[]) => start.every((name, i) => columns[i] === name);
  const { keysFromIndex } = engineCapabilities(adapter.kind);
  if (keysFromIndex === 'index-prefix')
    return table.indexes.some((index) => startsWith(index.columns, names));
  if (keysFromIndex !== 'clustered-key') return false;
  if (table.primaryKey.length && startsWith(names, table.primaryKey)) return true;
  return table.primaryKey.length > 0 && table.indexes.some((index) => index.columns[0] === names[0]);
}

/** PostgreSQL sorts NULLs as larger than any value; MariaDB/MySQL, SQLite and SQL Server as smaller (the
 * nullsSortLargest capability). */
const nullsLargest = (adapter: EngineAdapter) => engineCapabilities(adapter.kind).nullsSortLargest;

/**
 * Rows strictly after (or before) the given sort values in the sort order: the first column beyond its value, or
 * equal and the next beyond, and so on down to the key. NULLs are placed where the engine sorts them. A leading
 * range bound on a first column without NULLs lets the engine start from its index.
 */
function seekPredicate(
  adapter: EngineAdapter,
  parts: SortPart[],
  values: readonly unknown[],
  side: 'after' | 'before',
): SqlFragment {
  const largest = nullsLargest(adapter);
  const ref = (part: SortPart) => sql.id(part.column.name);
  /** Toward larger values in the column's ascending order? */
  const upward = (part: SortPart) => (side === 'after') !== part.descending;
  const beyond = (part: SortPart, value: unknown): SqlFragment | null => {
    const column = ref(part);
    if (upward(part)) {
      if (value === null) return largest ? null : sql`${column} is not null`;
      return part.column.isNullable && largest
        ? sql`(${column} > ${value} or ${column} is null)`
        : sql`${column} > ${value}`;
    }
    if (value === null) return largest ? sql`${column} is not null` : null;
    return part.column.isNullable && !largest
      ? sql`(${column} < ${value} or ${column} is null)`
      : sql`${column} < ${value}`;
  };
  const same = (part: SortPart, value: unknown) =>
    value === null ? sql`${ref(part)} is null` : sql`${ref(part)} = ${value}`;
  const alternatives: SqlFragment[] = [];
  parts.forEach((part, i) => {
    const past = beyond(part, values[i] ?? null);
    if (past)
      alternatives.push(
        sql.join([...parts.slice(0, i).map((p, j) => same(p, values[j] ?? null)), past], sql` and `),
      );
  });
  if (!alternatives.length) return sql`1 = 0`;
  const first = parts[0];
  const lead = values[0];
  if (!first || first.column.isNullable || lead === null || lead === undefined)
    return sql`(${sql.join(alternatives, sql` or `)})`;
  const op = upward(first) ? sql.raw('>=') : sql.raw('<=');
  return sql`(${ref(first)} ${op} ${lead} and (${sql.join(alternatives, sql` or `)}))`;
}
