/*
 * npm run bench:export — DBUI's exports as people run them: a DBUI server (`node dist/server/main.js`, what
 * `npm start` runs; `npm run build` first) asked over HTTP to export the engine benchmark's table
 * (`dbui_bench.bench_rows`, made by `npm run bench:engines`), next to the databases' own tools writing the same
 * rows: PostgreSQL `psql \copy (select …) to … csv` and MariaDB `SELECT … INTO OUTFILE`. Reports rows per second
 * and the server's peak memory, and writes the table to bench/results/exports.md. Not a test.
 *
 * Each DBUI export runs on a server of its own, started on a fresh data folder, so its peak resident memory
 * (VmHWM in /proc) is that export's; the server's memory just before the export began is reported beside it.
 *
 * Files go to BENCH_DIR (default /dev/shm, memory, when it exists): with ~900 MB per file, writing to disk makes
 * the figures depend on the page cache's write-back more than on the exporters. Each case runs BENCH_RUNS times
 * (default 3), the cases alternating, and the median is reported.
 *
 * BENCH_ROWS is the table size the engine benchmark made (default 10,000,000); BENCH_ENGINES chooses engines
 * (default postgres,mysql); BENCH_CURSOR=0 skips the JSON Lines runs (PostgreSQL: COPY text converted by DBUI;
 * MariaDB: the rows through the driver; run BENCH_RUNS times beside the others); BENCH_XLSX=1 adds one XLSX run per
 * engine (about a minute each for 10 million rows); BENCH_ONLY=xlsx runs only the PostgreSQL XLSX export and
 * `psql \copy` beside it (no CSV or JSON Lines cases). DBUI_DIST names
 * a private copy of dist/ to run instead; BENCH_DATABASE the database holding the table (default dbui_bench: a
 * smaller copy of the table elsewhere makes a quicker run); BENCH_RESULTS the file written (default
 * bench/results/exports.md); BENCH_SERVER_FLAGS Node flags for DBUI's server (such as `--heap-prof`).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import mysql from 'mysql2/promise';
import type { ExportFormat } from '#common/contract/exports.ts';
import { exportFilePath } from '#server/jobs/export-files.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '#server/plugins/csrf.ts';
import { openAppStore } from '#server/store/app-store.ts';
import { benchAdministrator } from './bench-session.ts';
import { findExportJob } from '#server/store/export-jobs.ts';
import { freePort, serverPidOf, sleep } from './bench-process.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,mysql').split(',') as Kind[];
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_SERVER = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';
const TABLE = 'bench_rows';
const COLUMNS = 'id, name, category, amount, created_at, note';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DATABASE = process.env.BENCH_DATABASE ?? 'dbui_bench';
const ONLY_XLSX = process.env.BENCH_ONLY === 'xlsx';
if (process.env.BENCH_ONLY && !ONLY_XLSX) throw new Error('BENCH_ONLY takes xlsx or nothing');
const RESULTS = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : fileURLToPath(new URL('./results/exports.md', import.meta.url));
const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
const OUT_DIR = process.env.BENCH_DIR ?? (fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());

type Kind = 'postgres' | 'mysql';

/** What `npm start` runs (npm run build makes it), or DBUI_DIST's private copy of dist/. */
const SERVER_MAIN = path.resolve(
  fileURLToPath(new URL('..', import.meta.url)),
  process.env.DBUI_DIST ?? 'dist',
  'server',
  'main.js',
);

interface Measured {
  rows: number;
  seconds: number;
  bytes: number;
  peakRssMb: number | null;
  baselineRssMb: number | null;
  /** The highest RSS sampled in the first and in the second half of the export. */
  halvesRssMb?: [number, number];
}

const urlOf = (server: string) => {
  const url = new URL(server);
  url.pathname = `/${DATABASE}`;
  return url.toString();
};

/** A data folder with an administrator's live session (benchAdministrator). */
async function preparedDataDir(): Promise<{ dir: string; token: string }> {
  const dir = fs.mkdtempSync(path.join(OUT_DIR, 'dbui-bench-export-'));
  return { dir, token: await benchAdministrator(path.join(dir, 'app.db')) };
}

/** A field of /proc/{pid}/status in MB (VmRSS: resident now; VmHWM: the peak so far). */
function procMemoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * One export through a DBUI server of its own, the way `npm start` runs it (`node dist/server/main.js`, no tsx):
 * started on a fresh data folder with the bench database as its only database, asked over HTTP to export the
 * table (POST …/export), its status read every 100 ms until done. The server's resident memory is read from
 * /proc: just before the export starts, every status read, and its peak (VmHWM) at the end.
 */
async function serverExport(kind: Kind, format: ExportFormat): Promise<Measured> {
  const { dir, token } = await preparedDataDir();
  const port = await freePort();
  const server = spawn(process.execPath, [...SERVER_FLAGS, SERVER_MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      DATABASES: `bench=${urlOf(kind === 'postgres' ? PG_SERVER : MYSQL_SERVER)}`,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const pid = server.pid;
    if (!pid) throw new Error('the server did not start');
    for (let tries = 0; ; tries++) {
      const up = await fetch(`${base}/api/health`).catch(() => null);
      if (up?.ok) break;
      if (tries > 300 || server.exitCode !== null) throw new Error('the server did not answer /api/health');
      await sleep(100);
    }
    const authorization = `Bearer ${token}`;
    const cookieAnswer = await fetch(`${base}/api/setup`, { headers: { authorization } });
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookieAnswer.headers.get('set-cookie') ?? '')?.[1];
    if (!xsrf) throw new Error('the server set no XSRF-TOKEN cookie');
    const headers = { authorization, cookie: `${XSRF_COOKIE}=${xsrf}`, [XSRF_HEADER]: xsrf };
    const schema = kind === 'postgres' ? 'public' : DATABASE;
    const tablePath = `${base}/api/sql/bench/${schema}/${TABLE}/export`;
    // The server's own process, not the guardian that started it (bench-process.ts).
    const serverPid = serverPidOf(pid);
    const baseline = procMemoryMb(serverPid, 'VmRSS');
    const samples: number[] = [];
    const started = process.hrtime.bigint();
    const start = await fetch(`${tablePath}?format=${format}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    const startBody = (await start.json()) as { data?: { id?: string }; message?: string };
    const id = startBody.data?.id;
    if (!id) throw new Error(`the export did not start: ${start.status} ${startBody.message}`);
    for (;;) {
      await sleep(100);
      samples.push(procMemoryMb(serverPid, 'VmRSS'));
      const answer = (await (await fetch(`${tablePath}/${id}`, { headers })).json()) as {
        message?: string;
        data?: { state: string; inProgress: boolean };
      };
      const status = answer.data;
      if (!status) throw new Error(`no export status: ${answer.message}`);
      if (status.inProgress) continue;
      if (status.state !== 'done') throw new Error(`the export ended ${status.state}: ${answer.message}`);
      break;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const file = exportFilePath(dir, id, format);
    const peakRssMb = procMemoryMb(serverPid, 'VmHWM');
    const store = openAppStore({ kind: 'sqlite', file: path.join(dir, 'app.db') });
    const rows = Number((await findExportJob(store.db, id))?.rows_done);
    await store.close();
    const half = Math.floor(samples.length / 2);
    const peakOf = (part: number[]) => Math.max(0, ...part);
    return {
      rows,
      seconds,
      bytes: fs.statSync(file).size,
      peakRssMb,
      baselineRssMb: baseline,
      halvesRssMb: [peakOf(samples.slice(0, half)), peakOf(samples.slice(half))],
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The run with the median time. */
function median(runs: Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error('no runs');
  return middle;
}

/** Runs a command, timed; throws with its error output when it fails. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', env, maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.error?.message}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function checkTable(kind: Kind): Promise<number> {
  try {
    if (kind === 'postgres') {
      const client = new pg.Client({ connectionString: urlOf(PG_SERVER) });
      await client.connect();
      try {
        return Number((await client.query(`select max(id) as n from ${TABLE}`)).rows[0].n);
      } finally {
        await client.end();
      }
    }
    const connection = await mysql.createConnection({ uri: urlOf(MYSQL_SERVER) });
    try {
      const [rows] = await connection.query(`select max(id) as n from ${TABLE}`);
      return Number((rows as { n: number }[])[0]?.n);
    } finally {
      await connection.end();
    }
  } catch {
    return 0;
  }
}

function nativePostgres(): Measured {
  const file = path.join(OUT_DIR, `dbui-bench-${randomUUID()}.csv`);
  try {
    const url = new URL(urlOf(PG_SERVER));
    const seconds = timed('psql', [
      '-X',
      '-q',
      '-h',
      url.hostname,
      '-p',
      url.port || '5432',
      '-U',
      decodeURIComponent(url.username) || 'postgres',
      '-d',
      DATABASE,
      '-c',
      `\\copy (select ${COLUMNS} from ${TABLE} order by id) to '${file}' csv`,
    ]);
    return { rows: ROWS, seconds, bytes: fs.statSync(file).size, peakRssMb: null, baselineRssMb: null };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function nativeMysql(): Promise<Measured> {
  // Written by the server process itself, so into a folder it may write (secure_file_priv must allow it).
  const connection = await mysql.createConnection({ uri: urlOf(MYSQL_SERVER) });
  const [settings] = await connection.query('select @@secure_file_priv as dir');
  const allowed = (settings as { dir: string | null }[])[0]?.dir;
  const folder = allowed && allowed !== '' ? allowed : OUT_DIR;
  const file = path.join(folder, `dbui-bench-${randomUUID()}.csv`);
  try {
    const started = process.hrtime.bigint();
    await connection.query(
      `select ${COLUMNS} from ${TABLE} order by id into outfile ? fields terminated by ',' optionally enclosed by '"' escaped by '"' lines terminated by '\\n'`,
      [file],
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { rows: ROWS, seconds, bytes: fs.statSync(file).size, peakRssMb: null, baselineRssMb: null };
  } finally {
    await connection.end();
    fs.rmSync(file, { force: true });
  }
}

async function main(): Promise<void> {
  // Other work on the machine changes these figures a lot: the 1-minute load average is recorded with them.
  const loads: number[] = [os.loadavg()[0] ?? 0];
  const loadSampler = setInterval(() => loads.push(os.loadavg()[0] ?? 0), 5000);
  const lines = [
    '| engine | path | rows | time | rows/s | vs the database’s own tool | file | peak RSS (before; 1st / 2nd half) |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const add = (engine: string, name: string, m: Measured, native: Measured | null) => {
    const rate = m.rows / m.seconds;
    const ratio = native ? `${((rate / (native.rows / native.seconds)) * 100).toFixed(0)} %` : '—';
    const memory =
      m.peakRssMb === null
        ? '—'
        : `${m.peakRssMb.toFixed(0)} MB (${(m.baselineRssMb ?? 0).toFixed(0)} MB; ${(m.halvesRssMb ?? [0, 0]).map((x) => x.toFixed(0)).join(' / ')} MB)`;
    lines.push(
      `| ${engine} | ${name} | ${fmt(m.rows)} | ${m.seconds.toFixed(1)} s | ${fmt(rate)} | ${ratio} | ${(m.bytes / 1e6).toFixed(0)} MB | ${memory} |`,
    );
    console.log(`  ${name}: ${m.seconds.toFixed(1)} s, ${fmt(rate)} rows/s, ${memory}`);
  };
  for (const kind of ONLY_XLSX ? (['postgres'] as const) : ENGINES) {
    const have = await checkTable(kind);
    if (have !== ROWS) {
      throw new Error(
        `${kind}: ${DATABASE}.${TABLE} has ${have.toLocaleString()} rows, not ${ROWS.toLocaleString()}. Make it first: BENCH_ROWS=${ROWS} npm run bench:engines`,
      );
    }
    console.log(`${kind}:`);
    const natives: Measured[] = [];
    const dbui: Measured[] = [];
    const jsonLines: Measured[] = [];
    const withJsonLines = process.env.BENCH_CURSOR !== '0' && !ONLY_XLSX;
    for (let run = 0; run < RUNS; run++) {
      natives.push(kind === 'postgres' ? nativePostgres() : await nativeMysql());
      if (!ONLY_XLSX) dbui.push(await serverExport(kind, 'csv'));
      if (withJsonLines) jsonLines.push(await serverExport(kind, 'jsonl'));
      console.log(
        `  run ${run + 1}: own tool ${natives.at(-1)?.seconds.toFixed(1)} s, DBUI ${dbui.at(-1)?.seconds.toFixed(1) ?? '(not run)'} s${withJsonLines ? `, JSON Lines ${jsonLines.at(-1)?.seconds.toFixed(1)} s` : ''}`,
      );
    }
    const native = median(natives);
    if (kind === 'postgres') {
      add('PostgreSQL', '`psql \\copy (select …) to … csv`', native, null);
      if (!ONLY_XLSX) add('PostgreSQL', 'DBUI CSV (COPY text converted by DBUI)', median(dbui), native);
      if (withJsonLines)
        add('PostgreSQL', 'DBUI JSON Lines (COPY text converted by DBUI)', median(jsonLines), native);
      if (process.env.BENCH_XLSX === '1' || ONLY_XLSX)
        add(
          'PostgreSQL',
          'DBUI XLSX (cursor, sheet XML by DBUI, zipped by yazl, 1 run)',
          await serverExport('postgres', 'xlsx'),
          native,
        );
    } else {
      add('MariaDB', '`SELECT … INTO OUTFILE`', native, null);
      add('MariaDB', 'DBUI CSV (the driver’s raw cells written as CSV, streamed)', median(dbui), native);
      if (withJsonLines)
        add(
          'MariaDB',
          'DBUI JSON Lines (rows through the driver, JSON.stringify)',
          median(jsonLines),
          native,
        );
      if (process.env.BENCH_XLSX === '1')
        add(
          'MariaDB',
          'DBUI XLSX (rows through the driver, sheet XML by DBUI, zipped by yazl, 1 run)',
          await serverExport('mysql', 'xlsx'),
          native,
        );
    }
  }
  clearInterval(loadSampler);
  const load = `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const text = [
    `${ROWS.toLocaleString('en-US')} rows of \`bench_rows\` (id, name, category, amount, created_at, note) exported, ordered by id; median of ${RUNS} runs, cases alternating; files written to ${OUT_DIR}; ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}), 1-minute load average ${load} during the run.`,
    '',
    lines.join('\n'),
    '',
    'Peak RSS is the DBUI server’s maximum resident memory over its whole life (VmHWM), the server started for that export alone; in brackets, its RSS just before the export began (a started server that has answered a few requests), so the difference is what the export took, and the highest RSS sampled (every 100 ms, at each status read) in the first and in the second half of the export: equal halves mean memory does not grow with the rows. Time runs from the start call to the status read that reports the export done. The file is bigger than the database tool’s because DBUI writes timestamps as ISO 8601 with the offset (2020-01-01T00:00:01+00:00), the wire form.',
    '',
  ].join('\n');
  console.log(`\n${text}`);
  fs.writeFileSync(RESULTS, text);
}

await main();
