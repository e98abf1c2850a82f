import { sql } from 'kysely';
import type { Column, Row, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import type { CsvChunk, RowCount, RowStreamOptions, RowStreamQuery } from './engine.ts';
import { decodeRow, FILTERED_COUNT_CAP, selectList, sortOrder } from './row-pages.ts';
import { ScanStopped } from './engine-error.ts';
import { rowPredicates } from './filter-predicates.ts';
import { filteredRead } from './filter-scan.ts';
import { countUpTo } from './table-catalog.ts';

/*
 * Streaming every row a filter matches, in the asked order (exports). The statement is the one a page runs, built
 * from the same search predicates (search-terms.ts) and the same sort with the key as tie-breaker (row-pages.ts
 * sortOrder), without LIMIT: the adapter reads it with a cursor or the driver's streaming query, and the
 * consumer's pace sets the reading pace (backpressure), so memory stays flat whatever the table size. CSV
 * written by the engine quotes formula-like text inside its own formatting, as csv-stringify's path does
 * (formula-cells.ts).
 */

/** Rows per chunk unless the caller asks otherwise. */
export const DEFAULT_CHUNK_SIZE = 1000;

/** Checks the filter and sort, and counts the rows the way a page does (the catalog figure without a filter when
 * it is an estimate, a count capped at FILTERED_COUNT_CAP with one, under the scan budget for a scanning filter). */
export async function countStreamRows(
  adapter: EngineAdapter,
  table: Table,
  query: RowStreamQuery,
): Promise<RowCount> {
  const read = filteredRead(adapter, table, query);
  sortOrder(table, query.orderBy ?? null);
  if (!read.filtered && table.numberOfRowsIsEstimate) return { count: table.numberOfRows, exact: false };
  const cap = read.filtered ? FILTERED_COUNT_CAP : Number.MAX_SAFE_INTEGER - 1;
  try {
    const count = await countUpTo(adapter, table, cap, read.where, read.run);
    return count > cap ? { count: cap, exact: false } : { count, exact: true };
  } catch (error) {
    // A scanning filter's count stopped at its budget: the export still runs (a stream has no budget as a whole);
    // the table's own figure bounds its rows.
    if (error instanceof ScanStopped) return { count: table.numberOfRows, exact: false };
    throw error;
  }
}

/** Every matching row, decoded to wire values, a chunk at a time. */
export async function* streamTableRows(
  adapter: EngineAdapter,
  table: Table,
  query: RowStreamQuery,
  options: RowStreamOptions = {},
): AsyncGenerator<Row[]> {
  const statement = selectStatement(adapter, table, query, selectList(adapter, table)).compile(adapter.db);
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const chunks = untilAborted(adapter.streamQuery(statement, { ...options, chunkSize }), options.signal);
  for await (const raws of chunks) yield raws.map((raw) => decodeRow(adapter, table, raw));
}

/**
 * The rows as CSV written by the engine itself, or null when the adapter has no CSV writer, a column has no CSV
 * expression, or the engine cannot run this statement that way (PostgreSQL's COPY takes no bound values, and
 * values are never written into SQL).
 */
export function streamTableCsv(
  adapter: EngineAdapter,
  table: Table,
  query: RowStreamQuery,
  options: RowStreamOptions = {},
): AsyncIterable<CsvChunk> | null {
  const copy = adapter.csvCopy;
  if (!copy) return null;
  const fields: { column: Column; expression: SqlFragment }[] = [];
  for (const column of table.columns) {
    const expression = copy.expression(column, sql.id(column.name), table.columns.length === 1);
    if (!expression) return null;
    fields.push({ column, expression });
  }
  const statement = selectStatement(adapter, table, query, copy.record(fields)).compile(adapter.db);
  const chunks = copy.copy(statement, fields, options);
  return chunks && untilAborted(chunks, options.signal);
}

/** The rows as JSON Lines written from the engine's own text, or null when the adapter has no such writer or it
 * cannot write these columns. */
export function streamTableJsonLines(
  adapter: EngineAdapter,
  table: Table,
  query: RowStreamQuery,
  options: RowStreamOptions = {},
): AsyncIterable<CsvChunk> | null {
  const copy = adapter.jsonLinesCopy;
  if (!copy) return null;
  const fields: SqlFragment[] = [];
  for (const column of table.columns) {
    const expression = copy.expression(column, sql.id(column.name));
    if (!expression) return null;
    fields.push(sql`${expression} as ${sql.id(column.name)}`);
  }
  const statement = selectStatement(adapter, table, query, sql.join(fields)).compile(adapter.db);
  const chunks = copy.copy(statement, table.columns, options);
  return chunks && untilAborted(chunks, options.signal);
}

/** Nothing more once the signal is aborted (a chunk the driver had already read is not handed on). */
async function* untilAborted<T>(source: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T> {
  for await (const item of source) {
    signal?.throwIfAborted();
    yield item;
  }
}

/** The page's statement without LIMIT: the same predicates, the same order (qualified, as row-pages.ts does). */
function selectStatement(
  adapter: EngineAdapter,
  table: Table,
  query: RowStreamQuery,
  select: SqlFragment,
): SqlFragment {
  const where = whereOf(rowPredicates(adapter, table, query));
  const { parts } = sortOrder(table, query.orderBy ?? null);
  const qualified = (name: string) => sql.id(table.schema, table.name, name);
  const order = parts.length
    ? sql`order by ${sql.join(parts.map((p) => (p.descending ? sql`${qualified(p.column.name)} desc` : sql`${qualified(p.column.name)} asc`)))}`
    : sql``;
  return sql`select ${select} from ${sql.id(table.schema, table.name)} where ${where} ${order}`;
}

const whereOf = (predicates: SqlFragment[]) =>
  predicates.length ? sql.join(predicates, sql` and `) : sql`1 = 1`;
