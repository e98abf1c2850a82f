import { sql, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { EngineAdapter, SqlFragment } from '#server/engines/adapter.ts';
import { callBudgetOf } from '#server/engines/call-deadline.ts';
import { scanBudgetOf, type DynamicSchema, type EngineOptions } from '#server/engines/engine.ts';
import { readCatalog } from './catalog.ts';
import { explainError } from './errors.ts';
import {
  estimateRows,
  insertRow,
  limitOffset,
  readPrefixStrategy,
  scanQuery,
  textContains,
  textEndsWith,
  textStartsWith,
  type PrefixStrategy,
} from './queries.ts';
import { poolOf, postgresCsvCopy, postgresJsonLinesCopy, postgresStreamQuery } from './stream.ts';
import { probe } from './guarded-pool.ts';
import { decodeValue, encodeValue } from './types.ts';

/** The PostgreSQL adapter over a pool opened by connect.ts (which sets the type parsers decodeValue expects).
 * `name` is the registered database's name, used in "not reachable" messages. */
export function postgresAdapter(
  db: Kysely<DynamicSchema>,
  options: EngineOptions,
  name = 'database',
): EngineAdapter {
  // Learnt with each catalog read; until then prefix searches use only the range's lower bound (always exact).
  let strategy: PrefixStrategy = 'lowerBound';
  return {
    kind: 'postgres',
    db,
    callDeadlineMs: callBudgetOf(options.statementTimeoutMs),
    probe: (budgetMs) => probe(poolOf(db), budgetMs),
    scanBudgetMs: scanBudgetOf(options),
    scanQuery: (query, budgetMs) => scanQuery(db, query, budgetMs),
    estimateRows: (query) => estimateRows(db, query),
    async readCatalog() {
      const [tables, readStrategy] = await Promise.all([readCatalog(db), readPrefixStrategy(db)]);
      strategy = readStrategy;
      return tables;
    },
    limitOffset,
    textStartsWith: (column: SqlFragment, prefix: string, info?: Pick<Column, 'type'>) =>
      textStartsWith(strategy, column, prefix, info),
    textContains,
    textEndsWith,
    decodeValue,
    encodeValue,
    insertRow,
    explainError: (error) => explainError(error, { name, statementTimeoutMs: options.statementTimeoutMs }),
    rowLock: { clause: sql`for update` },
    streamQuery: (query, streamOptions) => postgresStreamQuery(db, query, streamOptions),
    csvCopy: postgresCsvCopy(db),
    jsonLinesCopy: postgresJsonLinesCopy(db),
  };
}
