import { defaultEngineOptions, type DatabaseEngine, type EngineKind, type EngineOptions } from './engine.ts';
import { sqliteFileOf } from './engine-url.ts';

/**
 * Opens the adapter for a registered database. Each adapter (and its driver: tedious alone takes a quarter of a
 * second to load) is imported only when a database of its kind is registered, which keeps the start fast. Pools
 * connect lazily, so a database that is down does not stop the start: health reports it down and its calls fail
 * with a clear message.
 */
export async function connectDatabase(
  name: string,
  kind: EngineKind,
  url: string,
  options: EngineOptions = defaultEngineOptions,
): Promise<DatabaseEngine> {
  switch (kind) {
    case 'sqlite':
      return (await import('./sqlite/connect.ts')).connectSqlite(name, sqliteFileOf(url), options);
    case 'postgres':
      return (await import('./postgres/connect.ts')).connectPostgres(name, url, options);
    case 'mysql':
      return (await import('./mysql/connect.ts')).connectMysql(name, url, options);
    case 'mssql':
      return (await import('./mssql/connect.ts')).connectMssql(name, url, options);
  }
}
