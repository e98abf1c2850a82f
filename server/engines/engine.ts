import type { ImportRevertOptions, ImportRevertRow, ImportWriter } from './import-writes.ts';
import type { Kysely } from 'kysely';
import type { Filter as FilterDocument, FilterPlan } from '#common/contract/filter.ts';
import type { CellValue, Filter, ForeignKey, PageResult, Row, Table } from '#common/contract/sql.ts';
import type { ForeignKeyLabels } from '#common/contract/labels.ts';
import type {
  BulkBatchOptions,
  BulkBatchQuery,
  BulkRowChange,
  BulkSelection,
  RevertChange,
  RevertOptions,
  RevertRow,
} from './bulk-writes.ts';

/*
 * The one interface through which everything else reaches the databases people browse. Issue 3 grows it
 * (catalog, page, upsert, delete, stream, capability flags); the foundation needs connections and health.
 */

/** The engines a browsable database can live on. */
export type EngineKind = 'sqlite' | 'postgres' | 'mysql' | 'mssql';

/** Tables of a browsed database are only known at run time, from its catalog. */
export type DynamicSchema = Record<string, Record<string, unknown>>;

/** Connection settings every adapter honours. */
export interface EngineOptions {
  /** Longest a statement may run before the engine cancels it (ms). */
  statementTimeoutMs: number;
  /** Most connections the pool opens. */
  poolSize: number;
  /** How long a filter that no index serves may run (SCAN_TIMEOUT_MS or the database's own, decision 0061); never
   * above statementTimeoutMs (scanBudgetOf). */
  scanTimeoutMs?: number;
}

/** SCAN_TIMEOUT_MS's default. */
export const DEFAULT_SCAN_TIMEOUT_MS = 5000;

/** The defaults of STATEMENT_TIMEOUT_MS, POOL_SIZE and SCAN_TIMEOUT_MS (main.ts passes the configured values). */
export const defaultEngineOptions: EngineOptions = {
  statementTimeoutMs: 15_000,
  poolSize: 10,
  scanTimeoutMs: DEFAULT_SCAN_TIMEOUT_MS,
};

/** A scanning filter's budget: the scan timeout, at most the statement timeout. */
export const scanBudgetOf = (options: Partial<EngineOptions>): number =>
  Math.min(options.scanTimeoutMs ?? DEFAULT_SCAN_TIMEOUT_MS, options.statementTimeoutMs ?? Infinity);

/** What a page request asks for (spec: page number, page size, a filter of column → term, a sort `name`/`-name`).
 * `from`: the boundary of a page the caller was shown (its cursor, decoded), so its neighbour is read by seeking. */
export interface PageQuery {
  filter: Filter;
  /** A filter document (issue 35), with the search terms when both are given. */
  where?: FilterDocument | undefined;
  orderBy?: string | null;
  page: number;
  pageSize: number;
  from?: { page: number; boundary: PageBoundary } | undefined;
}

/** A page's first and last rows' sort values (every sort column, then the key), as wire values. */
export interface PageBoundary {
  first: CellValue[];
  last: CellValue[];
}

/** A page as the engine reads it: the rows and count, and its boundary (null when the order cannot seek or the
 * page is empty). */
export interface EnginePage extends PageResult {
  boundary: PageBoundary | null;
  /** How the rows were read (for tests and benchmarks; not sent): seeking from the neighbour's boundary, from the
   * end in the reversed order, through the keys alone then joined back (the deferred join). */
  readBy: { seek: boolean; fromEnd: boolean; deferredJoin: boolean };
}

/** One choice for a foreign-key column: the referenced key, a readable label, and whether it matches the term
 * (matches come first; without a term none is a match). */
export interface ForeignKeyOption {
  key: CellValue;
  label: string;
  isMatch: boolean;
}

/** A page of foreign-key choices; `hasMore` tells the combobox to load the next 25. */
export interface ForeignKeyOptions {
  results: ForeignKeyOption[];
  hasMore: boolean;
}

/** One row written: as it was (null when it is new) and as it is now. The audit trail keeps both. */
export interface RowChange {
  before: Row | null;
  after: Row;
}

/** What the caller of an upsert may add: a check run after the row is looked up by its key and before anything is
 * written, in the write's transaction (an access policy that depends on insert versus update throws from it). It is
 * given the row as the database holds it now (null for an insert), so a caller can also refuse a row that changed. */
export interface UpsertOptions {
  beforeWrite?: (change: 'insert' | 'update', current: Row | null) => Promise<void> | void;
  /** Run in the write's transaction once the row is written, before it commits, with the change as it will commit.
   * A caller that must record every change (the audit's intent) records it here: if recording fails, the write is
   * rolled back, so no change commits unrecorded. */
  beforeCommit?: (change: RowChange) => Promise<void> | void;
}

/** What the caller of a delete may add: a check of the row as it is now, in the delete's transaction, before the
 * delete (undo refuses a row that changed since it was audited). */
export interface DeleteOptions {
  beforeDelete?: (current: Row) => Promise<void> | void;
  /** As UpsertOptions.beforeCommit: run once the row is deleted, before the delete commits, with the row as it was. */
  beforeCommit?: (deleted: Row) => Promise<void> | void;
}

/** What the caller of a restore may add: as UpsertOptions.beforeCommit, with the row as it is put back. */
export interface RestoreOptions {
  beforeCommit?: (restored: RestoredRow) => Promise<void> | void;
}

/** A deleted row put back: as the database holds it now, and whether it kept its old key (an engine that numbers
 * its identity column itself may refuse the old value; the row then gets a new one). */
export interface RestoredRow {
  row: Row;
  keptKey: boolean;
}

/** What an export streams: the same filter and sort a page takes (the same match rules and order). */
export interface RowStreamQuery {
  filter: Filter;
  /** A filter document (issue 35), as PageQuery's. */
  where?: FilterDocument | undefined;
  orderBy?: string | null;
}

/** How rows are streamed: rows per chunk, and a signal that stops the stream (the statement is cancelled and the
 * connection discarded). */
export interface RowStreamOptions {
  chunkSize?: number;
  signal?: AbortSignal;
}

/** The rows a stream will give: exact, or the engine's estimate / a capped count (`exact` false). */
export interface RowCount {
  count: number;
  exact: boolean;
}

/** A run of CSV records (or JSON Lines) written by the engine, and how many records it holds. The bytes may be the
 * writer's own buffer, which it writes again once the next chunk is asked for: write or copy them before that. */
export interface CsvChunk {
  bytes: Uint8Array;
  rows: number;
}

/** A registered database: a name people see, an engine, and a pooled connection. */
export interface DatabaseEngine {
  readonly name: string;
  readonly kind: EngineKind;
  readonly db: Kysely<DynamicSchema>;
  /** Resolves when the database answers a trivial query within `timeoutMs`, else rejects. */
  ping(timeoutMs?: number): Promise<void>;
  /** Closes the pool; waits for queries in flight. */
  close(): Promise<void>;
  /** Every table and view, cached per connection; `refresh` reads the engine's catalog again. */
  catalog(options?: { refresh?: boolean }): Promise<Table[]>;
  /** One table by schema and name, or a 404 EngineError. */
  table(schema: string, name: string): Promise<Table>;
  /** A page of rows matching the filter, in the asked order, with the (possibly estimated) count. */
  page(table: Table, query: PageQuery): Promise<EnginePage>;
  /** Inserts or updates one row (by identity, guid or primary key); answers it before (null when new) and as the
   * database now holds it. `beforeWrite` may refuse the insert or update before it happens. A row carrying its
   * version (ROW_VERSION_KEY, as the data API answers it) is updated only while it is still that version: else a
   * 409 whose data is the row as it is now, and nothing is written (row-version.ts, decision 0045). */
  upsert(table: Table, row: Row, options?: UpsertOptions): Promise<RowChange>;
  /** Deletes one row by its key and answers it as it was; with the row's version, only while it is that version
   * (as upsert). */
  deleteRow(table: Table, row: Row, options?: DeleteOptions): Promise<Row>;
  /** Inserts a deleted row again as it was (undo of a delete), identity and guid values included where the engine
   * takes them, else with a new identity; a 409 when a row with its key exists. */
  restoreRow(table: Table, row: Row, options?: RestoreOptions): Promise<RestoredRow>;
  /** The row with this key (identity, guid or primary key) as the database holds it now, or null when there is
   * none. Read under the row lock writes take, so a write of that row still in flight ends first. */
  readRow(table: Table, key: Row): Promise<Row | null>;
  /** The referenced keys a foreign-key column may take, 25 a page: with a term, its matches (the key itself, then
   * labels that start with it) first, then every other key. */
  foreignKeyOptions(
    table: Table,
    column: string,
    query: { term?: string; page: number },
  ): Promise<ForeignKeyOptions>;
  /** How the engine would read the rows a filter keeps (issue 35): each condition through an index or by a scan,
   * whether the whole filter scans (and so runs under the scan budget), the engine's row estimate, the budget, and
   * what would make a scan fast. Checks the filter and sort as `page` does. */
  plan(
    table: Table,
    query: { where: FilterDocument; orderBy?: string | null | undefined },
  ): Promise<FilterPlan>;
  /** Checks a stream's filter and sort (a 400 naming what is wrong) and counts its rows the way `page` does: exact
   * for small tables and small filtered sets, else the estimate or a capped count. */
  countRows(table: Table, query: RowStreamQuery): Promise<RowCount>;
  /** How many rows of `referencing` have `columns` equal to `values` (referencing column → value, checked against
   * its type: a 400 when it does not fit), counting at most `cap + 1` (referencing-rows.ts, decision 0065). */
  countReferencing(referencing: Table, columns: string[], values: Row, cap: number): Promise<number>;
  /** The labels of the rows `rows` point at, one statement a foreign key of `table` into a table of `readable` (the
   * caller's readable tables: no other table is named or read), foreign-key-labels.ts, decision 0067. */
  foreignKeyLabels(table: Table, readable: Table[], rows: Row[]): Promise<ForeignKeyLabels[]>;
  /** Bulk changes (issue 38, bulk-writes.ts): the rows of a filter narrowed to explicit keys, counted up to
   * `cap + 1` (the filter and keys checked: a 400 naming what is wrong). */
  countBulk(table: Table, selection: BulkSelection, cap: number): Promise<number>;
  /** How many rows of `referencing` point through `foreignKey` at the selection's rows, up to `cap + 1`: one join
   * (bulk-writes.ts countBulkReferencingRows; ask only when the referencing columns lead an index). */
  countBulkReferencing(
    table: Table,
    selection: BulkSelection,
    referencing: Table,
    foreignKey: Pick<ForeignKey, 'columns' | 'referencedColumns'>,
    cap: number,
  ): Promise<number>;
  /** The selection's first `limit` rows in key order after `after` (the preview's sample). */
  readBulk(
    table: Table,
    query: { selection: BulkSelection; after: Row | null; limit: number },
  ): Promise<Row[]>;
  /** One batch of a bulk change in one short transaction: the next `limit` rows in key order after `after`, read
   * under the row lock, updated with `set` (or deleted when it is null), handed to beforeCommit, committed. */
  bulkBatch(table: Table, query: BulkBatchQuery, options?: BulkBatchOptions): Promise<BulkRowChange[]>;
  /** One batch of the undo of a bulk change (bulk-writes.ts revertBatch): the rows locked and checked, then an
   * update's values written back or a delete's rows inserted again, in one transaction. */
  revertBatch(
    table: Table,
    query: { change: 'update' | 'delete'; rows: RevertRow[] },
    options?: RevertOptions,
  ): Promise<RevertChange[]>;
  /** Of `keys` (column → value over `columns`, values checked against their columns), the ones rows of `table` hold,
   * as the database answers them: one statement per batch of keys (existing-keys.ts; issue 39's dry run). */
  existingKeys(table: Table, columns: string[], keys: Row[]): Promise<Row[]>;
  /** The writing side of an import (import-writes.ts; issue 39's run): one transaction for the whole import
   * (all-or-nothing) or one a batch (skip mode), batches written under a savepoint and, when refused, a row at a
   * time so the refused rows are named. */
  openImportWriter(table: Table, options: { oneTransaction: boolean }): Promise<ImportWriter>;
  /** One batch of the undo of an import (import-writes.ts revertImportBatch): the rows locked and checked, the
   * inserted ones deleted and the updated ones given back their values, in one transaction. */
  revertImportBatch(
    table: Table,
    rows: ImportRevertRow[],
    options?: ImportRevertOptions,
  ): Promise<{ before: Row | null; after: Row | null }[]>;
  /** Every row matching the filter in the asked order, as wire values, a chunk at a time, read with a cursor or the
   * driver's streaming query so memory stays flat. The consumer's pace sets the reading pace. */
  streamRows(table: Table, query: RowStreamQuery, options?: RowStreamOptions): AsyncIterable<Row[]>;
  /** The same rows as CSV records written by the database itself (PostgreSQL COPY, the MySQL select), or null when
   * this engine, these columns or this filter cannot be copied that way: then use `streamRows`. The records are what
   * a CSV writer makes of `streamRows`' values: RFC 4180 quoting, LF line ends, no header, null as an empty field,
   * an empty string as "", booleans as true/false, binary as base64, text that starts like a formula with a
   * leading ' (formula-cells.ts). */
  streamCsv(table: Table, query: RowStreamQuery, options?: RowStreamOptions): AsyncIterable<CsvChunk> | null;
  /** The same rows as JSON Lines written from the database's own text (PostgreSQL's COPY), or null when this engine
   * or these columns cannot: then use `streamRows`. Each line is what JSON.stringify makes of the row's wire values,
   * keys in column order. `rows` counts lines. */
  streamJsonLines(
    table: Table,
    query: RowStreamQuery,
    options?: RowStreamOptions,
  ): AsyncIterable<CsvChunk> | null;
}

/** Rejects when `work` takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
