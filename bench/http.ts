/*
 * npm run bench:http — DBUI over HTTP as people and their scripts call it, next to the physical floor. A built DBUI
 * server (`node dist/server/main.js`, what `npm start` runs; `npm run build` first, or DBUI_DIST naming a private copy
 * of dist/) is started as a process of its own with the demo database (SQLite, `order_lines`, 105,416 rows) and the
 * 10-million-row `bench_rows` tables of bench:engines in PostgreSQL and MariaDB (database `dbui_bench`, made once and
 * reused), logging at LOG_LEVEL=info into a file as an operator would. Measured with autocannon over loopback:
 *
 *   - latency per operation, the browser's own calls (POST …/page/{n}/search with the encoded filter, GET for the
 *     table list): first page, sorted page (-created_at), filtered page (name starts with, an indexed column; on the
 *     demo, product_id equals), the page after page 50,000 (Next: seeking by the cursor of page 50,000's answer,
 *     sent back as ?cursor=), page 100,001 by number, the last page, the table list. Each
 *     with one kept-alive connection (autocannon -c 1, pipelining 1) and with a fresh connection per request (a loop
 *     of single requests through node:http with no agent, timed from the connect to the last byte); medians and p99
 *     of every request's own time (autocannon's histogram keeps whole milliseconds only);
 *   - the same statements through the bare driver in this process (pg, mysql2, better-sqlite3), so each operation
 *     shows what DBUI adds to the driver;
 *   - throughput of the first page at 10, 50 and 200 connections (the demo at 50), DBUI and a minimal server
 *     (bench/http-minimal.ts: node:http, the same driver with a pool of 10, the same SQL, JSON.stringify) and the
 *     Fastify floor (the same answer through Fastify with its logging) take turns in 3 rounds at each level (each
 *     round in another order, each run counting 5 s after 3 s of uncounted load): requests a second (the median of
 *     the rounds), each round's ratio to the minimal server (two shared cores drift by tens of per cent over
 *     minutes, the minimal server too, so a ratio compares runs seconds apart), p99 and CPU a request, with DBUI's
 *     resident memory sampled every 100 ms;
 *   - a later start (the app store already migrated): from spawn to the first 200 on /api/health.
 *
 * The session: an administrator with a live session written into the app store before the server starts
 * (bench-session.ts benchAdministrator, as bench:web and bench:export do), sent as `Authorization: Bearer` like the
 * web app, with the XSRF cookie and header the server hands out on a GET. Signing in through the API with a second
 * factor would only add rows to the same tables; every request pays for the session lookup the same way.
 *
 * Writes bench/results/http.md and prints it. Not a test. Settings:
 *   BENCH_ROWS (default 10,000,000; deep pages scale down on smaller tables), BENCH_DATABASE (default dbui_bench),
 *   BENCH_DURATION (seconds per latency run, default 10), BENCH_TARGETS (demo,postgres,mysql),
 *   BENCH_OPS (first,sorted,filtered,neighbour,number,last,tables,throughput), BENCH_CONNECTIONS (10,50,200),
 *   BENCH_STARTS (later starts timed, default 3), BENCH_SETTLE (seconds each throughput run's load runs uncounted
 *   first, default 3), BENCH_ROUNDS (throughput rounds a level, default 3), BENCH_ROUND_SECONDS (counted seconds
 *   of each throughput run, default 5), BENCH_RESULTS (the file written, default bench/results/http.md),
 *   POSTGRES_TEST_URL, MYSQL_TEST_URL, DBUI_DIST, BENCH_SERVER_FLAGS (Node flags for DBUI's server, such as
 *   `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_MINIMAL_FLAGS (the same for the minimal server and the
 *   Fastify floor).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import mysql from 'mysql2/promise';
import Sqlite from 'better-sqlite3';
import { ensureDemoDatabase } from '#server/demo/demo-database.ts';
import {
  BENCH_PAGE_SIZE as PAGE_SIZE,
  benchAdministrator,
  pageCall,
  signedInSession,
  type Session,
} from './bench-session.ts';
import { median, ms } from './bench-stats.ts';
import { loadRun, loadRunWithCpu, summarise, type Call, type Summary } from './bench-load.ts';
import { freePort, serverPidOf, startProcess, stopProcess, type Started } from './bench-process.ts';
import type { MinimalServerSettings } from './http-minimal.ts';
import { BENCH_TABLE, checkedDatabaseName, ensureMariadbRows, ensurePostgresRows } from './http-tables.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DATABASE = checkedDatabaseName(process.env.BENCH_DATABASE ?? 'dbui_bench');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const TARGETS = (process.env.BENCH_TARGETS ?? 'demo,postgres,mysql').split(',') as TargetKind[];
const ALL_OPS = [
  'first',
  'sorted',
  'filtered',
  'neighbour',
  'number',
  'last',
  'tables',
  'throughput',
] as const;
type OpKey = (typeof ALL_OPS)[number];
const OPS = new Set((process.env.BENCH_OPS ?? ALL_OPS.join(',')).split(',') as OpKey[]);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50,200').split(',').map(Number);
/** The demo's throughput at one level only (its first page counts 105,416 rows each time). */
const DEMO_CONNECTIONS = CONNECTIONS.includes(50) ? [50] : CONNECTIONS.slice(0, 1);
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_SERVER = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';
const SERVER_MAIN = path.resolve(ROOT, process.env.DBUI_DIST ?? 'dist', 'server', 'main.js');
/** Node flags for DBUI's server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it under load. */
const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
/** The same for the minimal server, to profile the floor beside DBUI. */
const MINIMAL_FLAGS = (process.env.BENCH_MINIMAL_FLAGS ?? '').split(' ').filter(Boolean);
const RESULTS = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : fileURLToPath(new URL('./results/http.md', import.meta.url));
/** The bare driver's runs per operation: up to this many, within DRIVER_SECONDS, at least 4. */
const DRIVER_RUNS = 200;
const DRIVER_SECONDS = Math.min(3, DURATION);

type TargetKind = 'demo' | 'postgres' | 'mysql';

for (const kind of TARGETS)
  if (!['demo', 'postgres', 'mysql'].includes(kind))
    throw new Error(`BENCH_TARGETS: unknown target ${kind}.`);
for (const op of OPS) if (!ALL_OPS.includes(op)) throw new Error(`BENCH_OPS: unknown operation ${op}.`);

// ---------------------------------------------------------------------------------------------------------------
// Measuring

interface LoadResult {
  latency: Summary;
  requestsPerSecond: number;
  failed: number;
}

/** autocannon for DURATION seconds on `connections` kept-alive connections, cycling through `calls`. */
async function load(origin: string, calls: Call[], connections: number): Promise<LoadResult> {
  const run = await loadRun(origin, calls, connections, DURATION);
  return { latency: summarise(run.samples), requestsPerSecond: run.requestsPerSecond, failed: run.failed };
}

/** One call on a connection of its own (no agent: connect, request, read to the end, close). */
function freshCall(origin: string, call: Call): Promise<{ status: number; body: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: call.method,
        path: call.path,
        headers: { ...call.headers, connection: 'close' },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(call.body);
  });
}

/** Single requests, one after the other, each on a fresh connection, for DURATION seconds. */
async function freshLoop(origin: string, calls: Call[]): Promise<{ latency: Summary; failed: number }> {
  const samples: number[] = [];
  let failed = 0;
  const until = Date.now() + DURATION * 1000;
  for (let i = 0; Date.now() < until; i++) {
    const call = calls[i % calls.length]!;
    const started = process.hrtime.bigint();
    const answer = await freshCall(origin, call);
    const took = Number(process.hrtime.bigint() - started) / 1e6;
    if (answer.status >= 200 && answer.status < 300) samples.push(took);
    else failed++;
  }
  return { latency: summarise(samples), failed };
}

/** A call whose answer must be a success; its parsed body. */
async function mustAnswer(origin: string, call: Call): Promise<unknown> {
  const answer = await freshCall(origin, call);
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${call.method} ${call.path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return answer.body.startsWith('{') ? JSON.parse(answer.body) : answer.body;
}

/** Untimed calls before a run (one more when the first was quick). */
async function warm(origin: string, calls: Call[]): Promise<void> {
  const started = Date.now();
  await mustAnswer(origin, calls[0]!);
  if (Date.now() - started < 200) for (const call of calls.slice(0, 3)) await mustAnswer(origin, call);
}

/** How long each throughput run's load settles before it is counted (bench-load.ts). */
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE ?? 3);
/** Throughput rounds at each level: DBUI, the minimal server and the Fastify floor take turns this many times. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** Counted seconds of each throughput run. */
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 5);

/** The bare driver: `work` in this process until `runs` runs or `seconds`, at least 2, after one untimed run. Called
 * before and after an operation's HTTP runs, half the budget each, so a machine that got busier meanwhile weighs on
 * both sides alike. */
async function driverSamples(
  work: (i: number) => Promise<unknown>,
  runs = DRIVER_RUNS / 2,
  seconds = DRIVER_SECONDS / 2,
): Promise<number[]> {
  await work(0);
  const samples: number[] = [];
  const until = Date.now() + seconds * 1000;
  for (let i = 0; i < runs && (i < 2 || Date.now() < until); i++) {
    const started = process.hrtime.bigint();
    await work(i);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples;
}

/** Resident memory of a process in MB from /proc (VmRSS now, VmHWM its peak so far); null once it is gone. */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      fs.readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** One counted throughput run: each answer's time, requests a second, failures, the server's CPU time (ms). */
type CpuRun = Awaited<ReturnType<typeof loadRunWithCpu>>;

/** A throughput run of ROUND_SECONDS after SETTLE_SECONDS uncounted, with the server's CPU time. */
async function loadWithCpu(pid: number, origin: string, call: Call, connections: number): Promise<CpuRun> {
  await warm(origin, [call]);
  return loadRunWithCpu(pid, origin, [call], connections, ROUND_SECONDS, SETTLE_SECONDS);
}

/** A server's runs of one level together: the median requests a second, every answer's time, the CPU time a request
 * over all of them. */
function combined(runs: CpuRun[]): LoadResult & Cpu {
  const requests = Math.max(
    1,
    runs.reduce((n, run) => n + run.samples.length + run.failed, 0),
  );
  const perRequest = (ms: number) => (1000 * ms) / requests;
  const user = perRequest(runs.reduce((ms, run) => ms + run.userMs, 0));
  const system = perRequest(runs.reduce((ms, run) => ms + run.systemMs, 0));
  return {
    latency: summarise(runs.flatMap((run) => run.samples)),
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    failed: runs.reduce((n, run) => n + run.failed, 0),
    cpuUsPerRequest: user + system,
    userUsPerRequest: user,
    systemUsPerRequest: system,
  };
}

/** Round by round, one server's requests a second over another's (in per cent). */
const ratiosOf = (runs: CpuRun[], base: CpuRun[]) =>
  runs.map((run, i) => (100 * run.requestsPerSecond) / (base[i]?.requestsPerSecond ?? NaN));

interface Cpu {
  /** The server's CPU time per answered request, in microseconds: in all, in user space, in the kernel. */
  cpuUsPerRequest: number;
  userUsPerRequest: number;
  systemUsPerRequest: number;
}

/** Samples a process's RSS every 100 ms: the peak since the last mark and over the whole run. */
class RssSampler {
  private timer: NodeJS.Timeout;
  peakSinceMark = 0;
  peak = 0;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
  }
  private sample() {
    const rss = memoryMb(this.pid, 'VmRSS');
    if (rss === null) return;
    this.peakSinceMark = Math.max(this.peakSinceMark, rss);
    this.peak = Math.max(this.peak, rss);
  }
  mark() {
    this.sample();
    this.peakSinceMark = 0;
  }
  stop() {
    this.sample();
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Processes

// ---------------------------------------------------------------------------------------------------------------
// What is measured

interface Driver {
  query(text: string, values: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

interface Target {
  kind: TargetKind;
  label: string;
  /** The name DBUI serves the database under (DATABASES). */
  db: string;
  /** DATABASES's URL for it. */
  url: string;
  schema: string;
  table: string;
  columns: string[];
  key: string;
  sortColumn: string;
  rows: number;
  driver: Driver;
  minimalUrl: string;
}

interface Operation {
  key: OpKey;
  name: string;
  /** What the browser sends, cycled through. */
  calls: Call[];
  /** The same statements through the bare driver (null: no single statement to compare with). */
  driver: ((i: number) => Promise<unknown>) | null;
}

interface OperationResult {
  target: Target;
  name: string;
  kept: { latency: Summary; failed: number } | null;
  fresh: { latency: Summary; failed: number } | null;
  driver: Summary | null;
}

interface ThroughputResult {
  target: Target;
  connections: number;
  dbui: LoadResult & Cpu;
  minimal: LoadResult & Cpu;
  /** The same answer through Fastify with its logging (http-minimal.ts): the stack's own floor. */
  fastify: LoadResult & Cpu;
  /** Each round's DBUI and Fastify floor requests a second over the minimal server's in the same round (%). */
  dbuiRatios: number[];
  fastifyRatios: number[];
  dbuiPeakMb: number;
}

const quote = (kind: TargetKind, name: string) => (kind === 'mysql' ? `\`${name}\`` : `"${name}"`);
const param = (kind: TargetKind, i: number) => (kind === 'postgres' ? `$${i}` : '?');
const upperBound = (s: string) => s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
const PREFIXES = ['abc', 'f00', '1234', 'dead', 'beef', '0a1b', '77', 'c0ff'];
const DEMO_PRODUCTS = [17, 42, 101, 230, 333, 404, 512, 599];

/** The SQL of a page as DBUI's engines send it (the statements bench/engines.ts compares with). */
function pageSql(target: Target, where: string, order: string, whereArgs: unknown[], offset: number) {
  const q = (name: string) => quote(target.kind, name);
  const from = `${q(target.schema)}.${q(target.table)}`;
  const n = whereArgs.length;
  return {
    text: `select ${target.columns.map(q).join(', ')} from ${from} where ${where} order by ${order} limit ${param(target.kind, n + 1)} offset ${param(target.kind, n + 2)}`,
    values: [...whereArgs, PAGE_SIZE, offset],
  };
}

function countSql(target: Target, where: string, whereArgs: unknown[], cap: number) {
  const q = (name: string) => quote(target.kind, name);
  const n = whereArgs.length;
  return {
    text: `select count(*) as n from (select 1 as one from ${q(target.schema)}.${q(target.table)} where ${where} limit ${param(target.kind, n + 1)} offset ${param(target.kind, n + 2)}) as counted`,
    values: [...whereArgs, cap + 1, 0],
  };
}

/** Page numbers that exist in a table of `rows` rows: page 50,000 / 100,001 on 10 million rows, fewer below. */
function deepPages(rows: number) {
  const pages = Math.floor(rows / PAGE_SIZE);
  return {
    neighbourFrom: Math.min(50_000, Math.max(2, Math.floor(pages / 10))),
    byNumber: Math.min(100_001, Math.floor(pages / 5) + 1),
  };
}

/** The cursor of a page answer (common/contract/sql.ts pageResult.cursor), sent back as ?cursor= for its neighbour. */
function cursorOf(answer: unknown): string {
  const cursor = (answer as { data?: { cursor?: unknown } } | null)?.data?.cursor;
  if (typeof cursor !== 'string' || cursor.length === 0)
    throw new Error('the page answer carries no cursor (data.cursor): Next cannot seek from it');
  return cursor;
}

/** The operations of one target, in the order they run; the answers they need come from the running server. */
async function operations(origin: string, session: Session, target: Target): Promise<Operation[]> {
  const q = (name: string) => quote(target.kind, name);
  const qualified = (name: string) => `${q(target.schema)}.${q(target.table)}.${q(name)}`;
  const key = qualified(target.key);
  const first = (await mustAnswer(origin, pageCall(session, target, 1, {}))) as {
    data: { count: number; countIsExact: boolean };
  };
  // DBUI counts beside the page when the catalog's figure is exact (small tables, SQLite); not on an estimate.
  const counted = first.data.countIsExact;
  const withCount = (select: () => Promise<unknown>, where = '1 = 1', args: unknown[] = []) =>
    counted
      ? () => {
          const count = countSql(target, where, args, Number.MAX_SAFE_INTEGER - 1);
          return Promise.all([select(), target.driver.query(count.text, count.values)]);
        }
      : select;
  const ops: Operation[] = [];
  const demo = target.kind === 'demo';
  const { neighbourFrom, byNumber } = deepPages(target.rows);

  const firstSql = pageSql(target, '1 = 1', `${key} asc`, [], 0);
  ops.push({
    key: 'first',
    name: 'first page',
    calls: [pageCall(session, target, 1, {})],
    driver: withCount(() => target.driver.query(firstSql.text, firstSql.values)),
  });

  const sorted = demo ? target.sortColumn : `-${target.sortColumn}`;
  const sortedSql = pageSql(
    target,
    '1 = 1',
    demo
      ? `${qualified(target.sortColumn)} asc, ${key} asc`
      : `${qualified(target.sortColumn)} desc, ${key} desc`,
    [],
    0,
  );
  ops.push({
    key: 'sorted',
    name: `sorted page (${sorted})`,
    calls: [pageCall(session, target, 1, {}, { orderBy: sorted })],
    driver: withCount(() => target.driver.query(sortedSql.text, sortedSql.values)),
  });

  if (demo) {
    const where = `${q('product_id')} = ?`;
    ops.push({
      key: 'filtered',
      name: 'filtered page (product_id equals, indexed)',
      calls: DEMO_PRODUCTS.map((id) => pageCall(session, target, 1, { product_id: String(id) })),
      driver: (i) => {
        const id = DEMO_PRODUCTS[i % DEMO_PRODUCTS.length]!;
        const page = pageSql(target, where, `${key} asc`, [id], 0);
        const count = countSql(target, where, [id], 100_000);
        return Promise.all([
          target.driver.query(page.text, page.values),
          target.driver.query(count.text, count.values),
        ]);
      },
    });
  } else {
    ops.push({
      key: 'filtered',
      name: 'filtered page (name starts with, indexed)',
      calls: PREFIXES.map((prefix) => pageCall(session, target, 1, { name: prefix })),
      driver: (i) => {
        const prefix = PREFIXES[i % PREFIXES.length]!;
        const postgres = target.kind === 'postgres';
        const where = postgres
          ? `(${q('name')} >= $1 and ${q('name')} < $2 and ${q('name')} like $3)`
          : `${q('name')} like ? escape '\\\\'`;
        const args = postgres ? [prefix, upperBound(prefix), `${prefix}%`] : [`${prefix}%`];
        const page = pageSql(target, where, `${key} asc`, args, 0);
        const count = countSql(target, where, args, 100_000);
        return Promise.all([
          target.driver.query(page.text, page.values),
          target.driver.query(count.text, count.values),
        ]);
      },
    });
  }

  if (!demo) {
    // Next from page N: the server serves page N first (by number), then page N + 1 is asked for as the browser
    // asks for it, with the cursor of page N's answer (?cursor=), so the server seeks from page N's last row.
    const from = await mustAnswer(origin, pageCall(session, target, neighbourFrom, {}));
    const cursor = cursorOf(from);
    const lastId = neighbourFrom * PAGE_SIZE;
    const seek = pageSql(
      target,
      `1 = 1 and (${q(target.key)} > ${param(target.kind, 1)})`,
      `${key} asc`,
      [lastId],
      0,
    );
    ops.push({
      key: 'neighbour',
      name: `page ${(neighbourFrom + 1).toLocaleString('en-US')} after page ${neighbourFrom.toLocaleString('en-US')} (Next: seeks by page ${neighbourFrom.toLocaleString('en-US')}'s cursor)`,
      calls: [pageCall(session, target, neighbourFrom + 1, {}, { cursor })],
      driver: () => target.driver.query(seek.text, seek.values),
    });

    const deep = pageSql(target, '1 = 1', `${key} asc`, [], (byNumber - 1) * PAGE_SIZE);
    ops.push({
      key: 'number',
      name: `page ${byNumber.toLocaleString('en-US')} by number`,
      calls: [pageCall(session, target, byNumber, {})],
      driver: () => target.driver.query(deep.text, deep.values),
    });

    const lastPage = Math.max(1, Math.ceil(first.data.count / PAGE_SIZE));
    const last = pageSql(target, '1 = 1', `${key} desc`, [], 0);
    ops.push({
      key: 'last',
      name: `last page (${lastPage.toLocaleString('en-US')})`,
      calls: [pageCall(session, target, lastPage, {})],
      driver: async () => (await target.driver.query(last.text, last.values)).reverse(),
    });
  }

  ops.push({
    key: 'tables',
    name: 'table list',
    calls: [
      {
        method: 'GET',
        path: `/api/sql/${encodeURIComponent(target.db)}`,
        headers: { authorization: session.authorization },
      },
    ],
    driver: null,
  });
  return ops.filter((op) => OPS.has(op.key));
}

// ---------------------------------------------------------------------------------------------------------------
// The run

async function prepareTargets(dataDir: string): Promise<Target[]> {
  const targets: Target[] = [];
  for (const kind of TARGETS) {
    if (kind === 'demo') {
      const file = path.join(dataDir, 'demo.db');
      ensureDemoDatabase(file);
      const db = new Sqlite(file, { readonly: true });
      targets.push({
        kind,
        label: 'SQLite demo `order_lines`',
        db: 'demo',
        url: `sqlite:${file}`,
        schema: 'main',
        table: 'order_lines',
        columns: [
          'order_line_id',
          'order_id',
          'line_number',
          'product_id',
          'quantity',
          'unit_price',
          'discount_rate',
          'line_total',
        ],
        key: 'order_line_id',
        sortColumn: 'product_id',
        rows: Number((db.prepare('select count(*) as n from order_lines').get() as { n: number }).n),
        driver: {
          query: async (text, values) => db.prepare(text).all(...values),
          close: async () => void db.close(),
        },
        minimalUrl: file,
      });
    } else if (kind === 'postgres') {
      const url = await ensurePostgresRows(PG_SERVER, DATABASE, ROWS);
      const pool = new pg.Pool({ connectionString: url, max: 10 });
      targets.push({
        kind,
        label: `PostgreSQL \`${BENCH_TABLE}\``,
        db: 'pg',
        url,
        schema: 'public',
        table: BENCH_TABLE,
        columns: ['id', 'name', 'category', 'amount', 'created_at', 'note'],
        key: 'id',
        sortColumn: 'created_at',
        rows: ROWS,
        driver: {
          query: async (text, values) => (await pool.query(text, values)).rows,
          close: () => pool.end(),
        },
        minimalUrl: url,
      });
    } else {
      const url = await ensureMariadbRows(MYSQL_SERVER, DATABASE, ROWS);
      const pool = mysql.createPool({
        uri: url,
        connectionLimit: 10,
        supportBigNumbers: true,
        bigNumberStrings: true,
        dateStrings: true,
      });
      targets.push({
        kind,
        label: `MariaDB \`${BENCH_TABLE}\``,
        db: 'maria',
        url,
        schema: DATABASE,
        table: BENCH_TABLE,
        columns: ['id', 'name', 'category', 'amount', 'created_at', 'note'],
        key: 'id',
        sortColumn: 'created_at',
        rows: ROWS,
        driver: {
          query: async (text, values) => (await pool.query(text, values))[0] as unknown[],
          close: () => pool.end(),
        },
        minimalUrl: url,
      });
    }
  }
  return targets;
}

/** Starts DBUI on the data folder; LOG_LEVEL=info into `logFile`. */
async function startDbui(dataDir: string, targets: Target[], logFd: number): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    DATABASES: targets.map((t) => `${t.db}=${t.url}`).join(','),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
  };
  return startProcess([...SERVER_FLAGS, SERVER_MAIN], env, port, ['/api/health/alive', '/api/health'], logFd);
}

function minimalSettings(target: Target, port: number, fastify: boolean): MinimalServerSettings {
  const key = `${quote(target.kind, target.schema)}.${quote(target.kind, target.table)}.${quote(target.kind, target.key)}`;
  const select = pageSql(target, '1 = 1', `${key} asc`, [], 0);
  return {
    kind: target.kind === 'demo' ? 'sqlite' : target.kind,
    url: target.minimalUrl,
    port,
    select,
    fastify,
    ...(target.kind === 'demo' ? { count: countSql(target, '1 = 1', [], Number.MAX_SAFE_INTEGER - 1) } : {}),
  };
}

/** The minimal server, or with `logFd` the Fastify floor logging into that file (http-minimal.ts). */
async function startMinimal(target: Target, logFd?: number): Promise<Started> {
  const port = await freePort();
  const settings = minimalSettings(target, port, logFd !== undefined);
  return startProcess(
    [...MINIMAL_FLAGS, '--import', 'tsx', path.join(ROOT, 'bench', 'http-minimal.ts')],
    { PATH: process.env.PATH ?? '', MINIMAL_SERVER: JSON.stringify(settings) },
    port,
    ['/ready'],
    logFd ?? 'ignore',
  );
}

const cpuText = (cpu: Cpu) =>
  `${cpu.cpuUsPerRequest.toFixed(0)} µs CPU a request, ${cpu.userUsPerRequest.toFixed(0)} of them in user space`;

const loads = () => os.loadavg().map((n) => n.toFixed(2));

async function main() {
  if (!fs.existsSync(SERVER_MAIN))
    throw new Error(`${SERVER_MAIN} is missing: run npm run build first (or set DBUI_DIST).`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-bench-http-'));
  const logFile = path.join(dataDir, 'server.log');
  const logFd = fs.openSync(logFile, 'a');
  const floorLogFd = fs.openSync(path.join(dataDir, 'fastify-floor.log'), 'a');
  const targets = await prepareTargets(dataDir);
  const token = await benchAdministrator(path.join(dataDir, 'app.db'));
  const loadBefore = loads();
  let maxLoad = os.loadavg()[0]!;
  const runStarted = Date.now();
  console.log(`load average before: ${loadBefore.join(' ')}`);

  // Later starts: the app store is migrated and the demo database made, as after a first start.
  const startTimes: { alive: number; health: number }[] = [];
  let server: Started | null = null;
  try {
    for (let i = 0; i < Math.max(1, STARTS); i++) {
      if (server) await stopProcess(server.child);
      server = await startDbui(dataDir, targets, logFd);
      startTimes.push({ alive: server.startMs[0] ?? NaN, health: server.startMs[1] ?? NaN });
    }
    if (!server?.child.pid) throw new Error('the DBUI server did not start');
    console.log(
      `later start to the first 200 on /api/health/alive, /api/health: ${startTimes.map((t) => `${ms(t.alive)}, ${ms(t.health)}`).join('; ')} ms`,
    );
    // The server's own process, not the guardian that started it (bench-process.ts).
    const pid = serverPidOf(server.child.pid);
    const idleMb = memoryMb(pid, 'VmRSS');
    const rss = new RssSampler(pid);
    const origin = server.origin;
    const session = await signedInSession(origin, token);

    const results: OperationResult[] = [];
    const throughput: ThroughputResult[] = [];
    for (const target of targets) {
      for (const op of await operations(origin, session, target)) {
        const driverBefore = op.driver ? await driverSamples(op.driver) : [];
        await warm(origin, op.calls);
        const kept = await load(origin, op.calls, 1);
        await warm(origin, op.calls);
        const fresh = await freshLoop(origin, op.calls);
        const driver = op.driver ? summarise([...driverBefore, ...(await driverSamples(op.driver))]) : null;
        results.push({
          target,
          name: op.name,
          kept: { latency: kept.latency, failed: kept.failed },
          fresh,
          driver,
        });
        maxLoad = Math.max(maxLoad, os.loadavg()[0]!);
        console.log(
          `${target.label} ${op.name}: kept-alive ${ms(kept.latency.median)} ms (p99 ${ms(kept.latency.p99)}), ` +
            `fresh ${ms(fresh.latency.median)} ms, driver ${driver ? `${ms(driver.median)} ms` : '—'}` +
            (kept.failed + fresh.failed ? `, ${kept.failed + fresh.failed} failed` : ''),
        );
      }
      if (!OPS.has('throughput')) continue;
      const minimal = await startMinimal(target);
      const fastifyFloor = await startMinimal(target, floorLogFd);
      try {
        const call = pageCall(session, target, 1, {});
        const minimalCall: Call = { method: 'GET', path: '/', headers: {} };
        const servers = [
          { pid, origin, call, runs: [] as CpuRun[] },
          { pid: minimal.child.pid!, origin: minimal.origin, call: minimalCall, runs: [] as CpuRun[] },
          {
            pid: fastifyFloor.child.pid!,
            origin: fastifyFloor.origin,
            call: minimalCall,
            runs: [] as CpuRun[],
          },
        ] as const;
        // Each server's code compiled by the JIT before anything counts (with BENCH_OPS=throughput alone, DBUI
        // would otherwise meet the first round cold).
        for (const server of servers) await loadRun(server.origin, [server.call], 50, 3);
        for (const connections of target.kind === 'demo' ? DEMO_CONNECTIONS : CONNECTIONS) {
          for (const server of servers) server.runs.length = 0;
          rss.mark();
          // Round r starts with the r-th server, so none is always measured first or last.
          for (let round = 0; round < ROUNDS; round++)
            for (let i = 0; i < servers.length; i++) {
              const server = servers[(round + i) % servers.length]!;
              server.runs.push(await loadWithCpu(server.pid, server.origin, server.call, connections));
            }
          const [dbuiRuns, minimalRuns, fastifyRuns] = servers.map((server) => server.runs);
          const result: ThroughputResult = {
            target,
            connections,
            dbui: combined(dbuiRuns!),
            minimal: combined(minimalRuns!),
            fastify: combined(fastifyRuns!),
            dbuiRatios: ratiosOf(dbuiRuns!, minimalRuns!),
            fastifyRatios: ratiosOf(fastifyRuns!, minimalRuns!),
            dbuiPeakMb: rss.peakSinceMark,
          };
          throughput.push(result);
          maxLoad = Math.max(maxLoad, os.loadavg()[0]!);
          const { dbui, minimal: floor, fastify } = result;
          console.log(
            `${target.label} first page, ${connections} connections: DBUI ${dbui.requestsPerSecond.toFixed(0)} req/s ` +
              `(p99 ${ms(dbui.latency.p99)} ms, peak ${result.dbuiPeakMb.toFixed(0)} MB, ${cpuText(dbui)}), ` +
              `minimal ${floor.requestsPerSecond.toFixed(0)} req/s (p99 ${ms(floor.latency.p99)} ms, ` +
              `${cpuText(floor)}), Fastify floor ${fastify.requestsPerSecond.toFixed(0)} req/s ` +
              `(p99 ${ms(fastify.latency.p99)} ms, ${cpuText(fastify)}); DBUI / minimal by round ` +
              `${result.dbuiRatios.map((r) => r.toFixed(0)).join(', ')} %`,
          );
        }
      } finally {
        await stopProcess(minimal.child);
        await stopProcess(fastifyFloor.child);
      }
    }
    rss.stop();
    const hwm = memoryMb(pid, 'VmHWM');
    await stopProcess(server.child);
    server = null;
    const loadAfter = loads();
    const minutes = (Date.now() - runStarted) / 60_000;
    const logBytes = fs.statSync(logFile).size;
    const report = markdown({
      results,
      throughput,
      startTimes,
      idleMb,
      peakMb: rss.peak,
      hwm,
      loadBefore,
      loadAfter,
      maxLoad,
      minutes,
      logBytes,
    });
    console.log(`\n${report}`);
    fs.writeFileSync(RESULTS, report);
  } finally {
    if (server) await stopProcess(server.child);
    for (const target of targets) await target.driver.close();
    fs.closeSync(logFd);
    fs.closeSync(floorLogFd);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The report

function markdown(run: {
  results: OperationResult[];
  throughput: ThroughputResult[];
  startTimes: { alive: number; health: number }[];
  idleMb: number | null;
  peakMb: number;
  hwm: number | null;
  loadBefore: string[];
  loadAfter: string[];
  maxLoad: number;
  minutes: number;
  logBytes: number;
}): string {
  const cpu = os.cpus();
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const rowsNote =
    run.results.some((r) => r.target.kind !== 'demo') || run.throughput.length
      ? `${ROWS.toLocaleString('en-US')} rows in \`${DATABASE}.${BENCH_TABLE}\``
      : '';
  const fmt = (s: Summary | null | undefined) => (s && s.n ? `${ms(s.median)} ms` : '—');
  const p99 = (s: Summary | null | undefined) => (s && s.n ? `${ms(s.p99)} ms` : '—');
  const failed = (r: OperationResult) => (r.kept?.failed ?? 0) + (r.fresh?.failed ?? 0);
  const lines: string[] = [];
  lines.push(
    `${new Date().toISOString().slice(0, 10)}; HEAD ${commit || 'unknown'} (DBUI as built from the working tree); ${machine}; ${rowsNote}${rowsNote ? '; ' : ''}${DURATION} s per latency run; ` +
      `load average (1, 5, 15 min) ${run.loadBefore.join(' / ')} before, ${run.loadAfter.join(' / ')} after ` +
      `(1-minute peak ${run.maxLoad.toFixed(2)}); the whole run ${run.minutes.toFixed(1)} min.`,
    '',
    'Latency per operation: the browser’s own call, page size 20, one kept-alive connection (autocannon -c 1, ' +
      'pipelining 1) and a fresh connection per request (connect to last byte); the bare driver runs the same ' +
      'statements in the benchmark’s process; "DBUI − driver" is the kept-alive median minus the driver’s.',
    '',
    '| database | operation | kept-alive median | p99 | fresh connection median | p99 | bare driver median | DBUI − driver | requests (kept / fresh / driver) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of run.results) {
    const added = r.driver && r.kept?.latency.n ? `${ms(r.kept.latency.median - r.driver.median)} ms` : '—';
    lines.push(
      `| ${r.target.label} | ${r.name}${failed(r) ? ` (${failed(r)} failed)` : ''} | ${fmt(r.kept?.latency)} | ${p99(r.kept?.latency)} | ${fmt(r.fresh?.latency)} | ${p99(r.fresh?.latency)} | ${fmt(r.driver)} | ${added} | ${r.kept?.latency.n ?? 0} / ${r.fresh?.latency.n ?? 0} / ${r.driver?.n ?? 0} |`,
    );
  }
  if (run.throughput.length) {
    lines.push(
      '',
      'Throughput of the first page: DBUI, the minimal server (node:http, the same driver with a pool of 10, the ' +
        'same SQL, JSON.stringify) and the Fastify floor in turn, kept-alive connections, pipelining 1; DBUI logging ' +
        `at info into a file. At each level the three take ${ROUNDS} rounds, each round in another order, each run ` +
        `counting ${ROUND_SECONDS} s after ${SETTLE_SECONDS} s uncounted on the same connections (the storm of their ` +
        'opening is not kept-alive load). Requests a second: the median of the rounds; the ratios: the median of ' +
        'each round’s ratio (its range in brackets), so what drifts over minutes on two shared cores weighs on ' +
        'both sides of each; median and p99 over every answer of the rounds. CPU a request: the server process’s ' +
        'user and system time over the counted seconds (/proc) divided by the requests answered; the rest of the ' +
        'two cores went to the database and autocannon. The Fastify floor: the minimal server’s answer through ' +
        'Fastify with its pino logging at info into a file, nothing of DBUI’s (the stack’s own cost). Peak RSS: ' +
        'DBUI’s highest sample (every 100 ms) over the level.',
      '',
      '| database | connections | DBUI requests/s | DBUI median | DBUI p99 | minimal server requests/s | minimal median | minimal p99 | DBUI / minimal | DBUI CPU a request | minimal CPU a request | Fastify floor requests/s | Fastify floor / minimal | Fastify floor CPU a request | DBUI peak RSS |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    const ratioText = (ratios: number[]) =>
      `${median(ratios).toFixed(0)} %` +
      (ratios.length > 1 ? ` (${Math.min(...ratios).toFixed(0)}–${Math.max(...ratios).toFixed(0)})` : '');
    for (const t of run.throughput) {
      const failures = t.dbui.failed + t.minimal.failed + t.fastify.failed;
      lines.push(
        `| ${t.target.label} | ${t.connections}${failures ? ` (${failures} failed)` : ''} | ${t.dbui.requestsPerSecond.toFixed(0)} | ${fmt(t.dbui.latency)} | ${p99(t.dbui.latency)} | ${t.minimal.requestsPerSecond.toFixed(0)} | ${fmt(t.minimal.latency)} | ${p99(t.minimal.latency)} | ${ratioText(t.dbuiRatios)} | ${t.dbui.cpuUsPerRequest.toFixed(0)} µs | ${t.minimal.cpuUsPerRequest.toFixed(0)} µs | ${t.fastify.requestsPerSecond.toFixed(0)} | ${ratioText(t.fastifyRatios)} | ${t.fastify.cpuUsPerRequest.toFixed(0)} µs | ${t.dbuiPeakMb.toFixed(0)} MB |`,
      );
    }
  }
  const health = run.startTimes.map((t) => t.health);
  const alive = run.startTimes.map((t) => t.alive);
  lines.push(
    '',
    `Start: a later start (app store migrated, demo database made) answers its first 200 on /api/health ` +
      `${ms(median(health))} ms after the spawn (median of ${health.length}: ${health.map(ms).join(', ')} ms; ` +
      `/api/health asks the app store and every database), /api/health/alive (asks nothing) ${ms(median(alive))} ms. ` +
      `DBUI’s memory: ${run.idleMb?.toFixed(0) ?? '—'} MB resident after the start, ` +
      `${run.peakMb.toFixed(0)} MB at the highest sample (every 100 ms), ${run.hwm?.toFixed(0) ?? '—'} MB peak (VmHWM) ` +
      `over the run; ${(run.logBytes / 1e6).toFixed(1)} MB of log lines written.`,
    '',
  );
  return lines.join('\n');
}

await main();
