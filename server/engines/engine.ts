import type { Kysely } from 'kysely';
import type { CellValue, Filter, PageResult, Row, Table } from '#common/contract/sql.ts';

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
}

export const defaultEngineOptions: EngineOptions = { statementTimeoutMs: 15_000, poolSize: 10 };

/** What a page request asks for (spec: page number, page size, a filter of column → term, a sort `name`/`-name`). */
export interface PageQuery {
  filter: Filter;
  orderBy?: string | null;
  page: number;
  pageSize: number;
}

/** One choice for a foreign-key column: the referenced key and a readable label. */
export interface ForeignKeyOption {
  key: CellValue;
  label: string;
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
  page(table: Table, query: PageQuery): Promise<PageResult>;
  /** Inserts or updates one row (by identity, guid or primary key); answers it before (null when new) and as the
   * database now holds it. */
  upsert(table: Table, row: Row): Promise<RowChange>;
  /** Deletes one row by its key and answers it as it was. */
  deleteRow(table: Table, row: Row): Promise<Row>;
  /** The referenced keys a foreign-key column may take, 25 a page, searchable by label or key. */
  foreignKeyOptions(
    table: Table,
    column: string,
    query: { term?: string; page: number },
  ): Promise<ForeignKeyOptions>;
}

/** Rejects when `work` takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
