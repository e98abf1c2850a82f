/*
 * npm run bench:export — DBUI's export path (the export job's handler, as the job runner calls it) writing the
 * engine benchmark's table (`dbui_bench.bench_rows`, made by `npm run bench:engines`) to a file, next to the
 * databases' own tools writing the same rows: PostgreSQL `psql \copy (select …) to … csv` and MariaDB
 * `SELECT … INTO OUTFILE`. Reports rows per second and the exporting process's peak memory, and writes the table
 * to bench/results/exports.md. Not a test.
 *
 * Each DBUI export runs in a child process of its own, so its peak RSS (process.resourceUsage().maxRSS) is the
 * export's alone; the process's RSS just before the export began is reported beside it.
 *
 * Files go to BENCH_DIR (default /dev/shm, memory, when it exists): with ~900 MB per file, writing to disk makes
 * the figures depend on the page cache's write-back more than on the exporters. Each case runs BENCH_RUNS times
 * (default 3), the cases alternating, and the median is reported.
 *
 * BENCH_ROWS is the table size the engine benchmark made (default 10,000,000); BENCH_ENGINES chooses engines
 * (default postgres,mysql); BENCH_CURSOR=0 skips the PostgreSQL cursor run (JSON Lines, the path filtered exports
 * take; run once); BENCH_XLSX=1 adds one PostgreSQL XLSX run (minutes for 10 million rows).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import mysql from 'mysql2/promise';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { ExportFormat } from '#common/contract/exports.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { exportFilePath } from '#server/jobs/export-files.ts';
import { exportJob } from '#server/jobs/export-job.ts';
import { migrateAppStore, openAppStore } from '#server/store/app-store.ts';
import { findExportJob, insertExportJob } from '#server/store/export-jobs.ts';
import { insertUser } from '#server/store/users.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,mysql').split(',') as Kind[];
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_SERVER = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';
const TABLE = 'bench_rows';
const COLUMNS = 'id, name, category, amount, created_at, note';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OUT_DIR = process.env.BENCH_DIR ?? (fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());

type Kind = 'postgres' | 'mysql';

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
  url.pathname = '/dbui_bench';
  return url.toString();
};

/** The child: one DBUI export of the bench table, measured; prints its figures as JSON. */
async function child(kind: Kind, format: ExportFormat): Promise<void> {
  const dir = fs.mkdtempSync(path.join(OUT_DIR, 'dbui-bench-export-'));
  const engine = await connectDatabase('bench', kind, urlOf(kind === 'postgres' ? PG_SERVER : MYSQL_SERVER));
  const store = openAppStore({ kind: 'sqlite', file: path.join(dir, 'app.db') });
  try {
    await migrateAppStore(store);
    const now = new Date().toISOString();
    const userId = await insertUser(
      store.db,
      {
        username: 'bench',
        email: 'bench@example.com',
        passwordHash: 'not used',
        isAdmin: true,
        emailVerified: true,
      },
      now,
    );
    const schema = kind === 'postgres' ? 'public' : 'dbui_bench';
    const table = await engine.table(schema, TABLE);
    const total = await engine.countRows(table, { filter: {} });
    const id = randomUUID();
    await insertExportJob(
      store.db,
      {
        id,
        userId,
        database: 'bench',
        schema,
        table: TABLE,
        format,
        request: JSON.stringify({ filter: {}, orderBy: null, bom: false }),
        rowsTotal: total.count,
        rowsTotalIsEstimate: !total.exact,
      },
      now,
    );
    const log = pino({ level: 'warn' }) as unknown as FastifyBaseLogger;
    const job = exportJob({ store, databases: new DatabaseRegistry([engine]), dataDir: dir, log });
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    // RSS every 250 ms: the peak of the first and of the second half show whether memory grows with the rows.
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(process.memoryUsage().rss), 250);
    const started = process.hrtime.bigint();
    await job.handle({ jobId: id }, { signal: new AbortController().signal });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    const half = Math.floor(samples.length / 2);
    const peakOf = (part: number[]) => Math.max(0, ...part) / 1024 / 1024;
    const row = await findExportJob(store.db, id);
    if (row?.status !== 'done') throw new Error(`the export ended ${row?.status}: ${row?.error}`);
    const file = exportFilePath(dir, id, format);
    const measured: Measured = {
      rows: Number(row.rows_done),
      seconds,
      bytes: fs.statSync(file).size,
      // maxRSS is in kilobytes.
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      baselineRssMb: baseline / 1024 / 1024,
      halvesRssMb: [peakOf(samples.slice(0, half)), peakOf(samples.slice(half))],
    };
    process.stdout.write(`${JSON.stringify(measured)}\n`);
  } finally {
    await store.close();
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(kind: Kind, format: ExportFormat): Measured {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', kind, format],
    { encoding: 'utf8', maxBuffer: 1 << 20, env: process.env },
  );
  if (result.status !== 0) throw new Error(`the ${kind} export failed:\n${result.stderr}`);
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as Measured;
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
      'dbui_bench',
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
  for (const kind of ENGINES) {
    const have = await checkTable(kind);
    if (have !== ROWS) {
      throw new Error(
        `${kind}: dbui_bench.${TABLE} has ${have.toLocaleString()} rows, not ${ROWS.toLocaleString()}. Make it first: BENCH_ROWS=${ROWS} npm run bench:engines`,
      );
    }
    console.log(`${kind}:`);
    const natives: Measured[] = [];
    const dbui: Measured[] = [];
    for (let run = 0; run < RUNS; run++) {
      natives.push(kind === 'postgres' ? nativePostgres() : await nativeMysql());
      dbui.push(runChild(kind, 'csv'));
      console.log(
        `  run ${run + 1}: own tool ${natives.at(-1)?.seconds.toFixed(1)} s, DBUI ${dbui.at(-1)?.seconds.toFixed(1)} s`,
      );
    }
    const native = median(natives);
    if (kind === 'postgres') {
      add('PostgreSQL', '`psql \\copy (select …) to … csv`', native, null);
      add('PostgreSQL', 'DBUI CSV (COPY through the export job)', median(dbui), native);
      if (process.env.BENCH_CURSOR !== '0')
        add(
          'PostgreSQL',
          'DBUI JSON Lines (server-side cursor, 1 run)',
          runChild('postgres', 'jsonl'),
          native,
        );
      if (process.env.BENCH_XLSX === '1')
        add('PostgreSQL', 'DBUI XLSX (cursor + exceljs, 1 run)', runChild('postgres', 'xlsx'), native);
    } else {
      add('MariaDB', '`SELECT … INTO OUTFILE`', native, null);
      add('MariaDB', 'DBUI CSV (streaming query + csv-stringify)', median(dbui), native);
    }
  }
  clearInterval(loadSampler);
  const load = `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`;
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const text = [
    `${ROWS.toLocaleString('en-US')} rows of \`bench_rows\` (id, name, category, amount, created_at, note) to CSV, ordered by id; median of ${RUNS} runs, cases alternating; files written to ${OUT_DIR}; ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${cpu}), 1-minute load average ${load} during the run.`,
    '',
    lines.join('\n'),
    '',
    'Peak RSS is the exporting process’s maximum resident memory (process.resourceUsage().maxRSS); in brackets, its RSS just before the export began (Node, tsx and the loaded modules), so the difference is what the export itself took, and the highest RSS sampled (every 250 ms) in the first and in the second half of the export: equal halves mean memory does not grow with the rows. The file is bigger than the database tool’s because DBUI writes timestamps as ISO 8601 with the offset (2020-01-01T00:00:01+00:00), the wire form.',
    '',
  ].join('\n');
  console.log(`\n${text}`);
  fs.writeFileSync(new URL('./results/exports.md', import.meta.url), text);
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Kind, process.argv[4] as ExportFormat);
} else {
  await main();
}
