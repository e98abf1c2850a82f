import { createPool } from 'mysql2';
import { CompiledQuery, Kysely, MysqlDialect, type DatabaseConnection } from 'kysely';
import { registerPoolUse } from '#server/engines/pool-use.ts';
import { callBudgetOf, DeadlineGuard } from '#server/engines/call-deadline.ts';
import type { DatabaseEngine, DynamicSchema, EngineOptions } from '#server/engines/engine.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { mysqlAdapter } from './adapter.ts';
import { guardedPool } from './guarded-pool.ts';
import { registerLongTransactionDb } from '#server/engines/long-transactions.ts';
import { registerPool } from './stream.ts';

/** Opens a pooled MySQL or MariaDB connection with a per-session statement timeout. */
export function connectMysql(name: string, url: string, options: EngineOptions): DatabaseEngine {
  const db = openMysql(url, options, name);
  return createTableEngine(
    name,
    mysqlAdapter(db, {
      name,
      statementTimeoutMs: options.statementTimeoutMs,
      ...(options.scanTimeoutMs === undefined ? {} : { scanTimeoutMs: options.scanTimeoutMs }),
    }),
  );
}

/**
 * The Kysely instance over a mysql2 pool. Values come back without loss: BIGINT and DECIMAL as strings, dates and
 * times as the server's text (fractional seconds kept), BIT and binary as Buffers, JSON as its text. Every call's
 * pool wait and statements also end by DBUI's own deadline (guarded-pool.ts), which a frozen server cannot stop;
 * `name` is the registered database's, for the messages.
 */
export function openMysql(url: string, options: EngineOptions, name = 'database'): Kysely<DynamicSchema> {
  const pool = createPool({
    uri: url,
    connectionLimit: options.poolSize,
    connectTimeout: 5000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    dateStrings: true,
    jsonStrings: true,
    timezone: 'Z',
  });
  const guarded = guardedPool(pool, new DeadlineGuard(name, callBudgetOf(options.statementTimeoutMs)));
  const db = new Kysely<DynamicSchema>({
    dialect: new MysqlDialect({
      pool: guarded,
      // Kysely awaits this before a new connection runs its first query (the pool's 'connection' event cannot be
      // awaited, so a fallback set there could run after the first query).
      onCreateConnection: (connection) => prepareSession(connection, options.statementTimeoutMs),
    }),
  });
  registerPool(db, guarded);
  // An import's one transaction (long-transactions.ts): each statement its own deadline, not the checkout.
  registerLongTransactionDb(
    db,
    new Kysely<DynamicSchema>({
      dialect: new MysqlDialect({
        pool: {
          getConnection: (callback) => guarded.getConnection(callback, { eachStatement: true }),
          end: (callback) => callback(null),
        },
        onCreateConnection: (connection) => prepareSession(connection, options.statementTimeoutMs),
      }),
    }),
  );
  // mysql2 keeps its counts in fields its types do not declare; a version without them reports nothing.
  const counts = pool as unknown as Partial<
    Record<'_allConnections' | '_freeConnections' | '_connectionQueue', unknown[]>
  >;
  if (Array.isArray(counts._allConnections))
    registerPoolUse(db, () => ({
      open: counts._allConnections?.length ?? 0,
      idle: counts._freeConnections?.length ?? 0,
      waiting: counts._connectionQueue?.length ?? 0,
    }));
  return db;
}

/** Unknown system variable: the other server family, or a version without the setting. */
const UNKNOWN_VARIABLE = 1193;

/**
 * Session settings: TIMESTAMP values in UTC (the driver's `timezone: 'Z'` only affects JavaScript dates), and the
 * statement timeout. MariaDB spells it max_statement_time (seconds, fractions allowed, every statement); MySQL
 * max_execution_time (ms, SELECT only), where information_schema_stats_expiry = 0 also makes the catalog's row
 * estimates current instead of cached for a day. Only numbers are bound; no SQL is built from text.
 */
async function prepareSession(connection: DatabaseConnection, statementTimeoutMs: number): Promise<void> {
  await connection.executeQuery(CompiledQuery.raw("SET time_zone = '+00:00'"));
  const milliseconds = Math.max(1, Math.round(statementTimeoutMs));
  if (await setIfKnown(connection, 'SET SESSION max_statement_time = ?', milliseconds / 1000)) return;
  await setIfKnown(connection, 'SET SESSION max_execution_time = ?', milliseconds);
  await setIfKnown(connection, 'SET SESSION information_schema_stats_expiry = ?', 0);
}

/** Runs a SET; false when the server has no such variable (older versions), any other failure throws. */
async function setIfKnown(
  connection: DatabaseConnection,
  statement: string,
  value: number,
): Promise<boolean> {
  try {
    await connection.executeQuery(CompiledQuery.raw(statement, [value]));
    return true;
  } catch (error) {
    if (errnoOf(error) === UNKNOWN_VARIABLE) return false;
    throw error;
  }
}

const errnoOf = (error: unknown) =>
  typeof error === 'object' && error !== null && 'errno' in error ? error.errno : undefined;
