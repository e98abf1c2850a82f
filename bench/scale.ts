/*
 * npm run bench:scale — DBUI at scale as issue 18 runs it, measured over loopback: Debian's nginx (started here as a
 * child process with a configuration of its own in a temporary folder: an upstream with least_conn, passive health
 * checks and keep-alive as in deploy/nginx/dbui.conf, plain HTTP on a free port) in front of one and then two built
 * DBUI servers (`node dist/server/main.js`, what `npm start` runs; `npm run build` first, or DBUI_DIST naming a
 * private copy of dist/), each a process of its own on a free port with its own DATA_DIR, sharing a fresh PostgreSQL
 * app store (a database made for the run and dropped after it) and Redis, with the same SECRET_KEY and
 * TRUST_PROXY=127.0.0.1 (nginx's address), logging at LOG_LEVEL=info into files as an operator would.
 *
 * What is called: the first page (20 rows) of `public.bench_rows`, bench:http's PostgreSQL table (6 columns, 3
 * indexes, made by bench-session.ts createBenchRows) with BENCH_SCALE_ROWS rows in a second database made for the run
 * (so the run is bounded and does not wait for bench:http's 10-million-row table), as the browser asks for it: POST
 * …/page/1/search with the encoded empty filter, the session's bearer token and the XSRF cookie and header.
 *
 * The session: an administrator with a live session written into the PostgreSQL app store before the servers start
 * (bench-session.ts benchAdministrator, as bench:http does), sent as `Authorization: Bearer`; the XSRF cookie comes
 * from one instance and is checked on the other before anything is measured (both read the same app store).
 *
 * Measured with autocannon (BENCH_CONNECTIONS kept-alive connections, 50 by default, pipelining 1, BENCH_DURATION
 * seconds, after an untimed warm-up of the same shape) in BENCH_ROUNDS rounds, each running three configurations —
 * one instance straight (no nginx: the reference), nginx with one instance, nginx with two — in that order, every
 * second round in reverse (so a machine that gets busier weighs on both sides alike); nginx is started
 * afresh for each run with that run's upstream. For each run: requests a second, median and p99 of every response's
 * own time, failures, how nginx split the requests between the instances (its access log's $upstream_addr), the
 * CPU each part used (DBUI instances, nginx's workers, PostgreSQL's processes — other people's work on them included —
 * and this process, which is autocannon) and how busy the whole machine was, and the load average.
 *
 * Everything started is stopped by the run itself, also on failure or Ctrl-C: nginx, the instances, the two
 * databases, the export queue's keys in Redis, the temporary folder. Writes bench/results/scale.md and prints it.
 * Not a test. Settings: BENCH_DURATION (seconds per measured run, default 15), BENCH_WARMUP (seconds, default 3),
 * BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (default 2), BENCH_SCALE_ROWS (default 200,000), BENCH_RESULTS
 * (the file written, default bench/results/scale.md), POSTGRES_TEST_URL, REDIS_URL, DBUI_DIST, NGINX (the binary;
 * default `nginx` on PATH or /usr/sbin/nginx: `apt-get install -y nginx-light`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { encodeBody } from '#common/contract/body-encoding.ts';
import { exportQueueName } from '#server/jobs/export-queue.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '#server/plugins/csrf.ts';
import { openAppStore } from '#server/store/app-store.ts';
import { benchAdministrator, createBenchRows } from './bench-session.ts';
import { loadRun, summarise, type Call, type LoadRun, type Summary } from './bench-load.ts';
import { ms } from './bench-stats.ts';
import { BENCH_TABLE, databaseUrl } from './http-tables.ts';
import { freePort, serverPidOf, sleep } from './bench-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DURATION = positive('BENCH_DURATION', 15);
const WARMUP = positive('BENCH_WARMUP', 3);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50);
const ROUNDS = positive('BENCH_ROUNDS', 2);
const ROWS = positive('BENCH_SCALE_ROWS', 200_000);
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVER_MAIN = path.resolve(ROOT, process.env.DBUI_DIST ?? 'dist', 'server', 'main.js');
const RESULTS = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : fileURLToPath(new URL('./results/scale.md', import.meta.url));
const PAGE_SIZE = 20;
/** The name DBUI serves the data database under (DATABASES). */
const DB_NAME = 'data';

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number above 0; got "${raw}".`);
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring (autocannon, as bench:http loads a page: each response's own time kept)

/** autocannon on `origin` for `seconds` with CONNECTIONS kept-alive connections, pipelining 1 (bench-load.ts). */
const load = (origin: string, call: Call, seconds: number): Promise<LoadRun> =>
  loadRun(origin, [call], CONNECTIONS, seconds);

// ---------------------------------------------------------------------------------------------------------------
// CPU: how the cores were shared during a run (/proc, Linux)

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** utime + stime of a process in seconds, and its parent's pid and name; null once it is gone. */
function processStat(pid: number): { cpu: number; ppid: number; name: string } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const name = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' '); // fields[0] is the state (the stat file's 3rd field)
    return { cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS, ppid: Number(fields[1]), name };
  } catch {
    return null;
  }
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/** The machine's busy and total CPU time so far (/proc/stat, all cores), in ticks. */
function machineTicks(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = line.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - (line[3] ?? 0) - (line[4] ?? 0), total };
}

interface CpuMark {
  at: number;
  machine: { busy: number; total: number };
  /** CPU seconds by process, in the groups reported. */
  groups: Record<CpuGroup, Map<number, number>>;
  self: NodeJS.CpuUsage;
}
type CpuGroup = 'dbui' | 'nginx' | 'postgres';

function cpuMark(dbuiPids: number[], nginxPid: number | null): CpuMark {
  const groups: CpuMark['groups'] = { dbui: new Map(), nginx: new Map(), postgres: new Map() };
  for (const pid of dbuiPids) {
    const stat = processStat(pid);
    if (stat) groups.dbui.set(pid, stat.cpu);
  }
  for (const pid of allPids()) {
    const stat = processStat(pid);
    if (!stat) continue;
    if (stat.name === 'postgres') groups.postgres.set(pid, stat.cpu);
    else if (nginxPid !== null && (pid === nginxPid || stat.ppid === nginxPid))
      groups.nginx.set(pid, stat.cpu);
  }
  return { at: Date.now(), machine: machineTicks(), groups, self: process.cpuUsage() };
}

interface CpuShare {
  /** Percent of one core, over the run. */
  dbui: number;
  nginx: number;
  postgres: number;
  autocannon: number;
  /** Percent of all the machine's cores busy (anyone's work). */
  machineBusy: number;
}

function cpuBetween(before: CpuMark, after: CpuMark): CpuShare {
  const seconds = (after.at - before.at) / 1000;
  const group = (name: CpuGroup) => {
    let used = 0;
    for (const [pid, cpu] of after.groups[name]) used += cpu - (before.groups[name].get(pid) ?? cpu);
    return (100 * used) / seconds;
  };
  const self = (after.self.user + after.self.system - before.self.user - before.self.system) / 1e6;
  const total = after.machine.total - before.machine.total;
  return {
    dbui: group('dbui'),
    nginx: group('nginx'),
    postgres: group('postgres'),
    autocannon: (100 * self) / seconds,
    machineBusy: total ? (100 * (after.machine.busy - before.machine.busy)) / total : NaN,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Processes, and stopping everything even on failure

const running = new Set<ChildProcess>();
const gone = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

// The last resort when the run dies without its cleanup: no child outlives it.
process.on('exit', () => {
  for (const child of running) if (!gone(child)) child.kill('SIGKILL');
});

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** `signal`, then SIGKILL after `graceMs` if the process is still there. */
async function stopProcess(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (gone(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const late = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(late);
}

/** Cleanups in the reverse order of what they undo; each runs once, and one failing does not stop the others. */
const cleanups: { name: string; run: () => Promise<void> }[] = [];
let cleaning: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step.run();
      } catch (error) {
        console.error(`cleanup (${step.name}) failed:`, error);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`\n${signal}: stopping nginx and the instances, dropping the databases…`);
    void cleanUp().finally(() => process.exit(130));
  });

/** Polls `url` every 20 ms until it answers 200; fails when `child` exits or after 60 s. */
async function until200(url: string, child: ChildProcess, what: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const answer = await fetch(url).catch(() => null);
    await answer?.arrayBuffer();
    if (answer?.status === 200) return;
    if (gone(child))
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before ${url} answered 200`);
    if (Date.now() - started > 60_000) throw new Error(`${what}: ${url} did not answer 200 within 60 s`);
    await sleep(20);
  }
}

function nginxBinary(): string {
  const named = process.env.NGINX;
  if (named) return named;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (fs.existsSync('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  throw new Error(
    'nginx is not installed: `apt-get install -y nginx-light` (Debian), or set NGINX to its binary.',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The pieces: databases, instances, nginx

interface Instance {
  name: string;
  port: number;
  origin: string;
  child: ChildProcess;
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_SERVER });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function startInstance(name: string, folder: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = path.join(folder, name);
  fs.mkdirSync(dataDir);
  const log = fs.openSync(path.join(folder, `${name}.log`), 'a');
  const child = track(
    spawn(process.execPath, [SERVER_MAIN], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', log, 'inherit'],
    }),
  );
  fs.closeSync(log);
  const origin = `http://127.0.0.1:${port}`;
  // Ready: the app store and Redis answer (what a balancer with active checks would ask).
  try {
    await until200(`${origin}/api/health/ready`, child, `instance ${name}`);
  } catch (error) {
    await stopProcess(child, 'SIGTERM', 15_000);
    throw error;
  }
  return { name, port, origin, child };
}

/** nginx's configuration for a run: deploy/nginx/dbui.conf's upstream and proxy settings, plain HTTP on loopback,
 * everything nginx writes (pid, logs, temporary files) in `dir`. The access log keeps what the split needs. */
function nginxConf(dir: string, port: number, upstreams: Instance[]): string {
  const servers = upstreams
    .map((u) => `        server 127.0.0.1:${u.port} max_fails=3 fail_timeout=10s;`)
    .join('\n');
  return `# bench:scale: generated for one run; deploy/nginx/dbui.conf's upstream and proxy settings, plain HTTP.
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    log_format scale '$msec $status $upstream_addr';
    access_log ${dir}/access.log scale buffer=64k flush=1s;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;

    upstream dbui {
        least_conn;
${servers}
        keepalive 32;
        keepalive_timeout 4s;
    }

    server {
        listen 127.0.0.1:${port};
        client_max_body_size 32m;
        proxy_next_upstream error timeout http_502 http_503 http_504;
        proxy_next_upstream_tries 2;
        proxy_connect_timeout 3s;
        proxy_read_timeout 60s;
        proxy_send_timeout 60s;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $host;
        proxy_set_header X-Request-Id $request_id;
        location / {
            proxy_pass http://dbui;
        }
    }
}
`;
}

interface Nginx {
  origin: string;
  child: ChildProcess;
  dir: string;
}

async function startNginx(
  binary: string,
  folder: string,
  run: number,
  upstreams: Instance[],
): Promise<Nginx> {
  const dir = path.join(folder, `nginx-${run}`);
  fs.mkdirSync(dir);
  // Run as root, nginx's workers are `nobody`: they must pass through the folders to their temporary paths (which
  // nginx makes and hands to them).
  fs.chmodSync(dir, 0o711);
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConf(dir, port, upstreams));
  const test = spawnSync(binary, ['-t', '-q', '-p', dir, '-c', conf], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the generated configuration:\n${test.stderr}`);
  const child = track(
    spawn(binary, ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] }),
  );
  const origin = `http://127.0.0.1:${port}`;
  try {
    await until200(`${origin}/api/health/alive`, child, 'nginx');
  } catch (error) {
    await stopProcess(child, 'SIGQUIT', 5_000);
    const log = fs.existsSync(path.join(dir, 'error.log'))
      ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8')
      : '';
    throw new Error(`${(error as Error).message}\nnginx's error log:\n${log.slice(-2000)}`, { cause: error });
  }
  return { origin, child, dir };
}

/** Requests by the instance nginx sent them to, from `since` (ms since the epoch) on; read after nginx stopped (its
 * log buffer written out). A retried request names each instance it tried. */
function upstreamSplit(nginx: Nginx, since: number, instances: Instance[]): string {
  const file = path.join(nginx.dir, 'access.log');
  const counts = new Map<string, number>();
  let total = 0;
  for (const line of fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : []) {
    const [msec, , ...upstream] = line.split(' ');
    if (!msec || Number(msec) * 1000 < since) continue;
    total++;
    for (const address of upstream
      .join(' ')
      .split(/[,:]\s*/)
      .filter((a) => /^\d+$/.test(a))) {
      const name = instances.find((i) => String(i.port) === address)?.name ?? `port ${address}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  if (!total) return '—';
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} ${((100 * n) / total).toFixed(0)} %`)
    .join(', ');
}

// ---------------------------------------------------------------------------------------------------------------
// The session and the page call

interface Session {
  authorization: string;
  cookie: string;
  xsrf: string;
}

/** The bearer token written into the store, with the XSRF cookie the server hands out on a GET (from `origin`). */
async function sessionFrom(origin: string, token: string): Promise<Session> {
  const authorization = `Bearer ${token}`;
  const answer = await fetch(`${origin}/api/setup`, { headers: { authorization } });
  await answer.arrayBuffer();
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrf) throw new Error('the server set no XSRF-TOKEN cookie');
  return { authorization, cookie: `${XSRF_COOKIE}=${xsrf}`, xsrf };
}

function firstPageCall(session: Session): Call {
  const segments = [DB_NAME, 'public', BENCH_TABLE].map(encodeURIComponent).join('/');
  return {
    method: 'POST',
    path: `/api/sql/${segments}/page/1/search?pageSize=${PAGE_SIZE}`,
    headers: {
      authorization: session.authorization,
      cookie: session.cookie,
      [XSRF_HEADER]: session.xsrf,
      'content-type': 'text/plain',
    },
    body: encodeBody({}),
  };
}

/** One page call that must succeed; its answer's data. */
async function mustPage(
  origin: string,
  call: Call,
): Promise<{ results: unknown[]; count: number; countIsExact: boolean }> {
  const answer = await fetch(`${origin}${call.path}`, {
    method: call.method,
    headers: call.headers,
    body: call.body,
  });
  const text = await answer.text();
  if (!answer.ok)
    throw new Error(
      `${call.method} ${call.path} on ${origin} answered ${answer.status}: ${text.slice(0, 300)}`,
    );
  return (JSON.parse(text) as { data: { results: unknown[]; count: number; countIsExact: boolean } }).data;
}

// ---------------------------------------------------------------------------------------------------------------
// The run

type Setup = 'direct' | 'one' | 'two';
const SETUP_LABEL: Record<Setup, string> = {
  direct: '1, no nginx (reference)',
  one: '1 behind nginx',
  two: '2 behind nginx',
};

interface RunResult {
  round: number;
  setup: Setup;
  load: LoadRun;
  latency: Summary;
  cpu: CpuShare;
  split: string;
  loadBefore: number;
  loadAfter: number;
}

const loads = () => os.loadavg().map((n) => n.toFixed(2));

async function main() {
  if (!fs.existsSync(SERVER_MAIN))
    throw new Error(`${SERVER_MAIN} is missing: run npm run build first (or set DBUI_DIST).`);
  const nginx = nginxBinary();
  const nginxVersion = spawnSync(nginx, ['-v'], { encoding: 'utf8' })
    .stderr.trim()
    .replace(/^nginx version: /, '');
  const runStarted = Date.now();
  const loadBefore = loads();
  console.log(`load average before: ${loadBefore.join(' ')}; ${nginxVersion}`);

  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-bench-scale-'));
  fs.chmodSync(folder, 0o711);
  cleanups.push({
    name: 'temporary folder',
    run: async () => fs.rmSync(folder, { recursive: true, force: true }),
  });

  // Two databases of the run's own: the app store and the data one.
  const id = `dbui_scale_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const appDb = `${id}_app`;
  const dataDb = `${id}_data`;
  for (const database of [appDb, dataDb]) {
    await adminQuery(`create database ${database}`);
    cleanups.push({
      name: `drop ${database}`,
      run: () => adminQuery(`drop database if exists ${database} with (force)`),
    });
  }
  const appUrl = databaseUrl(PG_SERVER, appDb);
  const dataUrl = databaseUrl(PG_SERVER, dataDb);

  const data = new pg.Client({ connectionString: dataUrl });
  await data.connect();
  try {
    const started = Date.now();
    await createBenchRows((statement) => data.query(statement), BENCH_TABLE, ROWS);
    console.log(
      `${ROWS.toLocaleString('en-US')} rows in ${dataDb}.${BENCH_TABLE}: ${Date.now() - started} ms`,
    );
  } finally {
    await data.end();
  }

  // Migrates the app store and writes the administrator's session.
  const token = await benchAdministrator({ kind: 'postgres', url: appUrl });
  // The export queue's keys in Redis (BullMQ's default prefix), named by the app store: removed at the end.
  cleanups.push({
    name: 'export queue keys in Redis',
    run: async () => {
      const store = openAppStore({ kind: 'postgres', url: appUrl });
      const queue = await exportQueueName(store).finally(() => store.close());
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        let removed = 0;
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `bull:${queue}:*`, 'COUNT', 500);
          if (keys.length) removed += await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
        console.log(`Redis: ${removed} key${removed === 1 ? '' : 's'} of the queue ${queue} removed`);
      } finally {
        redis.disconnect();
      }
    },
  });

  const env: Record<string, string> = {
    APP_DB_URL: appUrl,
    REDIS_URL,
    SECRET_KEY: randomBytes(32).toString('base64'),
    TRUST_PROXY: '127.0.0.1',
    DATABASES: `${DB_NAME}=${dataUrl}`,
    LOG_LEVEL: 'info',
  };
  // Both at once, as instances start behind a balancer (the store is migrated already: the first start's race is
  // server/features/setup/concurrent-migrations.db.test.ts's).
  const startingAt = Date.now();
  const started = await Promise.allSettled(['A', 'B'].map((name) => startInstance(name, folder, env)));
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  for (const instance of instances)
    cleanups.push({
      name: `instance ${instance.name}`,
      run: () => stopProcess(instance.child, 'SIGTERM', 15_000),
    });
  const failedStart = started.find((s) => s.status === 'rejected');
  if (failedStart) throw (failedStart as PromiseRejectedResult).reason;
  const [a, b] = instances as [Instance, Instance];
  console.log(`instances A (:${a.port}) and B (:${b.port}) ready in ${Date.now() - startingAt} ms`);

  // The session and XSRF cookie from A, checked on B: both read the same app store and SECRET_KEY.
  const session = await sessionFrom(a.origin, token);
  const call = firstPageCall(session);
  const first = await mustPage(a.origin, call);
  await mustPage(b.origin, call);
  console.log(
    `the page call answers on both instances: ${first.results.length} rows of ${first.count.toLocaleString('en-US')} (${first.countIsExact ? 'exact count' : 'estimated count'})`,
  );

  const results: RunResult[] = [];
  let run = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const order: Setup[] = round % 2 === 1 ? ['direct', 'one', 'two'] : ['two', 'one', 'direct'];
    for (const setup of order) {
      run++;
      const upstreams = setup === 'two' ? [a, b] : [a];
      const proxy = setup === 'direct' ? null : await startNginx(nginx, folder, run, upstreams);
      try {
        const origin = proxy?.origin ?? a.origin;
        await mustPage(origin, call);
        await load(origin, call, WARMUP);
        const loadBeforeRun = os.loadavg()[0]!;
        const measuredFrom = Date.now();
        const before = cpuMark(
          upstreams.map((u) => serverPidOf(u.child.pid!)),
          proxy?.child.pid ?? null,
        );
        const measured = await load(origin, call, DURATION);
        const after = cpuMark(
          upstreams.map((u) => serverPidOf(u.child.pid!)),
          proxy?.child.pid ?? null,
        );
        const loadAfterRun = os.loadavg()[0]!;
        let split = setup === 'direct' ? 'A (no nginx)' : '';
        if (proxy) {
          await stopProcess(proxy.child, 'SIGQUIT', 5_000);
          split = upstreamSplit(proxy, measuredFrom, [a, b]);
        }
        const result: RunResult = {
          round,
          setup,
          load: measured,
          latency: summarise(measured.samples),
          cpu: cpuBetween(before, after),
          split,
          loadBefore: loadBeforeRun,
          loadAfter: loadAfterRun,
        };
        results.push(result);
        console.log(
          `round ${round}, ${SETUP_LABEL[setup]}: ${measured.requestsPerSecond.toFixed(0)} req/s, median ${ms(result.latency.median)} ms, ` +
            `p99 ${ms(result.latency.p99)} ms${measured.failed ? `, ${measured.failed} failed` : ''}; split ${split}; ` +
            `CPU DBUI ${result.cpu.dbui.toFixed(0)} %, nginx ${result.cpu.nginx.toFixed(0)} %, PostgreSQL ${result.cpu.postgres.toFixed(0)} %, ` +
            `autocannon ${result.cpu.autocannon.toFixed(0)} %, machine busy ${result.cpu.machineBusy.toFixed(0)} %; load ${loadBeforeRun.toFixed(2)} → ${loadAfterRun.toFixed(2)}`,
        );
      } finally {
        if (proxy) await stopProcess(proxy.child, 'SIGQUIT', 5_000);
      }
    }
  }

  const report = markdown({
    results,
    loadBefore,
    loadAfter: loads(),
    minutes: (Date.now() - runStarted) / 60_000,
    nginxVersion,
    count: first,
  });
  console.log(`\n${report}`);
  fs.writeFileSync(RESULTS, report);
}

// ---------------------------------------------------------------------------------------------------------------
// The report

function markdown(run: {
  results: RunResult[];
  loadBefore: string[];
  loadAfter: string[];
  minutes: number;
  nginxVersion: string;
  count: { count: number; countIsExact: boolean };
}): string {
  const cpu = os.cpus();
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: ROOT,
    encoding: 'utf8',
  }).stdout.trim();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${run.nginxVersion}`;
  const pct = (n: number) => `${n.toFixed(0)} %`;
  const lines: string[] = [];
  lines.push(
    `${new Date().toISOString().slice(0, 10)}; HEAD ${commit || 'unknown'} (DBUI as built from the working tree); ${machine} (\`nproc\` ${os.availableParallelism()}); ` +
      `load average (1, 5, 15 min) ${run.loadBefore.join(' / ')} before, ${run.loadAfter.join(' / ')} after; the whole run ${run.minutes.toFixed(1)} min.`,
    '',
    `The call: the first page (${PAGE_SIZE} rows) of \`public.${BENCH_TABLE}\` (${ROWS.toLocaleString('en-US')} rows, bench:http's table shape, made for the run; ` +
      `the answer's count ${run.count.countIsExact ? 'exact, counted beside the page' : 'estimated from the statistics'}), POST …/page/1/search as the browser sends it, ` +
      `${CONNECTIONS} kept-alive connections, pipelining 1, ${DURATION} s per run after ${WARMUP} s of warm-up, ${ROUNDS > 1 ? `${ROUNDS} rounds (every second one in reverse order)` : '1 round'}. ` +
      `Instances: the built server, each its own process and DATA_DIR, one PostgreSQL app store and Redis, SECRET_KEY and TRUST_PROXY set, ` +
      `logging at info into files. nginx: deploy/nginx/dbui.conf's upstream (least_conn, max_fails=3 fail_timeout=10s, keepalive 32) and proxy settings, plain HTTP on loopback, worker_processes auto.`,
    '',
  );

  const setups: Setup[] = ['direct', 'one', 'two'];
  const totals = new Map(
    setups.flatMap((setup) => {
      const runs = run.results.filter((r) => r.setup === setup);
      if (!runs.length) return [];
      return [
        [
          setup,
          {
            runs: runs.length,
            rps: runs.reduce((s, r) => s + r.load.requestsPerSecond, 0) / runs.length,
            latency: summarise(runs.flatMap((r) => r.load.samples)),
            failed: runs.reduce((s, r) => s + r.load.failed, 0),
            busy: runs.reduce((s, r) => s + r.cpu.machineBusy, 0) / runs.length,
            dbuiCpu: runs.reduce((s, r) => s + r.cpu.dbui, 0) / runs.length,
          },
        ] as const,
      ];
    }),
  );
  lines.push(
    '| instances | requests/s | median | p99 | failed | runs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [setup, t] of totals)
    lines.push(
      `| ${SETUP_LABEL[setup]} | ${t.rps.toFixed(0)} | ${ms(t.latency.median)} ms | ${ms(t.latency.p99)} ms | ${t.failed} | ${t.runs} |`,
    );
  lines.push(
    '',
    'Requests/s: the mean of the runs; median and p99 over every response of those runs.',
    '',
    'Each run, in the order run. CPU in percent of one core over the measured seconds (the machine has ' +
      `${cpu.length}, so ${cpu.length * 100} % is all of it): the DBUI instances in front, nginx's master and workers, ` +
      'every PostgreSQL process (other people’s queries included), this process (autocannon); "machine busy" is ' +
      'the share of all cores doing anyone’s work.',
    '',
    '| round | instances | requests/s | median | p99 | failed | nginx sent to | DBUI CPU | nginx CPU | PostgreSQL CPU | autocannon CPU | machine busy | 1-min load (start → end) |',
    '| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const r of run.results)
    lines.push(
      `| ${r.round} | ${SETUP_LABEL[r.setup]} | ${r.load.requestsPerSecond.toFixed(0)} | ${ms(r.latency.median)} ms | ${ms(r.latency.p99)} ms | ${r.load.failed} | ${r.split} | ` +
        `${pct(r.cpu.dbui)} | ${r.setup === 'direct' ? '—' : pct(r.cpu.nginx)} | ${pct(r.cpu.postgres)} | ${pct(r.cpu.autocannon)} | ${pct(r.cpu.machineBusy)} | ${r.loadBefore.toFixed(2)} → ${r.loadAfter.toFixed(2)} |`,
    );
  const one = totals.get('one');
  const two = totals.get('two');
  const direct = totals.get('direct');
  const measuredHere =
    one && two
      ? `Here two instances behind nginx answered ${two.rps.toFixed(0)} requests/s against ${one.rps.toFixed(0)} with one ` +
        `(${(two.rps / one.rps).toFixed(2)} times), median ${ms(two.latency.median)} ms against ${ms(one.latency.median)} ms, ` +
        `p99 ${ms(two.latency.p99)} ms against ${ms(one.latency.p99)} ms, while the DBUI processes together used ` +
        `${two.dbuiCpu.toFixed(0)} % of a core against ${one.dbuiCpu.toFixed(0)} % and the machine's cores were ` +
        `${two.busy.toFixed(0)} % and ${one.busy.toFixed(0)} % busy. ` +
        (direct
          ? `Without nginx one instance answered ${direct.rps.toFixed(0)} requests/s (median ${ms(direct.latency.median)} ms, p99 ${ms(direct.latency.p99)} ms), against ${one.rps.toFixed(0)} behind it: what the proxy hop costs here. `
          : '')
      : '';
  lines.push(
    '',
    `What this shows, and what it cannot. On this ${cpu.length}-core machine the second instance shares the same cores ` +
      'with the first, with PostgreSQL, nginx and autocannon, and with whatever else runs here (the load average ' +
      'above), so it cannot double the throughput: a second process only helps while the first leaves a core idle, and on a ' +
      'machine shared with other work two busy processes also get a larger share of the cores from the scheduler ' +
      'than one (the DBUI CPU column), so part of any gain here is taken from that other work, not capacity added. ' +
      measuredHere +
      'What it does show: nginx (least_conn) spreads the calls over both instances (the "nginx sent to" column), ' +
      'both serve the same session and XSRF cookie from one app store, nothing fails when the second joins, and what ' +
      'the proxy hop and a second process cost or gain when the cores are already shared. A gain in throughput needs ' +
      'instances on cores or hosts of their own; the script measures those the same way.',
    '',
  );
  return lines.join('\n');
}

try {
  await main();
} finally {
  await cleanUp();
}
