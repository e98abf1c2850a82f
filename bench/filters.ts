/*
 * npm run bench:filters — filter documents (issue 35, decision 0061) through DBUI's engine layer against the same
 * statements through the bare driver, on the generated 10-million-row table of bench:engines (`bench_rows` in the
 * database `dbui_bench`, made once and reused: bench/http-tables.ts). Prints a Markdown table and writes it to
 * bench/results/filters.md. Not a test: figures go into the README's performance section.
 *
 * The driver's side runs exactly what DBUI sent: each run's DBUI call is first made once while the statements are
 * recorded at the driver (the text and values each pooled connection was given, in order: pg's client.query on
 * DBUI's ConnectingClient, mysql2's Connection.query), then the timed runs alternate DBUI's call (nothing recorded)
 * with the driver's replay of that run's statements: each connection's in its order on a connection of the driver's
 * own pool, the connections at once (as DBUI's count and page run at once). Recording first also means each run's
 * rows were read once before either side is timed, so neither warms the cache for the other. The scanning case is
 * recorded as it runs (its 5 s dwarf the recording). Beside the times, the CPU time of this process a call: what DBUI
 * adds on the client whatever the machine's load (at a load of 8 on two cores, a millisecond of CPU is several of
 * wall time).
 *
 * Cases, each on PostgreSQL and MariaDB: the first filtered page by equality, range (between), prefix (startsWith)
 * and an AND of an indexed condition with a scanning one (the index narrows first), target DBUI ≤ driver + 1 ms;
 * Next and Previous under the equality filter (each page read from its neighbour's cursor), target what the first
 * filtered page costs; a filter that scans the whole table (`note contains` a text no row holds) under the scan
 * budget, target the 504 within budget + 1 s and nothing of it left running on the database (pg_stat_activity,
 * information_schema.processlist); the plan call, target under 5 ms (median and p95).
 *
 * BENCH_ROWS sets the table size (default 10,000,000), BENCH_RUNS the timed runs per case (default 30),
 * BENCH_SCAN_RUNS the runs of the scanning case (default 5: each takes the budget twice), SCAN_TIMEOUT_MS the scan
 * budget (default 5000), BENCH_ENGINES the engines (default postgres,mysql), BENCH_DATABASE another database for a
 * private run (printed only). The 1-minute load average is sampled every 5 s and reported with the table.
 */
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import mysqlCallbacks from 'mysql2';
import mysql from 'mysql2/promise';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import {
  defaultEngineOptions,
  type DatabaseEngine,
  type EnginePage,
  type PageBoundary,
} from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { ConnectingClient } from '#server/engines/postgres/guarded-pool.ts';
import { sessionOptions } from '#server/engines/postgres/types.ts';
import { ms, summarise, timePair, type Timing } from './bench-stats.ts';
import { BENCH_TABLE, checkedDatabaseName, ensureMariadbRows, ensurePostgresRows } from './http-tables.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const SCAN_RUNS = Number(process.env.BENCH_SCAN_RUNS ?? 5);
const SCAN_BUDGET_MS = Number(process.env.SCAN_TIMEOUT_MS ?? 5000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,mysql').split(',') as Kind[];
const PAGE_SIZE = 20;
/** Untimed runs of each side before the timed ones. */
const WARMUP = 3;
const STATEMENT_TIMEOUT_MS = defaultEngineOptions.statementTimeoutMs;
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_SERVER = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';
const TABLE = BENCH_TABLE;
/** Another database for a private run (the default is shared with bench:engines and bench:http). */
const DATABASE = checkedDatabaseName(process.env.BENCH_DATABASE ?? 'dbui_bench');

type Kind = 'postgres' | 'mysql';
const engineName = (kind: Kind) => (kind === 'mysql' ? 'MariaDB' : 'PostgreSQL');

// ---------------------------------------------------------------------------------------------------------------
// What DBUI sends, recorded at the driver.

/** One statement as a pooled connection of DBUI's was given it. */
interface Statement {
  connection: object;
  text: string;
  values: unknown[];
}

/** The statements of the call being recorded; null when nothing is. */
let recording: Statement[] | null = null;
/** The bench's own connections (its monitor and driver pool), never recorded. */
const ownConnections = new WeakSet<object>();

interface QueryOwner {
  query: (this: object, ...args: unknown[]) => unknown;
}

/** Wraps a driver class's query so the statements given while recording are kept (the query itself unchanged). */
function recordQueries(owner: QueryOwner): void {
  const original = owner.query;
  owner.query = function (this: object, ...args: unknown[]) {
    if (recording && typeof args[0] === 'string' && !ownConnections.has(this))
      recording.push({ connection: this, text: args[0], values: Array.isArray(args[1]) ? [...args[1]] : [] });
    return original.apply(this, args);
  };
}
// DBUI's pg pool opens ConnectingClient (the bench's own clients are plain pg.Client); mysql2's pool connections
// are Connections, as the bench's own are (those are left out by ownConnections).
recordQueries(ConnectingClient.prototype as unknown as QueryOwner);
recordQueries(mysqlCallbacks.Connection.prototype as unknown as QueryOwner);

/** The statements grouped by the connection that ran them, in the order each first ran. */
function byConnection(statements: Statement[]): Statement[][] {
  const groups = new Map<object, Statement[]>();
  for (const statement of statements) {
    const group = groups.get(statement.connection);
    if (group) group.push(statement);
    else groups.set(statement.connection, [statement]);
  }
  return [...groups.values()];
}

// ---------------------------------------------------------------------------------------------------------------
// The bare driver.

/** The driver's side: runs recorded statements, and sees what still runs in the bench database. */
interface Driver {
  /** Each connection's statements in order on a connection of the driver's own pool, the connections at once; a
   * failed statement does not stop its connection's later ones (the rollback after it), and the first failure is
   * thrown once that connection is done, as Promise.all does for DBUI's count and page. */
  replay(statements: Statement[]): Promise<void>;
  /** Resolves when every connection of the last replay is done (one may go on after another failed). */
  settled(): Promise<void>;
  /** The statements running in the bench database now, seen from a connection of their own. */
  activity(): Promise<string[]>;
  close(): Promise<void>;
}

function replayGroups(
  statements: Statement[],
  run: (group: Statement[]) => Promise<void>,
): { done: Promise<void>; settled: Promise<void> } {
  const groups = byConnection(statements).map(run);
  return {
    done: Promise.all(groups).then(() => undefined),
    settled: Promise.allSettled(groups).then(() => undefined),
  };
}

/** Runs a connection's statements in order; the first failure thrown after the rest ran. */
async function inOrder(group: Statement[], query: (statement: Statement) => Promise<unknown>): Promise<void> {
  let failure: unknown = null;
  for (const statement of group) {
    try {
      await query(statement);
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}

async function postgresDriver(url: string): Promise<Driver> {
  // As DBUI's pool sessions are (postgres/connect.ts): the same session options and statement timeout.
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    options: sessionOptions,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'dbui-bench-driver',
  });
  pool.on('error', () => undefined);
  const monitor = new pg.Client({ connectionString: url, application_name: 'dbui-bench-monitor' });
  await monitor.connect();
  let settled = Promise.resolve();
  return {
    async replay(statements) {
      const replay = replayGroups(statements, async (group) => {
        const client = await pool.connect();
        try {
          await inOrder(group, (s) => client.query(s.text, s.values));
        } finally {
          client.release();
        }
      });
      settled = replay.settled;
      return replay.done;
    },
    settled: () => settled,
    async activity() {
      const { rows } = await monitor.query<{ pid: number; state: string | null; query: string }>(
        `select pid, state, left(query, 120) as query from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and state is distinct from 'idle'`,
        [DATABASE],
      );
      return rows.map((r) => `${r.pid} ${r.state}: ${r.query}`);
    },
    async close() {
      await monitor.end();
      await pool.end();
    },
  };
}

async function mysqlDriver(url: string): Promise<Driver> {
  // As DBUI's pool is (mysql/connect.ts): the same value options, and each session's time zone and timeout.
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: 4,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    dateStrings: true,
    jsonStrings: true,
    timezone: 'Z',
  });
  const prepared = new Set<number>();
  const monitor = await mysql.createConnection({ uri: url });
  // mysql2 types the core connection on pooled connections only; the promise wrapper holds one either way.
  ownConnections.add((monitor as unknown as { connection: object }).connection);
  let settled = Promise.resolve();
  return {
    async replay(statements) {
      const replay = replayGroups(statements, async (group) => {
        const connection = await pool.getConnection();
        ownConnections.add(connection.connection);
        try {
          if (!prepared.has(connection.threadId)) {
            await connection.query("SET time_zone = '+00:00', max_statement_time = ?", [
              STATEMENT_TIMEOUT_MS / 1000,
            ]);
            prepared.add(connection.threadId);
          }
          await inOrder(group, (s) => connection.query(s.text, s.values));
        } finally {
          connection.release();
        }
      });
      settled = replay.settled;
      return replay.done;
    },
    settled: () => settled,
    async activity() {
      const [rows] = await monitor.query(
        `select id, command, state, left(info, 120) as info from information_schema.processlist
          where db = ? and id <> connection_id() and command <> 'Sleep'`,
        [DATABASE],
      );
      return (rows as { id: number; command: string; state: string; info: string | null }[]).map(
        (r) => `${r.id} ${r.command} ${r.state}: ${r.info ?? ''}`,
      );
    },
    async close() {
      await monitor.end();
      await pool.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The cases.

interface Result {
  name: string;
  dbui: Timing;
  driver: Timing;
  target: string;
  met: boolean;
}

interface EngineRun {
  kind: Kind;
  rows: string;
  results: Result[];
  notes: string[];
  /** One call's statements per case, as DBUI sent them. */
  statements: Map<string, Statement[]>;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const START = Date.UTC(2020, 0, 1);
const mod = (i: number, n: number) => ((i % n) + n) % n;
const prefixes = ['abc', 'f00', '1234', 'dead', 'beef', '0a1b', '77', 'c0ff'];

/** The filters of the cases: `i` is the run (negative for warm-ups), so values change between runs. */
const filters = {
  /** 10,000 rows of 10 M (one in 1,000), through the category index. */
  equality: { column: 'category', op: 'eq', value: 7 } satisfies FilterDocument,
  /** An hour of created_at (3,601 rows), through its index. */
  range: (i: number): FilterDocument => {
    const from = START + mod(i * 7919, Math.max(1, ROWS - 3600)) * 1000;
    return { column: 'created_at', op: 'between', values: [iso(from), iso(from + 3600_000)] };
  },
  /** About 2,400 rows for a three-letter prefix of an md5, through the name index. */
  prefix: (i: number): FilterDocument => ({
    column: 'name',
    op: 'startsWith',
    value: prefixes[mod(i, prefixes.length)]!,
  }),
  /** An hour of created_at (3,601 rows through its index) and a contains on the unindexed note among them (a few
   * per cent match). Not a category: `category = c and note like '%99%' order by id limit 20` is read by both
   * engines along the primary key (their estimate of the matches makes the key's order look cheaper than the
   * category's 10,000 rows sorted), which examined a million rows in 2 s here: the index did not narrow first. */
  narrowedScan: (i: number): FilterDocument => {
    const from = START + mod(i * 7919 + 1801, Math.max(1, ROWS - 3600)) * 1000;
    return {
      and: [
        { column: 'created_at', op: 'between', values: [iso(from), iso(from + 3600_000)] },
        { column: 'note', op: 'contains', value: '99' },
      ],
    };
  },
  /** No index serves it and no row matches: every row is examined. */
  scan: { column: 'note', op: 'contains', value: 'zzzz' } satisfies FilterDocument,
};

const elapsedMs = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

async function prepare(kind: Kind): Promise<{ url: string; schema: string; driver: Driver }> {
  if (kind === 'postgres') {
    const url = await ensurePostgresRows(PG_SERVER, DATABASE, ROWS);
    return { url, schema: 'public', driver: await postgresDriver(url) };
  }
  const url = await ensureMariadbRows(MYSQL_SERVER, DATABASE, ROWS);
  return { url, schema: DATABASE, driver: await mysqlDriver(url) };
}

/** Polls the bench database until nothing of it runs; the milliseconds that took (null: still running after
 * `withinMs`). */
async function untilIdle(driver: Driver, withinMs: number): Promise<number | null> {
  const started = process.hrtime.bigint();
  for (;;) {
    if ((await driver.activity()).length === 0) return elapsedMs(started);
    if (elapsedMs(started) > withinMs) return null;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function measure(kind: Kind): Promise<EngineRun> {
  const { url, schema, driver } = await prepare(kind);
  const engine: DatabaseEngine = await connectDatabase('bench', kind, url, {
    ...defaultEngineOptions,
    scanTimeoutMs: SCAN_BUDGET_MS,
  });
  const run: EngineRun = { kind, rows: '', results: [], notes: [], statements: new Map() };
  try {
    const table = await engine.table(schema, TABLE);
    run.rows = `${table.numberOfRows.toLocaleString('en-US')} rows (${table.numberOfRowsIsEstimate ? 'estimate' : 'exact'})`;
    console.log(`${kind}: ${run.rows}`);
    const indexes = table.indexes.map((index) => `${index.name} (${index.columns.join(', ')})`).join(', ');
    run.notes.push(`indexes: ${indexes}; note (text) and amount (decimal) have none.`);

    // Each filter's plan first: the indexed cases must not scan, the scanning one must.
    const planned: [string, FilterDocument, boolean][] = [
      ['equality', filters.equality, false],
      ['range', filters.range(0), false],
      ['prefix', filters.prefix(0), false],
      ['index and scan', filters.narrowedScan(0), false],
      ['scan', filters.scan, true],
    ];
    for (const [name, where, scans] of planned) {
      const plan = await engine.plan(table, { where });
      const access = plan.conditions.map((c) => `${c.column} ${c.op}: ${c.access}`).join(', ');
      console.log(`  plan of ${name}: ${access}; scans ${plan.scans}; estimate ${plan.estimatedRows}`);
      if (plan.scans !== scans) throw new Error(`the ${name} filter should ${scans ? '' : 'not '}scan`);
    }

    const page = (where: FilterDocument, number = 1, from?: { page: number; boundary: PageBoundary }) =>
      engine.page(table, { filter: {}, where, page: number, pageSize: PAGE_SIZE, from });
    const pair = async (
      name: string,
      target: (dbui: Timing, driver: Timing) => { text: string; met: boolean },
      call: (i: number) => Promise<unknown>,
    ) => {
      // Each run's statements recorded first (warm-ups too), so the timed runs are DBUI as it runs (nothing
      // recorded) and the driver's replay of that run's statements, each side's rows read once before.
      const recorded = new Map<number, Statement[]>();
      for (let i = -WARMUP; i < RUNS; i++) {
        const statements: Statement[] = (recording = []);
        try {
          await call(i);
        } finally {
          recording = null;
        }
        if (statements.length === 0) throw new Error(`${name}: no statement was recorded`);
        recorded.set(i, statements);
      }
      const [dbui, direct] = await timePair(RUNS, call, (i) => driver.replay(recorded.get(i)!), WARMUP);
      run.statements.set(name, recorded.get(0)!);
      const { text, met } = target(dbui, direct);
      run.results.push({ name, dbui, driver: direct, target: text, met });
      console.log(`  ${name}: DBUI ${ms(dbui.median)} ms, driver ${ms(direct.median)} ms`);
      return dbui;
    };
    const plusOneMs = (dbui: Timing, direct: Timing) => ({
      text: '≤ driver + 1 ms',
      met: dbui.median <= direct.median + 1,
    });

    // 1. The first filtered page.
    const firstPage = await pair('first page, category eq (indexed)', plusOneMs, () =>
      page(filters.equality),
    );
    await pair('first page, created_at between (indexed)', plusOneMs, (i) => page(filters.range(i)));
    await pair('first page, name startsWith (indexed)', plusOneMs, (i) => page(filters.prefix(i)));
    await pair('first page, created_at between and note contains (index narrows)', plusOneMs, (i) =>
      page(filters.narrowedScan(i)),
    );

    // 2. Next and Previous under the equality filter: the boundaries of its first pages, read once, then each run
    // one page from its neighbour's boundary (its cursor, decoded).
    const chain: PageBoundary[] = [];
    let shown: EnginePage = await page(filters.equality);
    chain[1] = shown.boundary!;
    for (let p = 2; p <= RUNS + 4; p++) {
      shown = await page(filters.equality, p, { page: p - 1, boundary: chain[p - 1]! });
      if (!shown.boundary || shown.results.length < PAGE_SIZE) break;
      chain[p] = shown.boundary;
      if (shown.countIsExact && p * PAGE_SIZE >= shown.count) break;
    }
    const pages = chain.length - 1;
    if (pages < 2) throw new Error('the equality filter keeps too few rows for Next and Previous');
    const sameCost = (dbui: Timing, direct: Timing) => ({
      text: '≤ driver + 1 ms and ≤ first page + 1 ms',
      met: dbui.median <= direct.median + 1 && dbui.median <= firstPage.median + 1,
    });
    const seeking = async (number: number, from: number) => {
      const result = await page(filters.equality, number, { page: from, boundary: chain[from]! });
      if (!result.readBy.seek || result.results.length !== PAGE_SIZE)
        throw new Error(`page ${number} from page ${from} was not read by seeking`);
      return result;
    };
    await pair(`Next under category eq (pages 2 to ${pages})`, sameCost, (i) => {
      const from = 1 + mod(i, pages - 1);
      return seeking(from + 1, from);
    });
    await pair(`Previous under category eq (pages ${pages - 1} to 1)`, sameCost, (i) => {
      const from = pages - mod(i, pages - 1);
      return seeking(from - 1, from);
    });

    // 4. The plan call (one EXPLAIN).
    const underFive = (dbui: Timing) => ({
      text: '< 5 ms (median, p95)',
      met: dbui.median < 5 && dbui.p95 < 5,
    });
    await pair('plan, created_at between and note contains', underFive, (i) =>
      engine.plan(table, { where: filters.narrowedScan(i) }),
    );
    await pair('plan, note contains (scans)', underFive, () => engine.plan(table, { where: filters.scan }));

    // 3. The scan under its budget: DBUI's 504, then the same statements through the driver, one after the other;
    // after each, what of it still runs in the database.
    const dbuiTimes: number[] = [];
    const driverTimes: number[] = [];
    const outcomes: string[] = [];
    const runningAtAnswer: number[] = [];
    const clearedMs: (number | null)[] = [];
    let message = '';
    for (let i = 0; i < SCAN_RUNS; i++) {
      const statements: Statement[] = (recording = []);
      let started = process.hrtime.bigint();
      try {
        const answered = await page(filters.scan);
        outcomes.push(`answered (${answered.results.length} rows)`);
      } catch (error) {
        if (!(error instanceof EngineError) || error.statusCode !== 504) throw error;
        outcomes.push('504');
        message = error.message;
      }
      dbuiTimes.push(elapsedMs(started));
      const running = await driver.activity();
      runningAtAnswer.push(running.length);
      if (running.length) console.log(`    running at DBUI's answer: ${running.join(' | ')}`);
      // Until nothing runs (the count, started with the page, stops at its own budget), recording on: a
      // transaction's rollback after the answer belongs to what the driver replays.
      clearedMs.push(running.length ? await untilIdle(driver, SCAN_BUDGET_MS + 5000) : 0);
      recording = null;
      run.statements.set('scan', statements);

      started = process.hrtime.bigint();
      try {
        await driver.replay(statements);
      } catch (error) {
        const { code, errno } = error as { code?: unknown; errno?: unknown };
        if (code !== '57014' && errno !== 1969 && errno !== 3024) throw error;
      }
      driverTimes.push(elapsedMs(started));
      await driver.settled();
      await untilIdle(driver, SCAN_BUDGET_MS + 5000);
      console.log(
        `  scan ${i + 1}: DBUI ${outcomes.at(-1)} in ${ms(dbuiTimes.at(-1)!)} ms, driver ${ms(driverTimes.at(-1)!)} ms`,
      );
    }
    const dbui = summarise(dbuiTimes);
    const cleared = clearedMs.every((c) => c !== null && c <= 1000);
    run.results.push({
      name: `scan: note contains, no index, ${SCAN_BUDGET_MS} ms budget (${SCAN_RUNS} runs)`,
      dbui,
      driver: summarise(driverTimes),
      target: '≤ budget + 1 s, nothing left running',
      met: Math.max(...dbuiTimes) <= SCAN_BUDGET_MS + 1000 && cleared,
    });
    const clearedWords = clearedMs.map((c) => (c === null ? 'still running' : `${ms(c)} ms`)).join(', ');
    const where = kind === 'postgres' ? 'pg_stat_activity' : 'information_schema.processlist';
    run.notes.push(
      `scan, each run: ${outcomes.join(', ')}; statements of ${DATABASE} running in ${where} when DBUI answered ` +
        `(read at once from another connection): ${runningAtAnswer.join(', ')}` +
        (runningAtAnswer.some((n) => n > 0) ? `; none after ${clearedWords}.` : '.'),
    );
    if (message) run.notes.push(`the 504's message: "${message}"`);
    return run;
  } finally {
    recording = null;
    await engine.close();
    await driver.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

const loads: number[] = [os.loadavg()[0] ?? 0];
const loadSampler = setInterval(() => loads.push(os.loadavg()[0] ?? 0), 5000);
loadSampler.unref();
const runs: EngineRun[] = [];
for (const kind of ENGINES) runs.push(await measure(kind));
clearInterval(loadSampler);
loads.push(os.loadavg()[0] ?? 0);

const lines = [
  '| engine | case | DBUI median | DBUI p95 | driver median | driver p95 | difference (median) | target | met | CPU a call, DBUI / driver |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |',
];
for (const run of runs)
  for (const r of run.results)
    lines.push(
      `| ${engineName(run.kind)} | ${r.name} | ${ms(r.dbui.median)} ms | ${ms(r.dbui.p95)} ms | ` +
        `${ms(r.driver.median)} ms | ${ms(r.driver.p95)} ms | ${ms(r.dbui.median - r.driver.median)} ms | ` +
        `${r.target} | ${r.met ? 'yes' : 'no'} | ${r.dbui.cpu === undefined ? '' : `${ms(r.dbui.cpu)} / ${ms(r.driver.cpu!)} ms`} |`,
    );
const notes = runs.flatMap((run) => run.notes.map((note) => `- ${engineName(run.kind)}: ${note}`));
const shown = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));
const sqlSection = runs.flatMap((run) => [
  `\n### ${engineName(run.kind)}\n`,
  ...[...run.statements].flatMap(([name, statements]) => [
    `${name}:\n`,
    '```sql',
    ...byConnection(statements).flatMap((group, g) => [
      `-- connection ${g + 1}`,
      ...group.map(
        (s) =>
          `${s.text.replace(/\s+/g, ' ')};${s.values.length ? ` -- ${s.values.map(shown).join(', ')}` : ''}`,
      ),
    ]),
    '```\n',
  ]),
]);
const cpu = os.cpus();
const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`;
const report =
  `${ROWS.toLocaleString('en-US')} rows (${runs.map((r) => `${engineName(r.kind)}: ${r.rows}`).join(', ')}), ` +
  `page size ${PAGE_SIZE}, ${RUNS} runs per case (the scan ${SCAN_RUNS}), scan budget ${SCAN_BUDGET_MS} ms, ` +
  `${new Date().toISOString().slice(0, 10)}, ${machine}; 1-minute load average ${Math.min(...loads).toFixed(2)} to ` +
  `${Math.max(...loads).toFixed(2)} during the run (${loads[0]!.toFixed(2)} at the start, ` +
  `${loads.at(-1)!.toFixed(2)} at the end).\n\n${lines.join('\n')}\n\n` +
  `CPU a call: this process's user and system time during a call (median), DBUI's engine or the bare driver.\n\n` +
  `${notes.join('\n')}\n`;
console.log(`\n${report}`);
// A private run (BENCH_DATABASE) only prints, the statements too.
if (process.env.BENCH_DATABASE) console.log(sqlSection.join('\n'));
else
  fs.writeFileSync(
    new URL('./results/filters.md', import.meta.url),
    `# bench:filters\n\n${report}\n## The statements of one call of each case, as DBUI sent them and the driver ran them\n${sqlSection.join('\n')}`,
  );
