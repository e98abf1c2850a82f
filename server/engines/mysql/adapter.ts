import { sql, type Kysely } from 'kysely';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import { callBudgetOf } from '#server/engines/call-deadline.ts';
import { probe } from './guarded-pool.ts';
import { scanBudgetOf, type DynamicSchema, type EngineOptions } from '#server/engines/engine.ts';
import { readCatalog } from './catalog.ts';
import { explainError } from './errors.ts';
import {
  estimateRows,
  insertReturning,
  insertWithoutReturning,
  limitOffset,
  scanQuery,
  textContains,
  textEndsWith,
  textStartsWith,
} from './queries.ts';
import { mysqlCsvCopy, mysqlStreamQuery, poolOf } from './stream.ts';
import { decodeValue, encodeValue } from './types.ts';

/** What the MySQL adapter needs besides the connection: the database's name (for messages) and the timeout. */
export interface MysqlAdapterOptions extends Pick<EngineOptions, 'statementTimeoutMs' | 'scanTimeoutMs'> {
  name: string;
}

/** The MySQL/MariaDB adapter over a Kysely instance from openMysql (connect.ts). */
export function mysqlAdapter(db: Kysely<DynamicSchema>, options: MysqlAdapterOptions): EngineAdapter {
  // The server's version, asked once when first needed: MariaDB 10.5+ has INSERT … RETURNING, MySQL has not; a scan's
  // budget is MariaDB's SET STATEMENT or MySQL's hint.
  let version: Promise<string> | null = null;
  const serverVersion = () => {
    version ??= sql<{ version: string }>`select version() as version`
      .execute(db)
      .then(({ rows }) => String(rows[0]?.version ?? ''));
    version.catch(() => {
      version = null;
    });
    return version;
  };
  const supportsReturning = async () => mariaDbWithReturning(await serverVersion());
  return {
    kind: 'mysql',
    db,
    callDeadlineMs: callBudgetOf(options.statementTimeoutMs),
    probe: (budgetMs) => probe(poolOf(db), budgetMs),
    scanBudgetMs: scanBudgetOf(options),
    scanQuery: async (query, budgetMs) => scanQuery(db, query, budgetMs, isMariaDb(await serverVersion())),
    estimateRows: (query) => estimateRows(db, query),
    readCatalog: () => readCatalog(db),
    limitOffset,
    textStartsWith,
    textContains,
    textEndsWith,
    decodeValue,
    encodeValue,
    async insertRow(executor, table, values, keyColumns) {
      const insert = (await supportsReturning()) ? insertReturning : insertWithoutReturning;
      return insert(executor, table, values, keyColumns);
    },
    explainError: (error) => explainError(error, options),
    rowLock: { clause: sql`for update` },
    streamQuery: (query, streamOptions) => mysqlStreamQuery(db, query, streamOptions),
    csvCopy: mysqlCsvCopy(db),
  };
}

/** Whether the server is MariaDB ('10.11.19-MariaDB-0+deb12u1'), not MySQL ('8.0.36'). */
export const isMariaDb = (version: string) => /mariadb/i.test(version);

/** '10.11.19-MariaDB-0+deb12u1' → true; MySQL's '8.0.36' → false. */
export function mariaDbWithReturning(version: string): boolean {
  if (!/mariadb/i.test(version)) return false;
  // Old clients were shown '5.5.5-10.x…' for compatibility; the real version follows the prefix.
  const [major = 0, minor = 0] = version
    .replace(/^5\.5\.5-/, '')
    .split(/[.-]/)
    .map(Number);
  return major > 10 || (major === 10 && minor >= 5);
}
