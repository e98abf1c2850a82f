/*
 * npm run bench:http-ab — two DBUI builds side by side, for deciding whether a change makes the request path cheaper.
 * On two shared cores a whole bench:http run moves by 15-50 % from one run to the next (the minimal server's own
 * requests a second too), so comparing two runs of it tells nothing about a change of a few per cent. Here both
 * builds run at once, each on its own data folder with the same databases, and take turns under the same load:
 * short alternating runs (A B, then B A, …) of the first page at one concurrency, each counted after a second
 * uncounted on the same connections. What drifts over minutes falls on both alike; the answer is the median of the
 * pairs' ratios of requests a second, and each build's median CPU time a request (the server's user and system
 * time over the counted seconds, /proc).
 *
 * Settings: BENCH_A and BENCH_B (each a built dist/ folder, default dist; copy one aside first), BENCH_A_FLAGS and
 * BENCH_B_FLAGS (Node flags, e.g. `--max-semi-space-size=32` to try one on the same build), BENCH_TARGET (postgres
 * or mysql; the 10-million-row `bench_rows` of bench:http, made if missing), BENCH_CONNECTIONS (50), BENCH_ROUNDS
 * (8), BENCH_DURATION (seconds a counted run, 4). Prints one line a round and the summary. Not a test.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchAdministrator, pageCall, signedInSession } from './bench-session.ts';
import { loadRun, loadRunWithCpu, type Call } from './bench-load.ts';
import { median } from './bench-stats.ts';
import { freePort, serverPidOf, startProcess, stopProcess } from './bench-process.ts';
import { BENCH_TABLE, ensureMariadbRows, ensurePostgresRows } from './http-tables.ts';

const TARGET = process.env.BENCH_TARGET ?? 'postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_SERVER = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';
const DATABASE = 'dbui_bench';

if (TARGET !== 'postgres' && TARGET !== 'mysql') throw new Error('BENCH_TARGET: postgres or mysql.');

interface Build {
  name: 'A' | 'B';
  main: string;
  flags: string[];
}

interface Running extends Build {
  child: ChildProcess;
  origin: string;
  call: Call;
  dataDir: string;
  requestsPerSecond: number[];
  cpuMicroseconds: number[];
}

const builds: Build[] = (['A', 'B'] as const).map((name) => ({
  name,
  main: path.resolve(process.env[`BENCH_${name}`] ?? 'dist', 'server', 'main.js'),
  flags: (process.env[`BENCH_${name}_FLAGS`] ?? '').split(' ').filter(Boolean),
}));

/** A built server on a data folder of its own, signed in as an administrator: its first-page call. */
async function start(build: Build, url: string, schema: string): Promise<Running> {
  if (!fs.existsSync(build.main)) throw new Error(`${build.main} is missing: build it first.`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `dbui-bench-ab-${build.name}-`));
  const token = await benchAdministrator(path.join(dataDir, 'app.db'));
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    DATABASES: `bench=${url}`,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
  };
  const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
  const { child, origin } = await startProcess([...build.flags, build.main], env, port, ['/api/health'], log);
  const call = pageCall(
    await signedInSession(origin, token),
    { db: 'bench', schema, table: BENCH_TABLE },
    1,
    {},
  );
  const check = await fetch(origin + call.path, {
    method: 'POST',
    headers: call.headers,
    body: call.body ?? '',
  });
  if (check.status !== 200) throw new Error(`${build.name}: the first page answered ${check.status}`);
  await check.arrayBuffer();
  return { ...build, child, origin, call, dataDir, requestsPerSecond: [], cpuMicroseconds: [] };
}

/** One counted run on one server: requests a second and CPU time a request. */
async function measure(server: Running): Promise<string> {
  const run = await loadRunWithCpu(
    serverPidOf(server.child.pid ?? 0),
    server.origin,
    [server.call],
    CONNECTIONS,
    DURATION,
    1,
  );
  const requests = run.samples.length + run.failed;
  const microseconds = ((run.userMs + run.systemMs) * 1000) / Math.max(1, requests);
  server.requestsPerSecond.push(run.requestsPerSecond);
  server.cpuMicroseconds.push(microseconds);
  if (run.failed) throw new Error(`${server.name}: ${run.failed} requests failed`);
  return `${server.name} ${run.requestsPerSecond.toFixed(0)} req/s, ${microseconds.toFixed(0)} µs CPU a request`;
}

async function main() {
  const url =
    TARGET === 'postgres'
      ? await ensurePostgresRows(PG_SERVER, DATABASE, 10_000_000)
      : await ensureMariadbRows(MYSQL_SERVER, DATABASE, 10_000_000);
  const schema = TARGET === 'postgres' ? 'public' : DATABASE;
  const servers: Running[] = [];
  try {
    for (const build of builds) servers.push(await start(build, url, schema));
    const [a, b] = servers as [Running, Running];
    // Warm both (the JIT, the pools) before anything counts.
    for (const server of servers) await loadRun(server.origin, [server.call], CONNECTIONS, 4, { seconds: 1 });
    for (const server of servers) server.requestsPerSecond.length = server.cpuMicroseconds.length = 0;
    console.log(`${TARGET}, first page, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s each`);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [a, b] : [b, a];
      const lines: string[] = [];
      for (const server of order) lines.push(await measure(server));
      console.log(`round ${round + 1}: ${lines.join(' | ')}`);
    }
    const ratios = a.requestsPerSecond.map((rps, i) => (b.requestsPerSecond[i] ?? NaN) / rps);
    console.log(
      `A: ${median(a.requestsPerSecond).toFixed(0)} req/s, ${median(a.cpuMicroseconds).toFixed(0)} µs CPU a request; ` +
        `B: ${median(b.requestsPerSecond).toFixed(0)} req/s, ${median(b.cpuMicroseconds).toFixed(0)} µs; ` +
        `B / A ${(median(ratios) * 100).toFixed(1)} % (median of the rounds' ratios, ` +
        `${(Math.min(...ratios) * 100).toFixed(0)}-${(Math.max(...ratios) * 100).toFixed(0)} %)`,
    );
  } finally {
    for (const server of servers) {
      await stopProcess(server.child);
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  }
}

await main();
