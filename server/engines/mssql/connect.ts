import * as tedious from 'tedious';
import * as tarn from 'tarn';
import { Kysely, MssqlDialect } from 'kysely';
import { callBudgetOf } from '#server/engines/call-deadline.ts';
import {
  scanBudgetOf,
  type DatabaseEngine,
  type DynamicSchema,
  type EngineOptions,
} from '#server/engines/engine.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { mssqlAdapter } from './adapter.ts';
import { registerConnectionConfig } from './stream.ts';

const CONNECT_TIMEOUT_MS = 5000;

/**
 * Tedious settings from `mssql://user:password@host:port/database?encrypt=true&trustServerCertificate=true`
 * (also `sqlserver://`; `instanceName=NAME` for a named instance, which then needs no port). Sessions read dates
 * in UTC (types.ts decodes with that), speak English (errors.ts reads the server's messages) and parse dates as
 * year-month-day; every request is cancelled after the statement timeout.
 */
export function mssqlConnectionConfig(url: string, options: EngineOptions): tedious.ConnectionConfiguration {
  const parsed = new URL(url);
  const flag = (key: string, fallback: boolean) => {
    const v = parsed.searchParams.get(key);
    return v === null ? fallback : v === 'true' || v === '1';
  };
  const instanceName = parsed.searchParams.get('instanceName') ?? undefined;
  return {
    server: decodeURIComponent(parsed.hostname).replace(/^\[(.*)\]$/, '$1'),
    authentication: {
      type: 'default',
      options: {
        userName: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
      },
    },
    options: {
      ...(instanceName && !parsed.port
        ? { instanceName }
        : { port: parsed.port ? Number(parsed.port) : 1433 }),
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || undefined,
      encrypt: flag('encrypt', true),
      trustServerCertificate: flag('trustServerCertificate', false),
      requestTimeout: options.statementTimeoutMs,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Kysely quotes names with double quotes: they are names only while QUOTED_IDENTIFIER is ON (tedious' default).
      enableQuotedIdentifier: true,
      useUTC: true,
      lowerCaseGuids: true,
      language: 'us_english',
      dateFormat: 'ymd',
      appName: 'DBUI',
    },
  };
}

/**
 * tarn's pool settings. tarn retries a failed connection until the acquire timeout (30 s by default) unless told to
 * propagate the error: with it, a refused connection or a failed login fails the call at once (a 503). A call
 * that waits for a busy pool's connection waits at most a call's budget (the statement timeout and the margin of
 * call-deadline.ts), then is told the database is busy.
 */
export function mssqlPoolOptions(options: EngineOptions) {
  return {
    min: 0,
    max: options.poolSize,
    propagateCreateError: true,
    createTimeoutMillis: CONNECT_TIMEOUT_MS + 1000,
    acquireTimeoutMillis: callBudgetOf(options.statementTimeoutMs),
  };
}

/** The Kysely instance over a tarn pool of tedious connections. */
export function openMssql(url: string, options: EngineOptions): Kysely<DynamicSchema> {
  const config = mssqlConnectionConfig(url, options);
  const dialect = new MssqlDialect({
    tarn: { ...tarn, options: mssqlPoolOptions(options) },
    tedious: { ...tedious, connectionFactory: () => new tedious.Connection(config) },
  });
  const db = new Kysely<DynamicSchema>({ dialect });
  registerConnectionConfig(db, config);
  return db;
}

/** Connections of the scan pool: scans are few and each is bounded, so a small pool serves them. */
const SCAN_POOL_SIZE = 2;

/** Opens a pooled SQL Server connection; each request is cancelled after the statement timeout, a scanning filter's
 * after the scan budget (on a pool of its own, opened when the first scan needs it; decision 0061). */
export function connectMssql(name: string, url: string, options: EngineOptions): DatabaseEngine {
  const db = openMssql(url, options);
  let scanDb: Kysely<DynamicSchema> | null = null;
  const scanOptions = scanPoolOptions(options);
  const engine = createTableEngine(
    name,
    mssqlAdapter(db, {
      name,
      statementTimeoutMs: options.statementTimeoutMs,
      scanTimeoutMs: scanOptions.statementTimeoutMs,
      scanDb: () => (scanDb ??= openMssql(url, scanOptions)),
    }),
  );
  return {
    ...engine,
    close: async () => {
      await Promise.all([engine.close(), scanDb?.destroy()]);
    },
  };
}

/** The scan pool's settings: its requests time out at the scan budget. */
export function scanPoolOptions(options: EngineOptions): EngineOptions {
  return {
    ...options,
    statementTimeoutMs: scanBudgetOf(options),
    poolSize: Math.min(SCAN_POOL_SIZE, options.poolSize),
  };
}
