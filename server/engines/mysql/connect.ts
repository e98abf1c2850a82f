import { createPool } from 'mysql2';
import { Kysely, MysqlDialect } from 'kysely';
import {
  engineOf,
  type DatabaseEngine,
  type DynamicSchema,
  type EngineOptions,
} from '#server/engines/engine.ts';

/** Opens a pooled MySQL or MariaDB connection with a per-session statement timeout. */
export function connectMysql(name: string, url: string, options: EngineOptions): DatabaseEngine {
  const pool = createPool({
    uri: url,
    connectionLimit: options.poolSize,
    connectTimeout: 5000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    timezone: 'Z',
  });
  const seconds = Math.max(1, Math.ceil(options.statementTimeoutMs / 1000));
  pool.on('connection', (connection) => {
    // MariaDB spells it max_statement_time (seconds), MySQL max_execution_time (ms, SELECT only); set what exists.
    connection.query(`SET SESSION max_statement_time = ${seconds}`, (error) => {
      if (error) connection.query(`SET SESSION max_execution_time = ${seconds * 1000}`, () => undefined);
    });
  });
  return engineOf(name, 'mysql', new Kysely<DynamicSchema>({ dialect: new MysqlDialect({ pool }) }));
}
