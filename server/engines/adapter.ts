import type { CompiledQuery, Kysely, RawBuilder, Transaction } from 'kysely';
import type { CellValue, Column, ForeignKey, Index, TypeGroup } from '#common/contract/sql.ts';
import type { ColumnDefault, DefaultLiteral } from './column-defaults.ts';
import type { CsvChunk, DynamicSchema, EngineKind, RowStreamOptions } from './engine.ts';
import type { EngineError } from './engine-error.ts';

/*
 * What each engine adapter (sqlite/, postgres/, mysql/, mssql/) provides. The generic engine (table-engine.ts)
 * does everything else the same way on every engine: catalog caching and derived flags, identifier checks, search
 * terms, paging and seeking, row writes, foreign-key options.
 */

/** A column as the adapter reads it; the generic engine derives the key and index flags, and the default's wire
 * fields from `defaultLiteral` (column-defaults.ts; without it a default counts as an expression). */
export type CatalogColumn = Omit<
  Column,
  'isIndexed' | 'isForeignKey' | 'isForeignKeySource' | 'isPrimaryKey' | keyof ColumnDefault
> & { defaultLiteral?: DefaultLiteral };

/** A table as the adapter reads it from the engine's catalog. */
export interface CatalogTable {
  schema: string;
  name: string;
  isView: boolean;
  columns: CatalogColumn[];
  primaryKey: string[];
  indexes: Index[];
  foreignKeys: ForeignKey[];
  /** The engine's own estimate of the row count, or null when it has none. */
  estimatedRows: number | null;
}

/** The native type facts an adapter maps to a type group. */
export interface NativeType {
  type: string;
  typeGroup: TypeGroup;
  maxLength: number;
  precision: number;
  scale: number;
}

export type Executor = Kysely<DynamicSchema> | Transaction<DynamicSchema>;
export type SqlFragment = RawBuilder<unknown>;

export interface EngineAdapter {
  readonly kind: EngineKind;
  readonly db: Kysely<DynamicSchema>;

  /** How long one call may take on our side, pool wait and statements together (the statement timeout plus a
   * margin, call-deadline.ts), for an adapter whose pool keeps that deadline; also a stream's quiet period before
   * the database is asked whether it still answers. None for SQLite, which runs in-process, and SQL Server, whose
   * driver cancels requests itself (tedious's request and cancel timeouts, tarn's acquire timeout). */
  readonly callDeadlineMs?: number;
  /** `select 1` on a connection of its own within `budgetMs`, the pool wait included, for an adapter whose pool keeps
   * deadlines (a health check's budget is shorter than a call's). */
  probe?(budgetMs: number): Promise<void>;

  /** What the adapter holds besides its pool (SQLite's scan workers), ended when the engine closes. */
  close?(): Promise<void>;

  /** How long the statements of a filter that no index serves may run (scanBudgetOf, decision 0061). */
  readonly scanBudgetMs: number;
  /**
   * Runs one select of a scanning filter so that the database itself stops it once it has run `budgetMs` and cancels
   * it on its side (PostgreSQL: `SET LOCAL statement_timeout` in a read-only transaction; MariaDB: `SET STATEMENT
   * max_statement_time … FOR`; MySQL: the MAX_EXECUTION_TIME hint; SQL Server: a request timeout; SQLite: its own
   * connection on a worker thread, stopped by scanWhere's check), answering its rows as the driver gives them. A stop
   * is a ScanStopped, with the rows examined when the engine says.
   */
  scanQuery(query: CompiledQuery, budgetMs: number): Promise<Record<string, unknown>[]>;
  /** A scanning statement's WHERE as the engine needs it to stop itself (SQLite: a check of the budget on every row
   * examined); without it the WHERE is the filter's. */
  scanWhere?(where: SqlFragment): SqlFragment;

  /** Every table and view the connection can see, outside the engine's system schemas. */
  readCatalog(): Promise<CatalogTable[]>;

  /** `LIMIT n OFFSET m` in the engine's syntax (SQL Server: OFFSET … FETCH, which needs the ORDER BY before it). */
  limitOffset(limit: number, offset: number): SqlFragment;

  /** A predicate "column starts with prefix" that the engine can answer from an index on the column; `info` is the
   * column (some types, e.g. PostgreSQL enums, compare as text). */
  textStartsWith(column: SqlFragment, prefix: string, info?: Pick<Column, 'type'>): SqlFragment;

  /** A predicate "column contains text" (anywhere in it), matching case as textStartsWith does on this engine, with
   * LIKE's wildcards (and the escape character) in the text taken literally. No index serves it. */
  textContains(column: SqlFragment, text: string, info?: Pick<Column, 'type'>): SqlFragment;

  /** A predicate "column ends with text", as textContains. */
  textEndsWith(column: SqlFragment, text: string, info?: Pick<Column, 'type'>): SqlFragment;

  /** A value from the driver as it goes on the wire (see CellValue: no precision lost, binary as base64). */
  decodeValue(column: Column, raw: unknown): CellValue;

  /** A checked wire value as the driver should bind it for this column (the generic engine has validated it). */
  encodeValue(column: Column, value: string | number | boolean | Buffer): unknown;

  /** Inserts one row and answers the values of `keyColumns` of the inserted row (generated ones included). */
  insertRow(
    executor: Executor,
    table: { schema: string; name: string },
    values: Record<string, unknown>,
    keyColumns: string[],
  ): Promise<Record<string, unknown>>;

  /** A driver error as a message a person can act on, or null when it is not one we recognise. */
  explainError(error: unknown): EngineError | null;

  /** How the select of a row about to be written locks it until the write's transaction ends, so the row's
   * "before" (audit, undo's changed-since check, permission checks) is what the write replaces: a clause after the
   * select (`for update`) or a hint after the table (SQL Server `with (updlock, rowlock)`). SQLite needs none: one
   * connection runs one transaction at a time. */
  rowLock?: { clause?: SqlFragment; tableHint?: SqlFragment };

  /** What to select for a column so its value arrives exactly (SQL Server: decimals and offsets as text). Without
   * it the column itself is selected. */
  selectExpression?(column: Column, ref: SqlFragment): SqlFragment;

  /** Runs a select and yields its rows as the driver gives them (as for a page), `chunkSize` at a time, with a
   * cursor or the driver's streaming query, on a connection of its own without the statement timeout. Stopping the
   * iteration (or the signal) cancels the statement. */
  streamQuery(
    query: CompiledQuery,
    options: Required<Pick<RowStreamOptions, 'chunkSize'>> & RowStreamOptions,
  ): AsyncIterable<Record<string, unknown>[]>;

  /** The engine's estimate of the rows a select returns, from its plan without running it (PostgreSQL EXPLAIN's
   * plan rows, MySQL's EXPLAIN rows × filtered), or null when it gives none. */
  estimateRows?(query: CompiledQuery): Promise<number | null>;

  /** Engines that can write CSV themselves (PostgreSQL COPY) or from the driver's raw cells (MySQL). */
  csvCopy?: CsvCopy;
  /** Engines whose JSON Lines are written from their own text (PostgreSQL COPY). */
  jsonLinesCopy?: JsonLinesCopy;
}

/** A JSON Lines writer of the engine's own (see DatabaseEngine.streamJsonLines for the lines it must produce). */
export interface JsonLinesCopy {
  /** What to select for a column so the writer can make JSON.stringify's of its wire value, or null when it
   * cannot. */
  expression(column: Column, ref: SqlFragment): SqlFragment | null;
  /** Runs the select (each column's expression under its column's name, in the order of `columns`) and yields its
   * rows as JSON Lines, or null when these columns cannot be written that way. */
  copy(query: CompiledQuery, columns: Column[], options: RowStreamOptions): AsyncIterable<CsvChunk> | null;
}

/** An engine's own CSV writer (see DatabaseEngine.streamCsv for the records it must produce). */
export interface CsvCopy {
  /** What to select for a column so the engine writes its CSV field as the wire value would be written (formula-like
   * text with its leading quote, formula-cells.ts), or null when it cannot. `onlyColumn`: the table has this column
   * alone. */
  expression(column: Column, ref: SqlFragment, onlyColumn: boolean): SqlFragment | null;
  /** The select list made of the columns' expressions, in column order. */
  record(fields: { column: Column; expression: SqlFragment }[]): SqlFragment;
  /** Runs the select (of `fields`, in their order) and yields the CSV records as they come, or null when this
   * statement cannot be copied (PostgreSQL's COPY takes no bound values). */
  copy(
    query: CompiledQuery,
    fields: { column: Column; expression: SqlFragment }[],
    options: RowStreamOptions,
  ): AsyncIterable<CsvChunk> | null;
}
