import { sql } from 'kysely';
import type { FilterPlan, Filter as FilterDocument } from '#common/contract/filter.ts';
import type { Filter, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import { EngineError, ScanStopped } from './engine-error.ts';
import { filterAccess, scanAdvice, scanningConditions, type FilterAccess } from './filter-plan.ts';
import { rowPredicates } from './filter-predicates.ts';
import { sortOrder } from './row-pages.ts';
import type { RunSelect } from './table-catalog.ts';

/*
 * The statements of a filtered read (a page, its count, an export's count) and the scan budget
 * (docs/decisions/0061-filters.md): when the filter scans (filter-plan.ts), its selects run through the adapter's
 * scanQuery, which has the database stop each of them once it has run the budget (SCAN_TIMEOUT_MS, or the
 * database's own) and cancel it on its side; otherwise on the pool as every other read, under the statement timeout.
 * A scan is a plain read: it takes no lock a writer waits for (the decision says why, per engine).
 */

/** A filtered read's predicate and how its selects run. */
export interface FilteredRead {
  /** The WHERE: the search terms and the filter together, `1 = 1` for none (as the engine's scan needs it). */
  where: SqlFragment;
  /** Whether anything narrows the rows (a term or a condition). */
  filtered: boolean;
  /** How the filter is read; null without a filter document. */
  access: FilterAccess | null;
  /** The filter scans: its selects run under the scan budget. */
  scanning: boolean;
  run: RunSelect;
}

/** A page's where clause without a filter, recognised by identity (a fragment is immutable). */
export const UNFILTERED = sql`1 = 1`;

/** The read of a page or count: the predicates checked (a 400 naming what to fix), the filter's access, the runner. */
export function filteredRead(
  adapter: EngineAdapter,
  table: Table,
  query: { filter: Filter; where?: FilterDocument | undefined },
): FilteredRead {
  const predicates = rowPredicates(adapter, table, query);
  const access = query.where ? filterAccess(table, query.where) : null;
  const scanning = access?.scans ?? false;
  const joined = predicates.length ? sql.join(predicates, sql` and `) : UNFILTERED;
  const where = scanning && adapter.scanWhere ? adapter.scanWhere(joined) : joined;
  const run: RunSelect = scanning
    ? (statement) => adapter.scanQuery(statement.compile(adapter.db), adapter.scanBudgetMs)
    : async (statement) => (await statement.execute(adapter.db)).rows as Record<string, unknown>[];
  return { where, filtered: predicates.length > 0, access, scanning, run };
}

/** Numbers as people read them: 1,000,000. */
const digits = (n: number) => n.toLocaleString('en-US');

/** A budget as people read it: 5 s, 1.5 s, 300 ms. */
export function budgetWords(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/**
 * The 504 of a scan stopped at its budget: which conditions scan and why, the rows examined when the engine says,
 * and what would make it fast.
 */
export function scanStoppedError(
  adapter: EngineAdapter,
  table: Table,
  access: FilterAccess,
  stopped: ScanStopped,
): EngineError {
  const examined =
    stopped.rowsExamined === null ? '' : ` after examining ${digits(stopped.rowsExamined)} rows`;
  return new EngineError(
    504,
    `The filter examines every row of ${table.name}, and its scan was stopped at ${budgetWords(adapter.scanBudgetMs)}` +
      `${examined}. ${scanningConditions(access)} ${scanAdvice(table, access) ?? ''}`.trimEnd(),
    { cause: stopped },
  );
}

/** Runs a scan's select; a stop at the budget becomes the 504 that says what scans and what would make it fast. */
export async function scanned<T>(
  adapter: EngineAdapter,
  table: Table,
  read: FilteredRead,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ScanStopped && read.access)
      throw scanStoppedError(adapter, table, read.access, error);
    throw error;
  }
}

/**
 * How the engine would read the rows a filter keeps: each condition through an index or by a scan (filter-plan.ts),
 * whether the whole filter scans, the engine's estimate of the rows kept (its plan, not a run: PostgreSQL and MySQL;
 * null where the engine gives none or fails to), the scan budget and what would make a scan fast. Checks the filter
 * and the sort as a page does (a 400 naming what to fix).
 */
export async function planFilter(
  adapter: EngineAdapter,
  table: Table,
  query: { where: FilterDocument; orderBy?: string | null | undefined },
): Promise<FilterPlan> {
  const predicates = rowPredicates(adapter, table, { filter: {}, where: query.where });
  sortOrder(table, query.orderBy ?? null);
  const access = filterAccess(table, query.where);
  const where = predicates.length ? sql.join(predicates, sql` and `) : UNFILTERED;
  let estimatedRows: number | null = null;
  if (adapter.estimateRows) {
    const statement = sql`select 1 as one from ${sql.id(table.schema, table.name)} where ${where}`;
    estimatedRows = await adapter.estimateRows(statement.compile(adapter.db)).catch(() => null);
  }
  return {
    conditions: access.conditions,
    scans: access.scans,
    estimatedRows,
    scanBudgetMs: adapter.scanBudgetMs,
    advice: scanAdvice(table, access),
  };
}
