/*
 * Where the engines differ in ways the generic engine must know, as flags with defaults (as Kysely's dialect
 * adapters and Directus's helpers do; docs/decisions/0051-engine-capability-flags.md). Each engine folder declares
 * only what differs from the defaults, in its capabilities.ts; the generic code asks the flag, never the engine's
 * kind. What an engine does rather than is (its SQL, its locks, its own CSV writer) stays a member of its adapter.
 */

/** What the generic engine needs to know about an engine's SQL and storage. */
export interface EngineCapabilities {
  /** OFFSET needs an ORDER BY (SQL Server's OFFSET … FETCH): a page without a sort orders by `(select null)`. */
  offsetNeedsOrderBy: boolean;
  /** A count stops after its cap with `select top (n)` (SQL Server) rather than the adapter's LIMIT, which there
   * needs an ORDER BY. */
  capsRowsWithTop: boolean;
  /** NULLs sort as larger than any value (PostgreSQL); elsewhere as smaller. Seeking places them by it. */
  nullsSortLargest: boolean;
  /** How an index gives a page's keys in the sort's order without reading the rows (the deferred join):
   * `index-prefix`: any index whose columns start with the sort columns (PostgreSQL);
   * `clustered-key`: the primary key for the key's own order, or an index led by the sort column, which carries the
   * primary key (MariaDB/MySQL, SQL Server: the rows are stored in the primary key);
   * `none`: the rows are read directly (SQLite skips OFFSET's rows without reading their columns already). */
  keysFromIndex: 'index-prefix' | 'clustered-key' | 'none';
  /** Any column may hold a value of any type (SQLite), so a CSV cell of a non-text column can still be formula-like
   * text (formula-cells.ts). */
  anyValueInAnyColumn: boolean;
}

/** The defaults: what most engines do; an engine declares only where it differs. */
export const defaultCapabilities: Readonly<EngineCapabilities> = Object.freeze({
  offsetNeedsOrderBy: false,
  capsRowsWithTop: false,
  nullsSortLargest: false,
  keysFromIndex: 'none',
  anyValueInAnyColumn: false,
});

/** An engine's capabilities: the defaults, with what it declares over them. */
export const withDefaults = (declared: Partial<EngineCapabilities>): Readonly<EngineCapabilities> =>
  Object.freeze({ ...defaultCapabilities, ...declared });
