import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { buildAdmin, type TestUser } from '#server/test/factories.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp, type TestAppOptions } from '#server/test/test-app.ts';
import { tempDir } from '#server/test/temp-dir.ts';

/*
 * The security suite's shared target: a real app with one registered database ('target') on SQLite, PostgreSQL or
 * MariaDB, holding tables whose names an attacker would choose (quotes, brackets, semicolons, slashes, percent signs,
 * spaces, Unicode) and a canary table whose rows no refused or injected call may change. Every test checks the same
 * oracles: no SQL, stack or internal error text in an answer, the canary untouched, the process healthy after.
 */

export type SecurityEngine = 'sqlite' | 'postgres' | 'mysql';

/** The engines the suite runs on: all three, or those ENGINES names. */
export const securityEngines = (process.env.ENGINES ?? 'sqlite,postgres,mysql')
  .split(',')
  .map((e) => e.trim())
  .filter((e): e is SecurityEngine => e === 'sqlite' || e === 'postgres' || e === 'mysql');

/** Table names an attacker would pick; each is legal on all three engines and is a real table in the target. */
export const HOSTILE_NAMES = [
  `it's`,
  `we"ird`,
  '[brackets]',
  'semi;colon; DROP TABLE canary; --',
  'sla/sh',
  'per%cent',
  'star*',
  'two words',
  'dot.ted',
  'back`tick',
  'ünïcödé 表',
];

/** The canary's rows: any change to them is a side effect some call should not have had. */
export const CANARY_ROWS = [
  { id: 1, name: 'alpha', note: 'first' },
  { id: 2, name: 'beta', note: 'second' },
  { id: 3, name: 'gamma', note: 'third' },
];

export interface SecurityTarget {
  t: TestApp;
  kind: SecurityEngine;
  /** The registered name of the database under attack. */
  database: 'target';
  /** The schema the tables live in: main, public, or the MariaDB database. */
  schema: string;
  /** The hostile tables: id integer primary key, name text (indexed), note text; three rows each. */
  tables: string[];
  /** The canary table's name. */
  canary: string;
  admin: TestUser;
  /** The engine the app uses for the target (test setup may query through it). */
  engine: DatabaseEngine;
  /** /api/sql/target/{schema}/{table}{rest}, each segment encoded as a browser would. */
  apiPath(table: string, rest?: string): string;
  /** Runs raw SQL on the target, for test setup and checks only. */
  run(sqlText: string): Promise<unknown[]>;
  /** Fails unless the canary still holds exactly its three rows. */
  expectCanaryIntact(): Promise<void>;
  close(): Promise<void>;
}

/** Quotes an identifier for the engine (test setup only: the names are ours). */
export function quoteName(kind: SecurityEngine, name: string): string {
  return kind === 'mysql' ? `\`${name.replaceAll('`', '``')}\`` : `"${name.replaceAll('"', '""')}"`;
}

const textType = (kind: SecurityEngine) => (kind === 'mysql' ? 'varchar(200)' : 'text');

async function createDatabase(kind: SecurityEngine): Promise<TestDatabase> {
  if (kind === 'postgres') return createPostgresDatabase('dbui_sec');
  if (kind === 'mysql') return createMysqlDatabase('dbui_sec');
  const dir = tempDir('dbui-sec-');
  const file = `${dir.path}/target.db`;
  new SQLite(file).close();
  return { name: 'target', url: `sqlite:${file}`, drop: async () => dir.remove() };
}

/** Builds the app with the target database, its hostile tables and the canary, and an administrator. */
export async function openSecurityTarget(
  kind: SecurityEngine,
  options: TestAppOptions = {},
): Promise<SecurityTarget> {
  const database = await createDatabase(kind);
  const engine = await connectDatabase('target', kind, database.url);
  const run = async (sqlText: string) => (await sql.raw(sqlText).execute(engine.db)).rows;
  const schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : database.name;
  const q = (name: string) => quoteName(kind, name);
  const text = textType(kind);
  const create = async (table: string, rows: { id: number; name: string; note: string }[]) => {
    await run(`CREATE TABLE ${q(table)} (id integer primary key, name ${text} not null, note ${text})`);
    // Index names are ours; the table's own name may not fit an index name.
    await run(
      `CREATE INDEX ${q(`ix_${rows.length}_${Math.random().toString(36).slice(2)}`)} ON ${q(table)} (name)`,
    );
    for (const row of rows)
      await run(
        `INSERT INTO ${q(table)} (id, name, note) VALUES (${row.id}, '${row.name.replaceAll("'", "''")}', '${row.note}')`,
      );
  };
  await create('canary', CANARY_ROWS);
  for (const table of HOSTILE_NAMES)
    await create(table, [
      { id: 1, name: `${table} one`, note: 'a' },
      { id: 2, name: `${table} two`, note: 'b' },
      { id: 3, name: `${table} three`, note: 'c' },
    ]);

  const t = await buildTestApp({ ...options, databases: [engine, ...(options.databases ?? [])] });
  const admin = await buildAdmin(t);
  const encode = (segment: string) => encodeURIComponent(segment);
  return {
    t,
    kind,
    database: 'target',
    schema,
    tables: HOSTILE_NAMES,
    canary: 'canary',
    admin,
    engine,
    apiPath: (table, rest = '') => `/api/sql/target/${encode(schema)}/${encode(table)}${rest}`,
    run,
    async expectCanaryIntact() {
      const rows = (await run(`SELECT id, name, note FROM ${q('canary')} ORDER BY id`)) as {
        id: number | string;
        name: string;
        note: string;
      }[];
      expect(rows.map((r) => ({ ...r, id: Number(r.id) }))).toEqual(CANARY_ROWS);
    },
    async close() {
      await t.close();
      await database.drop();
    },
  };
}

/** Words and shapes that only internal error text has: SQL, stack frames, driver codes, JavaScript error names. */
const LEAKS = [
  /\bselect\s+[\w"`*]/i,
  /\binsert\s+into\b/i,
  /\bupdate\s+\S+\s+set\b/i,
  /\bdelete\s+from\b/i,
  /\bdrop\s+table\b/i,
  /\n\s+at\s/,
  /\bat\s+\S+\s+\(\S+:\d+:\d+\)/,
  /node_modules|\/server\/|\.ts:\d+/,
  /\b(?:ER_[A-Z_]+|SQLITE_[A-Z]+|ECONNREFUSED|ETIMEDOUT)\b/,
  /\b(?:TypeError|RangeError|ReferenceError|SyntaxError)\b/,
  /Maximum call stack/i,
  /syntax error at or near|You have an error in your SQL syntax/i,
];

/** Fails when an answer carries internal text. The hostile names themselves may appear (a table's own name is
 * not a leak), so a name is removed before the check. */
export function expectNoLeak(answer: string | { body: string }): void {
  let body = typeof answer === 'string' ? answer : answer.body;
  for (const name of HOSTILE_NAMES) body = body.replaceAll(name, '');
  for (const leak of LEAKS) expect(body, `answer leaks internal text (${String(leak)})`).not.toMatch(leak);
}

/** Fails unless the app still answers: health, and an administrator reading the canary's first page. */
export async function expectHealthy(target: SecurityTarget): Promise<void> {
  const health = await target.t.app.inject({ method: 'GET', url: '/api/health' });
  expect(health.statusCode, health.body).toBe(200);
  const page = await target.t.app.inject({
    method: 'GET',
    url: target.apiPath(target.canary, '/page/1'),
    headers: target.admin.headers,
  });
  expect(page.statusCode, page.body).toBe(200);
}
