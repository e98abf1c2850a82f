/*
 * npm run bench:labels — what foreign-key labels add to a page (issue 37, docs/decisions/0067-foreign-key-labels.md).
 * The issue's target: a page of 20 rows with labels at most 2 ms slower than the page without them.
 *
 * A child table of BENCH_ROWS rows (default 1,000,000) whose `parent_id` points at a parent table of as many rows
 * (`bench_parents`: id, name), each row of a page at a different parent, so a page of 20 carries 20 distinct keys to
 * label; in PostgreSQL and MariaDB, in the database BENCH_DATABASE (default dbui_bench_labels), made once and reused
 * while it holds the asked rows. The app runs in this process (the tests' app, a fresh SQLite app store) and is asked
 * through Fastify's inject, so the figure is the server's own work, the network left out: GET …/page/1 and a page
 * sorted by `-id` deep in the table (page 10,000 by number), each with and without `?labels=1`, in alternation
 * (timePair), BENCH_RUNS times (default 300). Writes bench/results/labels.md and prints it. Not a test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { buildAdmin } from '#server/test/factories.ts';
import { buildTestApp } from '#server/test/test-app.ts';
import { ms, timePair, type Timing } from './bench-stats.ts';
import { checkedDatabaseName, databaseUrl } from './http-tables.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const DATABASE = checkedDatabaseName(process.env.BENCH_DATABASE ?? 'dbui_bench_labels');
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres,mysql').split(',') as ('postgres' | 'mysql')[];
const POSTGRES = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/mysql';
const RESULTS = process.env.BENCH_RESULTS ?? path.join(ROOT, 'bench/results/labels.md');

/** Child row i points at parent (i * 7919) mod ROWS + 1: a prime step, so neighbours point at different parents. */
const parentOf = (column: string) => `((${column} * 7919) % ${ROWS}) + 1`;

async function ensurePostgres(): Promise<string> {
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const url = databaseUrl(POSTGRES, DATABASE);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const have = await client
      .query('select count(*) as n from bench_children')
      .then((r) => Number(r.rows[0].n))
      .catch(() => 0);
    if (have !== ROWS) {
      console.log(`postgres: generating ${ROWS.toLocaleString('en-US')} parents and children…`);
      await client.query('drop table if exists bench_children; drop table if exists bench_parents');
      await client.query('create table bench_parents (id bigint primary key, name varchar(100) not null)');
      await client.query(
        `insert into bench_parents select g, 'Parent ' || g from generate_series(1, ${ROWS}) g`,
      );
      await client.query(
        'create table bench_children (id bigint primary key, parent_id bigint not null, note varchar(40), ' +
          'constraint fk_children_parent foreign key (parent_id) references bench_parents (id))',
      );
      await client.query(
        `insert into bench_children select g, ${parentOf('g::bigint')}, 'Child ' || g from generate_series(1, ${ROWS}) g`,
      );
      await client.query('create index ix_children_parent on bench_children (parent_id)');
      await client.query('analyze');
    }
  } finally {
    await client.end();
  }
  return url;
}

async function ensureMariadb(): Promise<string> {
  const admin = await mysql.createConnection({ uri: MYSQL });
  await admin.query(`create database if not exists ${DATABASE}`);
  await admin.end();
  const url = databaseUrl(MYSQL, DATABASE);
  const connection = await mysql.createConnection({ uri: url });
  try {
    const have = await connection
      .query('select count(*) as n from bench_children')
      .then(([rows]) => Number((rows as { n: number }[])[0]?.n))
      .catch(() => 0);
    if (have !== ROWS) {
      console.log(`mysql: generating ${ROWS.toLocaleString('en-US')} parents and children…`);
      await connection.query('drop table if exists bench_children');
      await connection.query('drop table if exists bench_parents');
      await connection.query(
        'create table bench_parents (id bigint primary key, name varchar(100) not null)',
      );
      await connection.query(
        `insert into bench_parents select seq, concat('Parent ', seq) from seq_1_to_${ROWS}`,
      );
      await connection.query(
        'create table bench_children (id bigint primary key, parent_id bigint not null, note varchar(40), ' +
          'constraint fk_children_parent foreign key (parent_id) references bench_parents (id))',
      );
      await connection.query(
        `insert into bench_children select seq, ${parentOf('seq')}, concat('Child ', seq) from seq_1_to_${ROWS}`,
      );
    }
  } finally {
    await connection.end();
  }
  return url;
}

interface Line {
  target: string;
  page: string;
  without: Timing;
  with: Timing;
}

async function measure(kind: 'postgres' | 'mysql', url: string): Promise<Line[]> {
  const engine: DatabaseEngine = await connectDatabase('bench', kind, url);
  await engine.catalog({ refresh: true });
  const t = await buildTestApp({ databases: [engine] });
  try {
    const admin = await buildAdmin(t);
    const schema = kind === 'postgres' ? 'public' : DATABASE;
    const at = (query: string) => `/api/sql/bench/${schema}/bench_children/${query}`;
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers: admin.headers });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response;
    };
    // A check that the labels are there: 20 distinct parents on the first page.
    const sample = (await get(at('page/1?labels=1'))).json<{ data: { labels: { values: unknown[] }[] } }>();
    const labelled = sample.data.labels[0]?.values.length ?? 0;
    if (labelled !== 20) throw new Error(`${kind}: the first page carries ${labelled} labels, not 20.`);
    const lines: Line[] = [];
    for (const [page, query] of [
      ['page 1 (20 rows)', 'page/1?pageSize=20'],
      ['page 10,000 by number, -id', 'page/10000?pageSize=20&orderBy=-id'],
    ] as const) {
      const [without, withLabels] = await timePair(
        RUNS,
        () => get(at(query)),
        () => get(at(`${query}&labels=1`)),
        10,
      );
      lines.push({ target: kind, page, without, with: withLabels });
    }
    return lines;
  } finally {
    await t.close();
    await engine.close();
  }
}

async function main() {
  const loadBefore = os.loadavg()[0] ?? 0;
  const lines: Line[] = [];
  for (const target of TARGETS) {
    const url = target === 'postgres' ? await ensurePostgres() : await ensureMariadb();
    lines.push(...(await measure(target, url)));
  }
  const row = (line: Line) => {
    const added = line.with.median - line.without.median;
    return (
      `| ${line.target} | ${line.page} | ${ms(line.without.median)} / ${ms(line.without.p95)} | ` +
      `${ms(line.with.median)} / ${ms(line.with.p95)} | ${added >= 0 ? '+' : ''}${ms(added)} | ` +
      `${added <= 2 ? 'yes' : 'no'} |`
    );
  };
  const text = [
    '# Foreign-key labels (npm run bench:labels)',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${ROWS.toLocaleString('en-US')} child rows pointing at as many ` +
      `parents, ${RUNS} runs a side in alternation, in-process (Fastify inject: the server's work, no network). ` +
      'Milliseconds, median / p95. Target (issue 37): with labels ≤ without + 2 ms. 1-minute load average ' +
      `${loadBefore.toFixed(2)} before, ${(os.loadavg()[0] ?? 0).toFixed(2)} after.`,
    '',
    '| engine | page | without labels | with labels | added (median) | within target |',
    '| --- | --- | --- | --- | --- | --- |',
    ...lines.map(row),
    '',
  ].join('\n');
  fs.writeFileSync(RESULTS, text);
  console.log(text);
}

await main();
