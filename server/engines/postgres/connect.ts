import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import {
  engineOf,
  type DatabaseEngine,
  type DynamicSchema,
  type EngineOptions,
} from '#server/engines/engine.ts';

/** Opens a pooled PostgreSQL connection; the server cancels any statement over the timeout. */
export function connectPostgres(name: string, url: string, options: EngineOptions): DatabaseEngine {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'dbui',
  });
  // An idle client losing its connection emits 'error' on the pool; without a listener that would end the process.
  pool.on('error', () => undefined);
  return engineOf(name, 'postgres', new Kysely<DynamicSchema>({ dialect: new PostgresDialect({ pool }) }));
}
