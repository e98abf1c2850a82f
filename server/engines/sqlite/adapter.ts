import type { Kysely } from 'kysely';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import { scanBudgetOf, type DynamicSchema, type EngineOptions } from '#server/engines/engine.ts';
import { decodeCommon } from '#server/engines/wire-values.ts';
import { readSqliteCatalog } from './catalog.ts';
import { explainSqliteError } from './errors.ts';
import {
  sqliteInsertRow,
  sqliteLimitOffset,
  sqliteTextContains,
  sqliteTextEndsWith,
  sqliteTextStartsWith,
} from './queries.ts';
import { SqliteScans, sqliteScanWhere } from './scan.ts';
import { sqliteStreamQuery } from './stream.ts';

/** The SQLite adapter over a better-sqlite3 connection opened with safe integers (64-bit values arrive exact).
 * `options`: the scan budget (SCAN_TIMEOUT_MS); SQLite has no statement timeout. */
export function sqliteAdapter(
  db: Kysely<DynamicSchema>,
  file: string,
  options: Pick<EngineOptions, 'scanTimeoutMs'> = {},
): EngineAdapter {
  const scans = new SqliteScans(file);
  return {
    kind: 'sqlite',
    db,
    close: () => scans.close(),
    scanBudgetMs: scanBudgetOf(options),
    scanQuery: (query, budgetMs) => scans.query(query, budgetMs),
    scanWhere: sqliteScanWhere,
    readCatalog: () => readSqliteCatalog(db, file),
    limitOffset: sqliteLimitOffset,
    textStartsWith: sqliteTextStartsWith,
    textContains: sqliteTextContains,
    textEndsWith: sqliteTextEndsWith,
    decodeValue: decodeCommon,
    encodeValue(column, value) {
      if (typeof value === 'boolean') return value ? 1 : 0;
      // Whole numbers bind as 64-bit integers so values past 2^53 stay exact.
      if (
        column.typeGroup === 'Number' &&
        typeof value === 'string' &&
        /^[-+]?\d+$/.test(value) &&
        column.scale === 0
      ) {
        return BigInt(value);
      }
      return value;
    },
    insertRow: sqliteInsertRow,
    explainError: explainSqliteError,
    streamQuery: (query, options) => sqliteStreamQuery(file, query, options),
  };
}
