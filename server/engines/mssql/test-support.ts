import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as tarn from 'tarn';
import * as tedious from 'tedious';
import {
  Kysely,
  MssqlAdapter,
  MssqlDialect,
  MssqlIntrospector,
  MssqlQueryCompiler,
  sql,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { CatalogTable } from '#server/engines/adapter.ts';
import { columnDefault } from '#server/engines/column-defaults.ts';
import { defaultEngineOptions, type DynamicSchema } from '#server/engines/engine.ts';
import { openMssql } from './connect.ts';

/*
 * Test helpers. No SQL Server runs here or in CI: most tests compile SQL with a Kysely whose connection factory is
 * never called, or run the adapter against a recording driver that answers canned rows. The live tests (MSSQL_URL)
 * load Chinook into a database of their own.
 */

/** A Kysely over the SQL Server dialect that compiles queries and never connects. */
export function compileOnlyDb(): Kysely<DynamicSchema> {
  return new Kysely<DynamicSchema>({
    dialect: new MssqlDialect({
      tarn: { ...tarn, options: { min: 0, max: 1 } },
      tedious: {
        ...tedious,
        connectionFactory: () => {
          throw new Error('compileOnlyDb never connects');
        },
      },
    }),
  });
}

/** A query as the driver received it. */
export interface RecordedQuery {
  sql: string;
  parameters: readonly unknown[];
}

/** What the recording driver answers for a query: rows, or an error to throw. */
export type Answer = (query: RecordedQuery) => Record<string, unknown>[] | Error;

/** A Kysely over the SQL Server dialect whose driver records every query and answers from `answer`. */
export function recordingDb(answer: Answer): { db: Kysely<DynamicSchema>; queries: RecordedQuery[] } {
  const queries: RecordedQuery[] = [];
  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: {
      sql: string;
      parameters: readonly unknown[];
    }): Promise<QueryResult<R>> {
      const query = { sql: compiled.sql, parameters: compiled.parameters };
      queries.push(query);
      const result = answer(query);
      if (result instanceof Error) throw result;
      return { rows: result as R[] };
    },
    streamQuery() {
      throw new Error('not recorded');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    // Savepoints (an import's batches, import-writes.ts) recorded as the statements tedious would send.
    savepoint: async (_connection, name) => {
      queries.push({ sql: `save transaction ${name}`, parameters: [] });
    },
    rollbackToSavepoint: async (_connection, name) => {
      queries.push({ sql: `rollback transaction ${name}`, parameters: [] });
    },
    releaseSavepoint: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<DynamicSchema>({
    dialect: {
      createAdapter: () => new MssqlAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new MssqlIntrospector(k),
      createQueryCompiler: () => new MssqlQueryCompiler(),
    },
  });
  return { db, queries };
}

/** SQL with its whitespace runs made single spaces, for comparisons. */
export const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A column with the fields the adapter reads; the rest take neutral values. */
export function columnWith(fields: Partial<Column> & Pick<Column, 'type' | 'typeGroup'>): Column {
  return {
    id: 1,
    name: 'Value',
    maxLength: 0,
    precision: 0,
    scale: 0,
    isNullable: true,
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isGuid: false,
    isIdentity: false,
    isHidden: false,
    isComputed: false,
    isPrimaryKey: false,
    defaultValue: null,
    defaultConstant: null,
    defaultIsExpression: false,
    ...fields,
  };
}

/** A catalog column as the generic engine would complete it (the derived flags do not matter to the adapter). */
export function columnOf(tables: CatalogTable[], table: string, column: string): Column {
  const found = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
  if (!found) throw new Error(`${table}.${column} is not in the catalog`);
  const { defaultLiteral, ...read } = found;
  return {
    ...read,
    ...columnDefault(read, defaultLiteral),
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isPrimaryKey: false,
  };
}

/** The catalog table by name, or a failure naming it. */
export function tableOf(tables: CatalogTable[], name: string): CatalogTable {
  const found = tables.find((t) => t.name === name);
  if (!found) throw new Error(`${name} is not in the catalog`);
  return found;
}

/** A database made for one live test: its URL and how to drop it. */
export interface MssqlTestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the server of MSSQL_URL (any database in that URL is only where we log in). */
export async function createMssqlDatabase(
  serverUrl: string,
  prefix = 'dbui_test',
): Promise<MssqlTestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = openMssql(withDatabase(serverUrl, 'master'), { ...defaultEngineOptions, poolSize: 1 });
  try {
    await sql`create database ${bracketed(name)}`.execute(admin);
  } finally {
    await admin.destroy();
  }
  return {
    name,
    url: withDatabase(serverUrl, name),
    async drop() {
      const db = openMssql(withDatabase(serverUrl, 'master'), { ...defaultEngineOptions, poolSize: 1 });
      try {
        await sql`if db_id(${name}) is not null alter database ${bracketed(name)} set single_user with rollback immediate`.execute(
          db,
        );
        await sql`if db_id(${name}) is not null drop database ${bracketed(name)}`.execute(db);
      } finally {
        await db.destroy();
      }
    },
  };
}

/** [name] for a database name we generated (letters, digits, _ only): an identifier cannot be a bound parameter. */
function bracketed(name: string) {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a generated database name: ${name}`);
  return sql.raw(`[${name}]`);
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const chinookScript = path.join(
  import.meta.dirname,
  '..',
  '..',
  'test',
  'fixtures',
  'chinook',
  'Chinook_SqlServer_AutoIncrementPKs.sql',
);

/**
 * The batches of the Chinook script that build its tables: the script is split on lines that are exactly GO, and
 * its first part (drop, create and use its own database) is skipped; the tables go into the test's database.
 */
export function chinookBatches(): string[] {
  const batches = fs
    .readFileSync(chinookScript, 'utf8')
    .split(/^GO\r?$/m)
    .map((batch) => batch.trim())
    .filter((batch) => batch !== '');
  const first = batches.findIndex((batch) => /CREATE TABLE/i.test(batch));
  if (first < 0)
    throw new Error('Chinook_SqlServer_AutoIncrementPKs.sql: cannot find where the tables start');
  return batches.slice(first);
}

/** A fresh database with the Chinook sample. */
export async function loadMssqlChinook(serverUrl: string): Promise<MssqlTestDatabase> {
  const database = await createMssqlDatabase(serverUrl, 'dbui_chinook');
  const db = openMssql(database.url, { statementTimeoutMs: 120_000, poolSize: 1 });
  try {
    // The fixture's own batches, run as they are (test data, not input).
    for (const batch of chinookBatches()) await sql.raw(batch).execute(db);
  } catch (error) {
    await db.destroy();
    await database.drop();
    throw error;
  }
  await db.destroy();
  return database;
}
