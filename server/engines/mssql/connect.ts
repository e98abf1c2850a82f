import * as tedious from 'tedious';
import * as tarn from 'tarn';
import { Kysely, MssqlDialect } from 'kysely';
import {
  engineOf,
  type DatabaseEngine,
  type DynamicSchema,
  type EngineOptions,
} from '#server/engines/engine.ts';

/** Tedious settings from `mssql://user:password@host:port/database?encrypt=true&trustServerCertificate=true`. */
export function mssqlConnectionConfig(url: string, options: EngineOptions): tedious.ConnectionConfiguration {
  const parsed = new URL(url);
  const flag = (key: string, fallback: boolean) => {
    const v = parsed.searchParams.get(key);
    return v === null ? fallback : v === 'true' || v === '1';
  };
  return {
    server: parsed.hostname,
    authentication: {
      type: 'default',
      options: {
        userName: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
      },
    },
    options: {
      port: parsed.port ? Number(parsed.port) : 1433,
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || undefined,
      encrypt: flag('encrypt', true),
      trustServerCertificate: flag('trustServerCertificate', false),
      requestTimeout: options.statementTimeoutMs,
      connectTimeout: 5000,
    },
  };
}

/** Opens a pooled SQL Server connection; each request is cancelled after the statement timeout. */
export function connectMssql(name: string, url: string, options: EngineOptions): DatabaseEngine {
  const config = mssqlConnectionConfig(url, options);
  const dialect = new MssqlDialect({
    tarn: { ...tarn, options: { min: 0, max: options.poolSize } },
    tedious: { ...tedious, connectionFactory: () => new tedious.Connection(config) },
  });
  return engineOf(name, 'mssql', new Kysely<DynamicSchema>({ dialect }));
}
