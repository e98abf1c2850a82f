import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { DatabaseEngine, DynamicSchema, EngineOptions } from '#server/engines/engine.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { postgresAdapter } from './adapter.ts';
import { registerPool } from './stream.ts';
import { getTypeParser, sessionOptions } from './types.ts';

/** A Kysely over a PostgreSQL pool: values arrive as exact text (see types.ts), the session runs in UTC, and the
 * server cancels any statement over the timeout. The parsers belong to this pool only, not to pg globally. */
export function openPostgres(url: string, options: EngineOptions): Kysely<DynamicSchema> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'dbui',
    options: sessionOptions,
    types: { getTypeParser },
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener that would end the process.
  pool.on('error', () => undefined);
  const db = new Kysely<DynamicSchema>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  return db;
}

/** Opens a pooled PostgreSQL connection. */
export function connectPostgres(name: string, url: string, options: EngineOptions): DatabaseEngine {
  return createTableEngine(name, postgresAdapter(openPostgres(url, options), options, name));
}
