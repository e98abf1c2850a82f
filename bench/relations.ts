/*
 * npm run bench:relations — relations both ways (issue 37, decisions 0065 and 0067) on a parent table and a child
 * table of BENCH_ROWS rows each (default 10,000,000), in PostgreSQL and MariaDB (database `dbui_bench_relations`,
 * made once and reused while it holds the right rows; --drop drops it at the end):
 *
 *   - the Referenced-by call (POST …/bench_parent/references with a parent's key; its child rows counted on the
 *     child's index, 2 rows a parent), against the driver's own capped count (`select count(*) from (select 1 …
 *     limit 1001)`), the two in alternation; target: the call within 10 ms;
 *   - a page of 20 child rows with their foreign-key labels (`labels=1`: one query a foreign key a page) against the
 *     same page without, in alternation; target: at most 2 ms more.
 *
 * A built DBUI server (`npm run build` first, or DBUI_DIST) is started with both databases and an administrator's
 * session (bench-session.ts). Writes bench/results/relations.md and prints it. Not a test. Settings: BENCH_ROWS,
 * BENCH_RUNS (calls a measure, default 300), BENCH_TARGETS (postgres,mysql), POSTGRES_TEST_URL, MYSQL_TEST_URL,
 * DBUI_DIST.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { XSRF_HEADER } from '#server/plugins/csrf.ts';
import { freePort } from './bench-process.ts';
import { benchAdministrator, pageCall, signedInSession, type Session } from './bench-session.ts';
import { timePair, type Timing } from './bench-stats.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const TARGETS = (process.env.BENCH_TARGETS ?? 'postgres,mysql').split(',');
const DATABASE = 'dbui_bench_relations';
const DROP = process.argv.includes('--drop');
const POSTGRES = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/mysql';
const here = path.dirname(fileURLToPath(import.meta.url));
const DIST = process.env.DBUI_DIST ?? path.join(here, '..', 'dist');
const RESULTS = path.join(here, 'results', 'relations.md');
/** Child rows a parent: the children's parent_id runs over the first half of the parents. */
const CHILDREN_EACH = 2;
const REFERENCES_TARGET_MS = 10;
const LABELS_TARGET_MS = 2;

type Kind = 'postgres' | 'mysql';
const label = (kind: Kind) => (kind === 'postgres' ? 'PostgreSQL' : 'MariaDB');

function databaseUrl(kind: Kind): string {
  const url = new URL(kind === 'postgres' ? POSTGRES : MYSQL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

/** The driver's capped count of one parent's children: what the Referenced-by call does on the database. */
interface Driver {
  count(parent: number): Promise<unknown>;
  close(): Promise<void>;
}

/** Makes (or reuses) the two tables in PostgreSQL; the driver's own count. */
async function postgresTables(): Promise<Driver> {
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  const have = await client
    .query<{ n: string }>('select count(*) as n from bench_child')
    .then((r) => Number(r.rows[0]?.n))
    .catch(() => -1);
  if (have !== ROWS) {
    console.log(`PostgreSQL: making ${ROWS.toLocaleString('en-US')} parents and children (a few minutes)`);
    await client.query('drop table if exists bench_child');
    await client.query('drop table if exists bench_parent');
    await client.query('create table bench_parent (id bigint primary key, name varchar(60) not null)');
    await client.query(
      `insert into bench_parent select g, 'Parent ' || g from generate_series(1, ${ROWS}) g`,
    );
    await client.query(`create table bench_child (id bigint primary key,
      parent_id bigint not null references bench_parent (id), note varchar(60))`);
    await client.query(`insert into bench_child select g, 1 + (g % ${Math.max(1, Math.floor(ROWS / CHILDREN_EACH))}),
      'Child ' || g from generate_series(1, ${ROWS}) g`);
    await client.query('create index bench_child_parent on bench_child (parent_id)');
    await client.query('vacuum analyze bench_parent');
    await client.query('vacuum analyze bench_child');
  }
  return {
    count: (parent) =>
      client.query('select count(*) from (select 1 from bench_child where parent_id = $1 limit 1001) t', [
        parent,
      ]),
    close: () => client.end(),
  };
}

/** Makes (or reuses) the two tables in MariaDB (its sequence engine makes the rows); the driver's own count. */
async function mysqlTables(): Promise<Driver> {
  const admin = await mysql.createConnection(MYSQL);
  await admin.query(`create database if not exists ${DATABASE}`);
  await admin.end();
  const client = await mysql.createConnection(databaseUrl('mysql'));
  const have = await client
    .query('select count(*) as n from bench_child')
    .then(([rows]) => Number((rows as { n: number }[])[0]?.n))
    .catch(() => -1);
  if (have !== ROWS) {
    console.log(`MariaDB: making ${ROWS.toLocaleString('en-US')} parents and children (several minutes)`);
    await client.query('drop table if exists bench_child');
    await client.query('drop table if exists bench_parent');
    await client.query('create table bench_parent (id bigint primary key, name varchar(60) not null)');
    await client.query(`insert into bench_parent select seq, concat('Parent ', seq) from seq_1_to_${ROWS}`);
    await client.query(`create table bench_child (id bigint primary key, parent_id bigint not null,
      note varchar(60), index bench_child_parent (parent_id),
      constraint bench_child_fk foreign key (parent_id) references bench_parent (id))`);
    await client.query('set foreign_key_checks = 0');
    await client.query(`insert into bench_child select seq, 1 + (seq % ${Math.max(1, Math.floor(ROWS / CHILDREN_EACH))}),
      concat('Child ', seq) from seq_1_to_${ROWS}`);
    await client.query('set foreign_key_checks = 1');
    await client.query('analyze table bench_parent, bench_child');
  }
  return {
    count: (parent) =>
      client.query('select count(*) from (select 1 from bench_child where parent_id = ? limit 1001) t', [
        parent,
      ]),
    close: () => client.end(),
  };
}

async function startServer(dir: string, kinds: Kind[]) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(DIST, 'server', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dir,
      DATABASES: kinds.map((kind) => `${kind}=${databaseUrl(kind)}`).join(','),
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${origin}/api/health`).catch(() => null);
    if (up?.ok) break;
    if (tries > 300 || child.exitCode !== null) throw new Error('the server did not answer /api/health');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Sends a call and reads its whole answer; a failure stops the bench. */
async function send(
  origin: string,
  call: { method: string; path: string; headers: Record<string, string>; body?: string },
) {
  const answer = await fetch(`${origin}${call.path}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${call.method} ${call.path}: ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

function referencesCall(session: Session, db: Kind, schema: string, parent: number) {
  return {
    method: 'POST',
    path: `/api/sql/${db}/${encodeURIComponent(schema)}/bench_parent/references`,
    headers: {
      authorization: session.authorization,
      cookie: session.cookie,
      [XSRF_HEADER]: session.xsrf,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ id: parent }),
  };
}

const fmt = (t: Timing) => `${t.median.toFixed(2)} ms (p95 ${t.p95.toFixed(2)})`;

async function main(): Promise<void> {
  const kinds = TARGETS.filter((target): target is Kind => target === 'postgres' || target === 'mysql');
  const drivers = new Map<Kind, Driver>();
  for (const kind of kinds)
    drivers.set(kind, kind === 'postgres' ? await postgresTables() : await mysqlTables());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-bench-relations-'));
  const token = await benchAdministrator(path.join(dir, 'app.db'));
  const server = await startServer(dir, kinds);
  const lines: string[] = [];
  try {
    const session = await signedInSession(server.origin, token);
    for (const kind of kinds) {
      const driver = drivers.get(kind) as Driver;
      const schema = kind === 'postgres' ? 'public' : DATABASE;
      const parentOf = (i: number) => 1 + ((Math.abs(i) * 7919) % Math.floor(ROWS / CHILDREN_EACH));
      const first = await send(server.origin, referencesCall(session, kind, schema, parentOf(1)));
      const [dbui, bare] = await timePair(
        RUNS,
        (i) => send(server.origin, referencesCall(session, kind, schema, parentOf(i))),
        (i) => driver.count(parentOf(i)),
      );
      lines.push(
        `| ${label(kind)} | Referenced by (a parent's 2 children, counted on the index) | ${fmt(dbui)} | driver's count ${fmt(bare)} | ${REFERENCES_TARGET_MS} ms: ${dbui.median <= REFERENCES_TARGET_MS ? 'met' : 'missed'} |`,
      );
      console.log(JSON.stringify(first).slice(0, 300));
      const child = { db: kind, schema, table: 'bench_child' };
      const withLabels = pageCall(session, child, 1, {}, { labels: '1' });
      const without = pageCall(session, child, 1, {});
      const probe = await send(server.origin, withLabels).catch((error: Error) => error);
      // The labels are in the envelope's data (an answer without them is a server before decision 0067).
      if (probe instanceof Error || !('labels' in ((probe.data ?? {}) as object))) {
        lines.push(
          `| ${label(kind)} | page of 20 children with labels | not measured: the server answers no labels | | |`,
        );
        continue;
      }
      const [labelled, plain] = await timePair(
        RUNS,
        () => send(server.origin, withLabels),
        () => send(server.origin, without),
      );
      const extra = labelled.median - plain.median;
      lines.push(
        `| ${label(kind)} | page of 20 children with their parents' labels | ${fmt(labelled)} | without ${fmt(plain)}: ${extra >= 0 ? '+' : ''}${extra.toFixed(2)} ms | +${LABELS_TARGET_MS} ms: ${extra <= LABELS_TARGET_MS ? 'met' : 'missed'} |`,
      );
    }
  } finally {
    await server.stop();
    for (const driver of drivers.values()) await driver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const text = [
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)} (a shared, noisy machine); ${ROWS.toLocaleString('en-US')} parents and ${ROWS.toLocaleString('en-US')} children (${CHILDREN_EACH} a parent, an index on parent_id); ${RUNS} calls a measure, each pair in alternation, over one kept-alive connection (Node's fetch), as an administrator.`,
    '',
    '| engine | call | DBUI, median | beside | target |',
    '| --- | --- | ---: | --- | --- |',
    ...lines,
    '',
    '`npm run bench:relations` (BENCH_ROWS, BENCH_RUNS, BENCH_TARGETS).',
  ].join('\n');
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${text}\n`);
  console.log(`\n${text}\n\nwritten to ${path.relative(process.cwd(), RESULTS)}`);
  if (DROP) {
    const admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
    await admin.query(`drop database if exists ${DATABASE}`);
    await admin.end();
    const my = await mysql.createConnection(MYSQL);
    await my.query(`drop database if exists ${DATABASE}`);
    await my.end();
  }
}

await main();
