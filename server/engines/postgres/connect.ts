import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { callBudgetOf, DeadlineGuard } from '#server/engines/call-deadline.ts';
import type { DatabaseEngine, DynamicSchema, EngineOptions } from '#server/engines/engine.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { registerPoolUse } from '#server/engines/pool-use.ts';
import { postgresAdapter } from './adapter.ts';
import { ConnectingClient, guardedPool } from './guarded-pool.ts';
import { registerLongTransactionDb } from '#server/engines/long-transactions.ts';
import { registerPool } from './stream.ts';
import { getTypeParser, sessionOptions } from './types.ts';

/** A Kysely over a PostgreSQL pool: values arrive as exact text (see types.ts), the session runs in UTC, and the
 * server cancels any statement over the timeout. The parsers belong to this pool only, not to pg globally. Every
 * call's pool wait and statements also end by DBUI's own deadline (guarded-pool.ts), which a frozen server cannot
 * stop; `name` is the registered database's, for the messages. */
export function openPostgres(url: string, options: EngineOptions, name = 'database'): Kysely<DynamicSchema> {
  const budgetMs = callBudgetOf(options.statementTimeoutMs);
  const pool = new pg.Pool({
    connectionString: url,
    Client: ConnectingClient,
    max: options.poolSize,
    // The wait in the pool's queue: our deadline ends it (guarded-pool.ts), and this, a second later, only takes the
    // abandoned wait out of the queue (were it first, its error would read as "not reachable").
    connectionTimeoutMillis: budgetMs + 1000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'dbui',
    options: sessionOptions,
    types: { getTypeParser },
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener that would end the process.
  pool.on('error', () => undefined);
  const guarded = guardedPool(pool, new DeadlineGuard(name, budgetMs));
  const db = new Kysely<DynamicSchema>({ dialect: new PostgresDialect({ pool: guarded }) });
  registerPool(db, guarded);
  // An import's one transaction (long-transactions.ts): each statement its own deadline, not the checkout.
  registerLongTransactionDb(
    db,
    new Kysely<DynamicSchema>({
      dialect: new PostgresDialect({
        pool: { connect: () => guarded.connect({ eachStatement: true }), end: async () => undefined },
      }),
    }),
  );
  registerPoolUse(db, () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  return db;
}

/** Opens a pooled PostgreSQL connection. */
export function connectPostgres(name: string, url: string, options: EngineOptions): DatabaseEngine {
  return createTableEngine(name, postgresAdapter(openPostgres(url, options, name), options, name));
}
