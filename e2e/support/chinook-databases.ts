import pg from 'pg';
import mysql from 'mysql2/promise';
import SQLite from 'better-sqlite3';
import { loadChinook } from '#server/test/chinook.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';

/*
 * The Chinook sample (server/test/fixtures/chinook) on the real engines for the database browser's journeys: each
 * a fresh database (PostgreSQL and MariaDB on the test servers of server/test/server-databases.ts, SQLite in the
 * temp folder), registered with a journey's DBUI server through DATABASES and dropped at the end.
 *
 * The three scripts name things differently: PostgreSQL in snake_case (customer.last_name), MariaDB and SQLite in
 * PascalCase (Customer.LastName). Journeys write the PascalCase name and ask `table()` / `column()` for the
 * engine's own. The schema is `public` on PostgreSQL, the database itself on MariaDB, `main` on SQLite.
 */

export type ChinookEngine = 'postgres' | 'mysql' | 'sqlite';

/** How the journeys name the engines in test titles. */
export const engineTitles: Record<ChinookEngine, string> = {
  postgres: 'PostgreSQL',
  mysql: 'MariaDB',
  sqlite: 'SQLite',
};

export interface ChinookDatabase {
  engine: ChinookEngine;
  /** The name DBUI registers it under (DATABASES), the {db} of /db/{db}/…. */
  name: string;
  schema: string;
  url: string;
  /** The engine's name of a Chinook table given in PascalCase: 'InvoiceLine' → 'invoice_line' on PostgreSQL. */
  table(pascal: string): string;
  /** The engine's name of a Chinook column given in PascalCase: 'LastName' → 'last_name' on PostgreSQL. */
  column(pascal: string): string;
  /** /db/{db}/{schema}/{table} of a table given in PascalCase. */
  path(pascal: string): string;
  /** The TableId {db}/{schema}/{table} a role permission names (names percent-encoded). */
  tableId(pascal: string): string;
  /** The entry of the table list for a table given in PascalCase: schema.name. */
  entry(pascal: string): string;
  /** Runs one SQL statement with `?` placeholders against the database (set-up checks only). */
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

const snake = (pascal: string) => pascal.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();

/**
 * An index on Customer.LastName, which the scripts do not have, so the search form offers a text column with the
 * "starts with" rule besides the key columns.
 */
const LAST_NAME_INDEX = 'IX_CustomerLastName';

async function addLastNameIndex(engine: ChinookEngine, database: TestDatabase): Promise<void> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`create index ${LAST_NAME_INDEX.toLowerCase()} on customer (last_name)`);
      await client.query('analyze');
    } finally {
      await client.end();
    }
  } else if (engine === 'mysql') {
    const client = await mysql.createConnection({ uri: database.url });
    try {
      await client.query(`create index ${LAST_NAME_INDEX} on Customer (LastName)`);
    } finally {
      await client.end();
    }
  } else {
    const db = new SQLite(database.url.slice('sqlite:'.length));
    try {
      db.exec(`create index ${LAST_NAME_INDEX} on Customer (LastName)`);
    } finally {
      db.close();
    }
  }
}

/** Runs `sql` (with ? placeholders) on the database once, through a connection of its own. */
async function runQuery<T>(engine: ChinookEngine, url: string, sql: string, values: unknown[]): Promise<T[]> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return (await client.query(text, values)).rows as T[];
    } finally {
      await client.end();
    }
  }
  if (engine === 'mysql') {
    const client = await mysql.createConnection({ uri: url });
    try {
      const [rows] = await client.query(sql, values);
      return rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new SQLite(url.slice('sqlite:'.length), { readonly: false });
  try {
    db.pragma('busy_timeout = 5000');
    const statement = db.prepare(sql);
    return (statement.reader ? statement.all(...values) : (statement.run(...values), [])) as T[];
  } finally {
    db.close();
  }
}

/** Creates a Chinook database on `engine`, registered in DBUI as `name` (by default chinook). */
export async function createChinook(engine: ChinookEngine, name = 'chinook'): Promise<ChinookDatabase> {
  const database = await loadChinook(engine);
  try {
    await addLastNameIndex(engine, database);
  } catch (error) {
    await database.drop();
    throw error;
  }
  const schema = engine === 'postgres' ? 'public' : engine === 'mysql' ? database.name : 'main';
  const table = (pascal: string) => (engine === 'postgres' ? snake(pascal) : pascal);
  const column = table;
  const encode = encodeURIComponent;
  return {
    engine,
    name,
    schema,
    url: database.url,
    table,
    column,
    path: (pascal) => `/db/${encode(name)}/${encode(schema)}/${encode(table(pascal))}`,
    tableId: (pascal) => `${encode(name)}/${encode(schema)}/${encode(table(pascal))}`,
    entry: (pascal) => `${schema}.${table(pascal)}`,
    query: (sql, values = []) => runQuery(engine, database.url, sql, values),
    drop: () => database.drop(),
  };
}

/** Creates one Chinook database per engine (in parallel); on a failure the ones made are dropped. */
export async function createChinooks(
  wanted: { engine: ChinookEngine; name: string }[],
): Promise<ChinookDatabase[]> {
  const settled = await Promise.allSettled(wanted.map((w) => createChinook(w.engine, w.name)));
  const made = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await dropChinooks(made);
    throw failed.reason;
  }
  return made;
}

/** Drops the databases (every one is tried; the first failure is thrown after). */
export async function dropChinooks(databases: (ChinookDatabase | undefined)[]): Promise<void> {
  const settled = await Promise.allSettled(databases.map((d) => d?.drop()));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The DATABASES variable registering the databases with a DBUI server: name=url,name=url. */
export function databasesEnv(databases: ChinookDatabase[]): { DATABASES: string } {
  return { DATABASES: databases.map((d) => `${d.name}=${d.url}`).join(',') };
}
