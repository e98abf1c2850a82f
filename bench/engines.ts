/*
 * npm run bench:engines — DBUI's engine layer against the drivers' own queries on a generated 10-million-row table
 * (created once per engine in the database `dbui_bench` and reused). Prints a Markdown table and writes it to
 * bench/results/engines.md. Not a test: figures go into the README's performance section.
 *
 * BENCH_ROWS sets the table size (default 10,000,000), BENCH_RUNS the timed runs per case (default 50),
 * BENCH_ENGINES the engines (default postgres,mysql), BENCH_DATABASE another database for a private run (printed only).
 * The 1-minute load average is sampled every 5 s and reported with the table (other work on the machine shows).
 */
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, PageQuery } from '#server/engines/engine.ts';
import { ms, timePair, type Timing } from './bench-stats.ts';
import { BENCH_TABLE, checkedDatabaseName, ensureMariadbRows, ensurePostgresRows } from './http-tables.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,mysql').split(',');
const PAGE_SIZE = 20;
/** Page 100,000 of the 10-million-row table (a fifth of the way in); on a smaller table 40 % of the way in, before
 * the middle (past it a page is read from the end: the three-quarters case). */
const DEEP_PAGE = Math.min(100_000, Math.floor((ROWS / PAGE_SIZE) * 0.4));
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_SERVER = process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306/';
const TABLE = BENCH_TABLE;
/** Another database for a private run (the default is shared with bench:http's tables). */
const DATABASE = checkedDatabaseName(process.env.BENCH_DATABASE ?? 'dbui_bench');

/** The driver's side of each case: the same SQL DBUI sends, run through the bare driver. */
interface Driver {
  query(text: string, values: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

async function preparePostgres(): Promise<{ url: string; driver: Driver; schema: string }> {
  const url = await ensurePostgresRows(PG_SERVER, DATABASE, ROWS);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    url,
    schema: 'public',
    driver: { query: async (text, values) => (await pool.query(text, values)).rows, close: () => pool.end() },
  };
}

async function prepareMysql(): Promise<{ url: string; driver: Driver; schema: string }> {
  const url = await ensureMariadbRows(MYSQL_SERVER, DATABASE, ROWS);
  const pool = mysql.createPool({
    uri: url,
    connectionLimit: 2,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
  });
  return {
    url,
    schema: DATABASE,
    driver: {
      query: async (text, values) => (await pool.query(text, values))[0] as unknown[],
      close: () => pool.end(),
    },
  };
}

interface Case {
  name: string;
  dbui: Timing;
  driver: Timing;
}

async function measure(kind: 'postgres' | 'mysql'): Promise<Case[]> {
  const { url, driver, schema } = kind === 'postgres' ? await preparePostgres() : await prepareMysql();
  const engine: DatabaseEngine = await connectDatabase('bench', kind, url);
  const q = (name: string) => (kind === 'postgres' ? `"${name}"` : `\`${name}\``);
  const cols = ['id', 'name', 'category', 'amount', 'created_at', 'note'].map(q).join(', ');
  const from = `${q(schema)}.${q(TABLE)}`;
  const p = (i: number) => (kind === 'postgres' ? `$${i}` : '?');
  try {
    const table = await engine.table(schema, TABLE);
    console.log(
      `${kind}: ${table.numberOfRows.toLocaleString()} rows (${table.numberOfRowsIsEstimate ? 'estimate' : 'exact'})`,
    );
    const cases: Case[] = [];
    let shown: PageQuery['from'];
    const add = async (
      name: string,
      dbui: (i: number) => Promise<unknown>,
      direct: (i: number) => Promise<unknown>,
      runs = RUNS,
    ) => {
      const [dbuiTiming, driverTiming] = await timePair(runs, dbui, direct);
      cases.push({ name, dbui: dbuiTiming, driver: driverTiming });
      console.log(
        `  ${name}: DBUI ${ms(cases.at(-1)!.dbui.median)} ms, driver ${ms(cases.at(-1)!.driver.median)} ms`,
      );
    };

    await add(
      'first page',
      () => engine.page(table, { filter: {}, page: 1, pageSize: PAGE_SIZE }),
      () =>
        driver.query(
          `select ${cols} from ${from} where 1 = 1 order by ${q('id')} asc limit ${p(1)} offset ${p(2)}`,
          [PAGE_SIZE, 0],
        ),
    );
    await add(
      `page ${DEEP_PAGE.toLocaleString()} from its neighbour`,
      // Each run asks for the page after the one before it with that page's boundary (its cursor, decoded), as a
      // person paging forward does.
      async (i) => {
        if (i === -1 || !shown) {
          const before = await engine.page(table, {
            filter: {},
            page: DEEP_PAGE + 2 + i,
            pageSize: PAGE_SIZE,
          });
          shown = { page: DEEP_PAGE + 2 + i, boundary: before.boundary! };
        }
        const next = await engine.page(table, {
          filter: {},
          page: shown.page + 1,
          pageSize: PAGE_SIZE,
          from: shown,
        });
        shown = { page: shown.page + 1, boundary: next.boundary! };
        return next;
      },
      (i) =>
        driver.query(
          `select ${cols} from ${from} where 1 = 1 and (${q('id')} >= ${p(1)} and (${q('id')} > ${p(2)})) order by ${q('id')} asc limit ${p(3)} offset ${p(4)}`,
          [(DEEP_PAGE + 3 + i) * PAGE_SIZE, (DEEP_PAGE + 3 + i) * PAGE_SIZE, PAGE_SIZE, 0],
        ),
    );
    await add(
      `page ${DEEP_PAGE.toLocaleString()} by number`,
      (i) => engine.page(table, { filter: {}, page: DEEP_PAGE + 1000 + i * 7, pageSize: PAGE_SIZE }),
      (i) =>
        driver.query(
          `select ${cols} from ${from} where 1 = 1 order by ${q('id')} asc limit ${p(1)} offset ${p(2)}`,
          [PAGE_SIZE, (DEEP_PAGE + 999 + i * 7) * PAGE_SIZE],
        ),
      // OFFSET reads two million rows a call: fewer runs keep the benchmark within minutes.
      Math.min(RUNS, 20),
    );
    // The floor of any way of reading a page by number: skipping the rows before it in the key's order through the
    // index, reading the key alone (InnoDB's primary key holds the rows themselves, so on MariaDB this still reads
    // their pages). DBUI's page by number is this scan plus the page's rows read by key.
    await add(
      `page ${DEEP_PAGE.toLocaleString()} by number, against the keys skipped alone`,
      (i) => engine.page(table, { filter: {}, page: DEEP_PAGE + 1000 + i * 7, pageSize: PAGE_SIZE }),
      (i) =>
        driver.query(`select ${q('id')} from ${from} order by ${q('id')} asc limit ${p(1)} offset ${p(2)}`, [
          1,
          (DEEP_PAGE + 999 + i * 7) * PAGE_SIZE,
        ]),
      Math.min(RUNS, 20),
    );
    const lastPage = Math.ceil(table.numberOfRows / PAGE_SIZE);
    await add(
      'last page',
      () => engine.page(table, { filter: {}, page: lastPage, pageSize: PAGE_SIZE }),
      () =>
        driver.query(
          `select ${cols} from ${from} where 1 = 1 order by ${q('id')} asc limit ${p(1)} offset ${p(2)}`,
          [PAGE_SIZE, (lastPage - 1) * PAGE_SIZE],
        ),
      Math.min(RUNS, 10),
    );
    const threeQuarters = Math.ceil(lastPage * 0.75);
    await add(
      `page ${threeQuarters.toLocaleString()} (three quarters) by number, from the end`,
      () => engine.page(table, { filter: {}, page: threeQuarters, pageSize: PAGE_SIZE }),
      () =>
        driver.query(
          `select ${cols} from ${from} where 1 = 1 order by ${q('id')} asc limit ${p(1)} offset ${p(2)}`,
          [PAGE_SIZE, (threeQuarters - 1) * PAGE_SIZE],
        ),
      Math.min(RUNS, 10),
    );
    await add(
      'sorted page (-created_at)',
      () => engine.page(table, { filter: {}, orderBy: '-created_at', page: 1, pageSize: PAGE_SIZE }),
      () =>
        driver.query(
          `select ${cols} from ${from} where 1 = 1 order by ${q('created_at')} desc, ${q('id')} desc limit ${p(1)} offset ${p(2)}`,
          [PAGE_SIZE, 0],
        ),
    );
    const prefixes = ['abc', 'f00', '1234', 'dead', 'beef', '0a1b', '77', 'c0ff'];
    const upper = (s: string) => s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
    await add(
      'filtered page (name starts with)',
      (i) =>
        engine.page(table, {
          filter: { name: prefixes[Math.abs(i) % prefixes.length]! },
          page: 1,
          pageSize: PAGE_SIZE,
        }),
      async (i) => {
        const prefix = prefixes[Math.abs(i) % prefixes.length]!;
        const where =
          kind === 'postgres'
            ? `(${q('name')} >= $1 and ${q('name')} < $2 and ${q('name')} like $3)`
            : `${q('name')} like ? escape '\\\\'`;
        const args = kind === 'postgres' ? [prefix, upper(prefix), `${prefix}%`] : [`${prefix}%`];
        const n = args.length;
        return Promise.all([
          driver.query(
            `select count(*) as n from (select 1 as one from ${from} where ${where} limit ${p(n + 1)} offset ${p(n + 2)}) as counted`,
            [...args, 100_001, 0],
          ),
          driver.query(
            `select ${cols} from ${from} where ${where} order by ${q('id')} asc limit ${p(n + 1)} offset ${p(n + 2)}`,
            [...args, PAGE_SIZE, 0],
          ),
        ]);
      },
    );
    return cases;
  } finally {
    await engine.close();
    await driver.close();
  }
}

const loads: number[] = [os.loadavg()[0] ?? 0];
const loadSampler = setInterval(() => loads.push(os.loadavg()[0] ?? 0), 5000);
loadSampler.unref();
const lines = [
  `| engine | case | DBUI median | DBUI p99 | driver median | driver p99 | added (median) |`,
  `| --- | --- | ---: | ---: | ---: | ---: | ---: |`,
];
for (const kind of ENGINES as ('postgres' | 'mysql')[]) {
  for (const c of await measure(kind)) {
    lines.push(
      `| ${kind === 'mysql' ? 'MariaDB' : 'PostgreSQL'} | ${c.name} | ${ms(c.dbui.median)} ms | ${ms(c.dbui.p99)} ms | ${ms(c.driver.median)} ms | ${ms(c.driver.p99)} ms | ${ms(c.dbui.median - c.driver.median)} ms |`,
    );
  }
}
clearInterval(loadSampler);
loads.push(os.loadavg()[0] ?? 0);
const cpu = os.cpus();
const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`;
const table =
  `${ROWS.toLocaleString()} rows, page size ${PAGE_SIZE}, ${RUNS} runs per case, ${new Date().toISOString().slice(0, 10)}, ${machine}; ` +
  `1-minute load average ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)} during the run ` +
  `(${loads[0]!.toFixed(2)} at the start, ${loads.at(-1)!.toFixed(2)} at the end).\n\n${lines.join('\n')}\n`;
console.log(`\n${table}`);
// A private run (BENCH_DATABASE) only prints.
if (!process.env.BENCH_DATABASE) fs.writeFileSync(new URL('./results/engines.md', import.meta.url), table);
