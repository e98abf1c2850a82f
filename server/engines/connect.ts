import { connectMssql } from './mssql/connect.ts';
import { connectMysql } from './mysql/connect.ts';
import { connectPostgres } from './postgres/connect.ts';
import { connectSqlite } from './sqlite/connect.ts';
import { defaultEngineOptions, type DatabaseEngine, type EngineKind, type EngineOptions } from './engine.ts';
import { sqliteFileOf } from './engine-url.ts';

/** Opens the adapter for a registered database. Pools connect lazily, so a database that is down does not stop
 * the start: health reports it down and its calls fail with a clear message. */
export function connectDatabase(
  name: string,
  kind: EngineKind,
  url: string,
  options: EngineOptions = defaultEngineOptions,
): DatabaseEngine {
  switch (kind) {
    case 'sqlite':
      return connectSqlite(name, sqliteFileOf(url));
    case 'postgres':
      return connectPostgres(name, url, options);
    case 'mysql':
      return connectMysql(name, url, options);
    case 'mssql':
      return connectMssql(name, url, options);
  }
}
