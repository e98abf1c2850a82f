import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DatabaseEngine, DynamicSchema, EngineOptions } from '#server/engines/engine.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { sqliteAdapter } from './adapter.ts';

/**
 * Opens an SQLite file people browse. The file must exist: we never create an empty database by typo. SQLite runs
 * in-process and cannot be interrupted, so it has no statement timeout: every query DBUI sends is bounded by an
 * index and a LIMIT instead (docs/decisions/0004-engine-layer.md), and a filter that no index serves runs on a
 * worker thread that stops itself at the scan budget (scan.ts, decision 0061).
 */
export function connectSqlite(
  name: string,
  file: string,
  options: Pick<EngineOptions, 'scanTimeoutMs'> = {},
): DatabaseEngine {
  const database = new SQLite(file, { fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.defaultSafeIntegers(true);
  const db = new Kysely<DynamicSchema>({ dialect: new SqliteDialect({ database }) });
  return createTableEngine(name, sqliteAdapter(db, file, options));
}
