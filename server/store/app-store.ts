import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type MigrationResult,
} from 'kysely';
import { migrations } from './migrations/index.ts';
import { cachingStatements, keepDirectStatements, type CachedStatements } from './statement-cache.ts';
import type { AppDatabase } from './schema.ts';

/** The server's own database: users, roles, sessions, codes, export jobs, audit log. */
export interface AppStore {
  db: Kysely<AppDatabase>;
  kind: 'sqlite' | 'postgres';
  /** Throws when the store does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Where the app store lives: an SQLite file or a PostgreSQL URL. */
export type AppStoreTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Opens the app store; does not migrate. */
export function openAppStore(target: AppStoreTarget): AppStore {
  let db: Kysely<AppDatabase>;
  if (target.kind === 'sqlite') {
    const database = openSqliteFile(target.file);
    // Each statement compiled once, not at every query (statement-cache.ts).
    const statements = cachingStatements(database);
    db = new Kysely<AppDatabase>({ dialect: new StoreSqliteDialect(database, statements) });
    keepDirectStatements(db, statements);
  } else {
    // pg is loaded when the pool is first needed: a start on the default SQLite store does not read it (58-72 ms of
    // a later start on a slow machine, issue 17 target 6; decision 0002).
    db = new Kysely<AppDatabase>({ dialect: new PostgresDialect({ pool: () => postgresPool(target.url) }) });
  }
  return {
    db,
    kind: target.kind,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/** The PostgreSQL app store's pool. An idle connection that the server ends (a restart, an administrator's
 * pg_terminate_backend) emits 'error' on the pool, which would end the process without a listener; the next query
 * simply opens a new connection. */
async function postgresPool(url: string): Promise<pg.Pool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Kysely's SQLite driver, except that it does not roll back a transaction SQLite has rolled back itself, as it does
 * after a full disk or an I/O error: that ROLLBACK would fail ("no transaction is active") and its error would hide
 * the one that says what happened (store/unwritable.ts).
 */
class StoreSqliteDriver extends SqliteDriver {
  readonly #database: SQLite.Database;

  constructor(database: SQLite.Database, statements: CachedStatements) {
    super({ database: statements });
    this.#database = database;
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#database.inTransaction) await super.rollbackTransaction(connection);
  }
}

class StoreSqliteDialect extends SqliteDialect {
  readonly #database: SQLite.Database;
  readonly #statements: CachedStatements;

  constructor(database: SQLite.Database, statements: CachedStatements) {
    super({ database: statements });
    this.#database = database;
    this.#statements = statements;
  }

  override createDriver(): Driver {
    return new StoreSqliteDriver(this.#database, this.#statements);
  }
}

/** Where Kysely's Migrator records the applied migrations. */
const MIGRATION_TABLE = 'dbui_migrations';

function openSqliteFile(file: string): SQLite.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  return database;
}

/** True when the store has recorded exactly this build's migrations: one read, where Kysely's Migrator first
 * introspects every table of the store (10-15 ms of each later start). Anything else (a store without the table,
 * one that cannot be read, one with a migration this build does not know, which the Migrator refuses) is left to
 * the Migrator. */
async function migrationsComplete(store: AppStore): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)}`.execute(
      store.db,
    );
    const known = new Set(Object.keys(migrations));
    return rows.length === known.size && rows.every((row) => known.has(row.name));
  } catch {
    return false;
  }
}

/** The migrations of this build the store has not recorded (`pending`, in order), and those it recorded that this
 * build does not know (`unknown`: a newer DBUI migrated it). A store without the migrations table has all pending. */
export async function migrationState(store: AppStore): Promise<{ pending: string[]; unknown: string[] }> {
  let applied: string[] = [];
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)}`.execute(
      store.db,
    );
    applied = rows.map((row) => row.name);
  } catch (error) {
    // No table yet (a new store); anything else (a store that does not answer) is the caller's to tell.
    if (!(await hasNoMigrationTable(store))) throw error;
  }
  const known = Object.keys(migrations).sort();
  return {
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)).sort(),
  };
}

async function hasNoMigrationTable(store: AppStore): Promise<boolean> {
  const tables = await store.db.introspection.getTables();
  return !tables.some((table) => table.name === MIGRATION_TABLE);
}

/** Runs every migration not yet applied; throws with the failing migration's name. */
export async function migrateAppStore(store: AppStore): Promise<MigrationResult[]> {
  if (await migrationsComplete(store)) return [];
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: 'dbui_migrations_lock',
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `App store migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return results;
}
