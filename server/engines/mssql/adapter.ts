import { sql, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from '#server/engines/adapter.ts';
import { scanBudgetOf, type DynamicSchema, type EngineOptions } from '#server/engines/engine.ts';
import { readCatalog } from './catalog.ts';
import { explainError } from './errors.ts';
import { insertRow, limitOffset, scanQuery, textContains, textEndsWith, textStartsWith } from './queries.ts';
import { mssqlStreamQuery } from './stream.ts';
import { decodeValue, encodeValue, selectExpression } from './types.ts';

/** What the SQL Server adapter needs besides the connection: the database's name (for messages) and the timeout. */
export interface MssqlAdapterOptions extends Pick<EngineOptions, 'statementTimeoutMs' | 'scanTimeoutMs'> {
  name: string;
  /** The pool a scanning filter's selects run on: its requests time out at the scan budget (connect.ts opens it
   * when the first scan needs it). Without it scans run on `db`, under the statement timeout. */
  scanDb?: () => Kysely<DynamicSchema>;
}

/** The EngineAdapter plus two SQL Server extras the generic engine may use (see queries.ts and types.ts). */
export interface MssqlAdapter extends EngineAdapter {
  /** As EngineAdapter's, and with the column's type a varchar column keeps its index seek (queries.ts). */
  textStartsWith(column: SqlFragment, prefix: string, info?: Pick<Column, 'type'>): SqlFragment;
  /** What to select for a column so its value arrives exactly (decimal, money, datetimeoffset, spatial). */
  selectExpression(column: Column, ref: SqlFragment): SqlFragment;
}

/** The SQL Server adapter over a Kysely instance from openMssql (connect.ts). */
export function mssqlAdapter(db: Kysely<DynamicSchema>, options: MssqlAdapterOptions): MssqlAdapter {
  return {
    kind: 'mssql',
    db,
    scanBudgetMs: scanBudgetOf(options),
    scanQuery: (query) => scanQuery(options.scanDb?.() ?? db, query),
    readCatalog: () => readCatalog(db),
    limitOffset,
    textStartsWith,
    textContains,
    textEndsWith,
    decodeValue,
    encodeValue,
    insertRow,
    explainError: (error) => explainError(error, options),
    selectExpression,
    rowLock: { tableHint: sql`with (updlock, rowlock)` },
    streamQuery: (query, streamOptions) => mssqlStreamQuery(db, query, streamOptions),
  };
}
