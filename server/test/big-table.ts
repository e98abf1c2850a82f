import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { Filter } from '#common/contract/filter.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import type { SuiteEngine } from './engine-suite.ts';
import { createMysqlDatabase, createPostgresDatabase, type TestDatabase } from './server-databases.ts';
import { tempDir } from './temp-dir.ts';

/*
 * A generated table of a few million rows for the scan budget's tests (issue 35, decision 0061): `dbui_big (id, label,
 * n)`, its label an md5-like text no index serves, `n` (id % 1000) indexed. The engine suite (scan-budget.db.test.ts)
 * and the filter calls' API test (filter-api.db.test.ts) stop scans on it and check nothing is left running.
 */

/** Rows of the generated table per engine: enough that the scanning filter below runs past a small budget. */
export const BIG_TABLE_ROWS: Record<SuiteEngine, number> = {
  sqlite: 2_000_000,
  postgres: 3_000_000,
  mysql: 2_000_000,
};

/** What no generated label holds. */
const MARK = 'zq_never';

/** Eight patterns no md5 text holds: every row is examined eight times over. */
export const bigTableScan: Filter = {
  or: Array.from({ length: 8 }, (_, i) => ({ column: 'label', op: 'contains', value: `${MARK}${i}` })),
};

/** Ten digits 0-9, crossed with itself: MariaDB's recursive CTEs stop at 1,000 levels, a cross join does not. */
const DIGITS = 'with recursive d(x) as (select 0 union all select x + 1 from d where x < 9)';

/** The schema the generated table lives in. */
export const bigTableSchema = (kind: SuiteEngine, database: TestDatabase) =>
  kind === 'mysql' ? database.name : kind === 'postgres' ? 'public' : 'main';

/** A fresh database of the engine holding `dbui_big`, analysed; drop it after. */
export async function createBigTable(kind: SuiteEngine): Promise<TestDatabase> {
  const rows = BIG_TABLE_ROWS[kind];
  if (kind === 'sqlite') {
    const dir = tempDir('dbui-scan-');
    const file = path.join(dir.path, 'big.db');
    const db = new SQLite(file);
    db.exec(`create table dbui_big (id integer primary key, label varchar(40) not null, n int not null);
      with recursive g(i) as (select 1 union all select i + 1 from g where i < ${rows})
      insert into dbui_big select i, hex(randomblob(16)), i % 1000 from g;
      create index ix_big_n on dbui_big (n);`);
    db.close();
    return { name: 'big', url: `sqlite:${file}`, drop: async () => dir.remove() };
  }
  if (kind === 'postgres') {
    const database = await createPostgresDatabase('scan');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(
        `create table dbui_big (id bigint primary key, label varchar(40) not null, n int not null)`,
      );
      await client.query(
        `insert into dbui_big select g, md5(g::text), g % 1000 from generate_series(1, ${rows}) g`,
      );
      await client.query('create index ix_big_n on dbui_big (n)');
      await client.query('analyze dbui_big');
    } finally {
      await client.end();
    }
    return database;
  }
  const database = await createMysqlDatabase('scan');
  const client = await mysql.createConnection({ uri: database.url });
  try {
    await client.query(
      'create table dbui_big (id bigint primary key, label varchar(40) not null, n int not null) engine=InnoDB',
    );
    await client.query(`insert into dbui_big (id, label, n) ${DIGITS}
      select id, md5(id), id % 1000 from (
        select 1 + a.x + 10 * b.x + 100 * c.x + 1000 * e.x + 10000 * f.x + 100000 * g.x + 1000000 * h.x as id
        from d a, d b, d c, d e, d f, d g, d h where h.x < ${rows / 1_000_000}) ids`);
    await client.query('create index ix_big_n on dbui_big (n)');
    await client.query('analyze table dbui_big');
  } finally {
    await client.end();
  }
  return database;
}

/** The statements on `dbui_big` still running on the database server, asked through `engine`'s own connection
 * (pg_stat_activity, information_schema.processlist); none on SQLite, which runs in the process. */
export async function runningOnBigTable(kind: SuiteEngine, engine: DatabaseEngine): Promise<number> {
  if (kind === 'postgres') {
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from pg_stat_activity
      where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
        and query like '%dbui_big%' and query not like '%pg_stat_activity%'`.execute(engine.db);
    return Number(rows[0]?.n);
  }
  if (kind === 'mysql') {
    const { rows } = await sql<{
      n: string | number;
    }>`select count(*) as n from information_schema.processlist
      where db = database() and command = 'Query' and id <> connection_id()
        and info like '%dbui_big%' and info not like '%processlist%'`.execute(engine.db);
    return Number(rows[0]?.n);
  }
  return 0;
}
