import { sql, type Kysely } from 'kysely';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import { callBudgetOf } from '#server/engines/call-deadline.ts';
import { probe } from './guarded-pool.ts';
import type { DynamicSchema, EngineOptions } from '#server/engines/engine.ts';
import { readCatalog } from './catalog.ts';
import { explainError } from './errors.ts';
import { insertReturning, insertWithoutReturning, limitOffset, textStartsWith } from './queries.ts';
import { mysqlCsvCopy, mysqlStreamQuery, poolOf } from './stream.ts';
import { decodeValue, encodeValue } from './types.ts';

/** What the MySQL adapter needs besides the connection: the database's name (for messages) and the timeout. */
export interface MysqlAdapterOptions extends Pick<EngineOptions, 'statementTimeoutMs'> {
  name: string;
}

/** The MySQL/MariaDB adapter over a Kysely instance from openMysql (connect.ts). */
export function mysqlAdapter(db: Kysely<DynamicSchema>, options: MysqlAdapterOptions): EngineAdapter {
  // MariaDB 10.5+ has INSERT … RETURNING; MySQL has not. Asked once, on the first insert.
  let returning: Promise<boolean> | null = null;
  const supportsReturning = () => {
    returning ??= sql<{ version: string }>`select version() as version`
      .execute(db)
      .then(({ rows }) => mariaDbWithReturning(String(rows[0]?.version ?? '')));
    returning.catch(() => {
      returning = null;
    });
    return returning;
  };
  return {
    kind: 'mysql',
    db,
    callDeadlineMs: callBudgetOf(options.statementTimeoutMs),
    probe: (budgetMs) => probe(poolOf(db), budgetMs),
    readCatalog: () => readCatalog(db),
    limitOffset,
    textStartsWith,
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
