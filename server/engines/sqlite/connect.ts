import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { engineOf, type DatabaseEngine, type DynamicSchema } from '#server/engines/engine.ts';

/** Opens an SQLite file people browse. The file must exist: we never create an empty database by typo. */
export function connectSqlite(name: string, file: string): DatabaseEngine {
  const database = new SQLite(file, { fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return engineOf(name, 'sqlite', new Kysely<DynamicSchema>({ dialect: new SqliteDialect({ database }) }));
}
