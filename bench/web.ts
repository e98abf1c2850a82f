/*
 * npm run bench:web — the database browser as a person feels it: a built DBUI server (`node dist/server/main.js`,
 * what `npm start` runs; `npm run build` first) with the demo database and a PostgreSQL database holding a
 * 10-million-row table, driven by Playwright in Chromium. Measures, as medians of several runs:
 *   - navigation to the first grid row (a fresh tab, the app's files in the browser's cache, the session stored);
 *   - a Next page click to the next page shown;
 *   - a sort click (an indexed column's header) to the sorted page shown;
 * and what a visit moves over the wire, compressed as the server sends it (decision 0055): every answer of a first
 * visit (an empty cache) and of a repeat visit (the app's files cached), from navigation to the first grid rows and
 * the network quiet again, beside the same answers uncompressed, with the JavaScript apart, and the time those bytes
 * take on a 10 Mbit/s link (bytes alone: no round trips); and the public home page of a first-time visitor (signed
 * out, empty cache): its bytes and its largest contentful paint.
 * Writes bench/results/web.md and prints the table (`--home` measures the home page alone, into
 * bench/results/web-home.md, without the 10-million-row table; `--wide` measures a 60-column table alone, into
 * bench/results/web-wide.md: from a 100-row page's answer to the frame after its 100th row, opening and Next, and the
 * API requests of opening the table against opening a saved view of it; issue 36). Not a test, and not part of npm test.
 *
 * The timings are taken inside the page (performance.now(), a MutationObserver on the grid, then the next
 * animation frame, when the browser paints what changed), so Playwright's own polling is not in them.
 *
 * The 10-million-row table `bench_rows` (the engine benchmark's shape: id, name, category, amount, created_at,
 * note; generate_series) lives in its own database `dbui_bench_web`, created on the first run (a minute or two)
 * and reused while it holds the right rows; it is dropped at the end unless --keep is given.
 *
 * BENCH_ROWS (default 10,000,000), BENCH_WIDE_ROWS (--wide's table, default 10,000), BENCH_RUNS (default 7), BENCH_PROFILE (--wide: a .cpuprofile file of the last Next page), POSTGRES_TEST_URL (the PostgreSQL server, default
 * postgres://postgres@127.0.0.1:5432/postgres), CHROMIUM_PATH (else the journeys' Chromium), DBUI_DIST (a private copy
 * of dist/ to serve, as the journeys take it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { ensureDemoDatabase } from '#server/demo/demo-database.ts';
import { benchAdministrator, createBenchRows, signedInSession } from './bench-session.ts';
import { ms } from './bench-stats.ts';
import { freePort, sleep } from './bench-process.ts';
import { XSRF_HEADER } from '#server/plugins/csrf.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** Next clicks per run (each an uncached page reached from its neighbour). */
const NEXT_CLICKS = 5;
const KEEP = process.argv.includes('--keep');
const HOME_ONLY = process.argv.includes('--home');
const WIDE = process.argv.includes('--wide');
/** --wide: where to write a CPU profile (.cpuprofile, Chromium DevTools) of the last run's Next page; none without. */
const PROFILE = process.env.BENCH_PROFILE;
const PG_SERVER = process.env.POSTGRES_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'dbui_bench_web';
const TABLE = 'bench_rows';
const RESULTS = fileURLToPath(
  new URL(
    HOME_ONLY ? 'results/web-home.md' : WIDE ? 'results/web-wide.md' : 'results/web.md',
    import.meta.url,
  ),
);
/** What `npm start` runs (npm run build makes it); DBUI_DIST names a private copy of dist/ instead. */
const SERVER_MAIN = path.resolve(
  fileURLToPath(new URL('..', import.meta.url)),
  process.env.DBUI_DIST ?? 'dist',
  'server',
  'main.js',
);
const TARGETS = { firstRowsMs: 300, nextPageMs: 100, routeKb: 250, homeKb: 150, homeLcpMs: 1000 };
/** The link the README's table speaks of: 10 Mbit/s, bytes only. */
const LINK_BITS_PER_SECOND = 10_000_000;

/** The tables measured: the 10-million-row one and the demo database's biggest. */
const CASES = [
  {
    title: `PostgreSQL \`${TABLE}\` (${ROWS.toLocaleString('en-US')} rows)`,
    db: 'bench',
    schema: 'public',
    table: TABLE,
    sortBy: 'name',
  },
  {
    title: 'SQLite demo `order_lines` (105,416 rows)',
    db: 'demo',
    schema: 'main',
    table: 'order_lines',
    sortBy: 'product_id',
  },
] as const;

function databaseUrl(name: string): string {
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Makes the database dbui_bench_web unless it is there already. */
async function ensureBenchDatabase(): Promise<void> {
  const server = new pg.Client({ connectionString: PG_SERVER });
  await server.connect();
  try {
    const exists = await server.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await server.query(`create database ${DATABASE}`);
  } finally {
    await server.end();
  }
}

/** Makes dbui_bench_web.bench_rows with ROWS rows unless it is there already: whether it was made. */
async function ensureBenchTable(): Promise<boolean> {
  await ensureBenchDatabase();
  const client = new pg.Client({ connectionString: databaseUrl(DATABASE) });
  await client.connect();
  try {
    const present = await client.query('select 1 from pg_class where relname = $1', [TABLE]);
    const have =
      present.rowCount === 0
        ? 0
        : Number((await client.query(`select max(id) as n from ${TABLE}`)).rows[0].n);
    if (have === ROWS) return false;
    console.log(
      `generating ${ROWS.toLocaleString('en-US')} rows in ${DATABASE}.${TABLE} (once; reused later)…`,
    );
    const started = Date.now();
    await createBenchRows((statement) => client.query(statement), TABLE, ROWS);
    console.log(`ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return true;
  } finally {
    await client.end();
  }
}

async function dropBenchDatabase(): Promise<void> {
  const server = new pg.Client({ connectionString: PG_SERVER });
  await server.connect();
  try {
    await server.query(`drop database if exists ${DATABASE} with (force)`);
  } finally {
    await server.end();
  }
}

/** A data folder with the demo database and an administrator's live session (benchAdministrator). */
async function preparedDataDir(): Promise<{ dir: string; token: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-bench-web-'));
  ensureDemoDatabase(path.join(dir, 'demo.db'));
  return { dir, token: await benchAdministrator(path.join(dir, 'app.db')) };
}

/** Starts the built server on the data folder with the demo and bench databases; answers when /api/health does. */
async function startServer(dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dir,
      DATABASES: `demo=sqlite:${path.join(dir, 'demo.db')}${HOME_ONLY ? '' : `,bench=${databaseUrl(DATABASE)}`}`,
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
    await sleep(100);
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

/** The Chromium of the journeys (e2e/chromium-executable.ts: CHROMIUM_PATH, /usr/bin/chromium, or the one inside
 * @sparticuz/chromium). Loaded by its URL: bench/ shares the journeys' browser finder rather than a copy of it. */
async function chromiumPath(): Promise<string> {
  const finder = new URL('../e2e/chromium-executable.ts', import.meta.url).href;
  const { chromiumExecutable } = (await import(finder)) as { chromiumExecutable: () => Promise<string> };
  return chromiumExecutable();
}

/** The grid's data rows once it shows a page that is not loading (data rows carry data-row; the skeleton and the
 * "no rows" line do not; the grid is aria-busy while a page loads). */
const ROW_SELECTOR = '[role="grid"][aria-label="Rows"]:not([aria-busy="true"]) tbody tr[data-row]';

/**
 * Installed before the app's scripts: records in window.__firstRowAt the time (ms since navigation start) of the
 * animation frame after the first data row entered the grid.
 */
function watchFirstRow(selector: string): void {
  const w = window as unknown as { __firstRowAt?: number };
  const observer = new MutationObserver(() => {
    if (w.__firstRowAt !== undefined || !document.querySelector(selector)) return;
    w.__firstRowAt = -1;
    observer.disconnect();
    requestAnimationFrame(() => (w.__firstRowAt = performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * Clicks `button` in the page and answers the time (ms) to the animation frame after the first data row's text
 * changed (the grid keeps the current page while the next loads, so the change is the new page arriving).
 */
async function timeClick(page: Page, button: { role: 'button'; name: string }): Promise<number> {
  const target = page.getByRole(button.role, { name: button.name, exact: true }).first();
  await target.waitFor();
  const handle = await target.elementHandle();
  return page.evaluate(
    ({ element, selector }) =>
      new Promise<number>((resolve, reject) => {
        // No function-valued constants in here: tsx would wrap them in a helper the page does not have.
        const before = document.querySelector(selector)?.textContent ?? '';
        const started = performance.now();
        const timer = setTimeout(() => reject(new Error('the grid did not change within 30 s')), 30_000);
        const observer = new MutationObserver(() => {
          const now = document.querySelector(selector)?.textContent ?? '';
          if (now === '' || now === before) return;
          observer.disconnect();
          clearTimeout(timer);
          requestAnimationFrame(() => resolve(performance.now() - started));
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        (element as HTMLElement).click();
      }),
    { element: handle, selector: ROW_SELECTOR },
  );
}

/** A fresh tab of the context: opens the table and answers the time to its first row. */
/** Where a first-row time went: when the app's scripts were ready and when each API answer arrived (ms since
 * navigation start), for the waterfall line under the table. */
interface Waterfall {
  scriptsReady: number;
  calls: { path: string; start: number; end: number }[];
}

async function openTable(
  context: BrowserContext,
  url: string,
): Promise<{ page: Page; firstRowMs: number; waterfall: Waterfall }> {
  const page = await context.newPage();
  await page.addInitScript(watchFirstRow, ROW_SELECTOR);
  await page.goto(url);
  await page.waitForFunction(
    () => ((window as unknown as { __firstRowAt?: number }).__firstRowAt ?? -1) > 0,
    null,
    { timeout: 30_000 },
  );
  const { firstRowMs, waterfall } = await page.evaluate(() => {
    const at = (window as unknown as { __firstRowAt: number }).__firstRowAt;
    const navigation = performance.getEntriesByType('navigation')[0] as
      PerformanceNavigationTiming | undefined;
    const calls = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => new URL(entry.name).pathname.startsWith('/api/') && entry.responseEnd <= at)
      .map((entry) => ({
        path: new URL(entry.name).pathname,
        start: entry.startTime,
        end: entry.responseEnd,
      }));
    return { firstRowMs: at, waterfall: { scriptsReady: navigation?.domContentLoadedEventEnd ?? 0, calls } };
  });
  return { page, firstRowMs, waterfall };
}

/** "scripts ready 120 ms → /api/account/verify 130–180 ms → …": one visit's path to its first row. */
function describeWaterfall(w: Waterfall, firstRowMs: number): string {
  const calls = w.calls.map(
    (c) =>
      `\`${c.path.replace(/\/api\/sql\/[^/]+\/[^/]+\/[^/]+/, '/api/sql/…')}\` ${c.start.toFixed(0)}–${c.end.toFixed(0)} ms`,
  );
  return [
    `scripts ready ${w.scriptsReady.toFixed(0)} ms`,
    ...calls,
    `first row ${firstRowMs.toFixed(0)} ms`,
  ].join(' → ');
}

const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
};

interface CaseResult {
  title: string;
  coldFirstRowMs: number;
  firstRowMs: number[];
  nextMs: number[];
  sortMs: number[];
  pagesOf: string;
  /** The path to the first row of the visit whose time was the median. */
  medianVisit: string;
}

/** What one visit moved: every answer from navigation until the page was quiet. */
interface Traffic {
  requests: number;
  /** Headers and bodies as received (bodies compressed where the server compressed them). */
  wireBytes: number;
  /** The same answers with their bodies uncompressed (what they would weigh without compression). */
  plainBytes: number;
  /** Answers that came compressed, by encoding. */
  encodings: Record<string, number>;
  js: {
    files: number;
    /** Bodies as received (headers left out, as the size check counts). */
    wireBytes: number;
    /** Bodies uncompressed. */
    bytes: number;
    /** The biggest scripts: file name and bytes as received. */
    biggest: { name: string; wireBytes: number }[];
  };
}

/** The session the app keeps under UTOKEN, read from the server with the bearer token. */
async function verificationFor(origin: string, token: string): Promise<string> {
  const answer = await fetch(`${origin}/api/account/verify`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await answer.json()) as { data?: unknown; message?: string };
  if (!answer.ok || !body.data) throw new Error(`the bench session does not verify: ${body.message}`);
  return Buffer.from(JSON.stringify(body.data), 'utf8').toString('base64');
}

async function signedInContext(browser: Browser, stored: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(
    ({ key, value }) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    { key: SESSION_STORAGE_KEY, value: stored },
  );
  return context;
}

/** A first visit of the browser route (an empty cache): what it moves until the grid shows and the network is
 * quiet, and the time to the first row. */
async function firstVisit(
  browser: Browser,
  stored: string,
  url: string,
): Promise<{ traffic: Traffic; firstRowMs: number }> {
  const context = await signedInContext(browser, stored);
  try {
    const traffic = captureTraffic(context);
    const { page, firstRowMs } = await openTable(context, url);
    await page.waitForLoadState('networkidle');
    return { firstRowMs, traffic: await traffic() };
  } finally {
    await context.close();
  }
}

/**
 * Records every answer the context receives from now on; the returned function sums them once the page is quiet:
 * the bytes as received (Chromium's own count of headers and encoded body; 0 for an answer from the cache) and the
 * bodies uncompressed.
 */
function captureTraffic(context: BrowserContext): () => Promise<Traffic> {
  interface Answer {
    name: string;
    script: boolean;
    /** Headers and body as received, the body alone, and both with the body uncompressed. */
    wire: number;
    wireBody: number;
    plain: number;
    encoding: string | null;
  }
  const answers: Promise<Answer | null>[] = [];
  const measure = async (request: Request): Promise<Answer> => {
    const response = await request.response();
    const sizes = await request.sizes();
    const body = await response?.body().catch(() => null);
    const encoding = response?.headers()['content-encoding'] ?? null;
    // An answer from the browser's cache received nothing (Chromium reports its body size as minus its headers').
    const headers = sizes.responseHeadersSize;
    const cached = sizes.responseBodySize + headers <= 0;
    return {
      name: new URL(request.url()).pathname.split('/').pop() || request.url(),
      script: request.resourceType() === 'script',
      wire: cached ? 0 : sizes.responseBodySize + headers,
      wireBody: cached ? 0 : sizes.responseBodySize,
      plain: cached ? 0 : (body?.length ?? sizes.responseBodySize) + headers,
      encoding: cached ? null : encoding,
    };
  };
  // An answer still being read when its page closes is left out.
  const listener = (request: Request) => answers.push(measure(request).catch(() => null));
  context.on('requestfinished', listener);
  return async () => {
    context.off('requestfinished', listener);
    const all = (await Promise.all(answers)).filter((a): a is Answer => a !== null);
    const scripts = all.filter((a) => a.script).sort((a, b) => b.wireBody - a.wireBody);
    const encodings: Record<string, number> = {};
    for (const a of all) if (a.encoding) encodings[a.encoding] = (encodings[a.encoding] ?? 0) + 1;
    return {
      requests: all.length,
      wireBytes: all.reduce((sum, a) => sum + a.wire, 0),
      plainBytes: all.reduce((sum, a) => sum + a.plain, 0),
      encodings,
      js: {
        files: scripts.length,
        wireBytes: scripts.reduce((sum, a) => sum + a.wireBody, 0),
        bytes: scripts.reduce((sum, a) => sum + a.plain - (a.wire - a.wireBody), 0),
        biggest: scripts.slice(0, 5).map(({ name, wireBody }) => ({ name, wireBytes: wireBody })),
      },
    };
  };
}

/** The public home page as a first-time visitor meets it (signed out, an empty cache each run): what it moves until
 * the network is quiet, and its largest contentful paint (the browser's own measure), as the median of the runs. */
async function homeVisits(browser: Browser, origin: string): Promise<{ traffic: Traffic; lcpMs: number[] }> {
  const lcpMs: number[] = [];
  let traffic: Traffic | null = null;
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    try {
      const captured = captureTraffic(context);
      const page = await context.newPage();
      await page.goto(`${origin}/home`, { waitUntil: 'networkidle' });
      lcpMs.push(
        await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries();
                resolve(entries[entries.length - 1]?.startTime ?? Number.NaN);
              }).observe({ type: 'largest-contentful-paint', buffered: true });
            }),
        ),
      );
      traffic ??= await captured();
    } finally {
      await context.close();
    }
  }
  if (!traffic) throw new Error('BENCH_RUNS must be at least 1.');
  return { traffic, lcpMs };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
/** Seconds the bytes take on the README's link, round trips left out. */
const onLink = (bytes: number) => `${((bytes * 8) / LINK_BITS_PER_SECOND).toFixed(2)} s`;

function describeJs(what: string, traffic: Traffic, targetKb: number): string {
  const js = traffic.js;
  const over = js.wireBytes / 1024 <= targetKb ? '' : ' (over target)';
  return `JavaScript of ${what} on a first visit: ${js.files} files, ${kb(js.bytes)}, ${kb(js.wireBytes)} as sent${over} (target ${targetKb} KB); the biggest as sent: ${js.biggest.map((f) => `\`${f.name}\` ${kb(f.wireBytes)}`).join(', ')}.`;
}

/** A table row of one visit's bytes: requests, on the wire, uncompressed, JavaScript, and the time on the link. */
function trafficRow(what: string, traffic: Traffic, firstRows: string): string {
  const encodings = Object.entries(traffic.encodings)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
  return `| ${what} | ${traffic.requests} (${encodings || 'none compressed'}) | ${kb(traffic.wireBytes)} | ${kb(traffic.plainBytes)} | ${kb(traffic.js.wireBytes)} of ${kb(traffic.js.bytes)} | ${firstRows} | ${onLink(traffic.wireBytes)} (${onLink(traffic.plainBytes)}) |`;
}

async function measureCase(
  browser: Browser,
  stored: string,
  origin: string,
  c: (typeof CASES)[number],
): Promise<CaseResult & { first: Traffic; repeat: Traffic; repeatFirstRowMs: number }> {
  const url = `${origin}/db/${c.db}/${c.schema}/${c.table}`;
  const cold = await firstVisit(browser, stored, url);
  const context = await signedInContext(browser, stored);
  const result: CaseResult = {
    title: c.title,
    coldFirstRowMs: cold.firstRowMs,
    firstRowMs: [],
    nextMs: [],
    sortMs: [],
    pagesOf: '',
    medianVisit: '',
  };
  const visits: { firstRowMs: number; line: string }[] = [];
  let repeat: { traffic: Traffic; firstRowMs: number } | undefined;
  try {
    // One untimed visit fills the browser's cache with the app's files, as for someone who has been here before;
    // the next one is the repeat visit whose bytes are counted.
    await (await openTable(context, url)).page.close();
    const captured = captureTraffic(context);
    const again = await openTable(context, url);
    await again.page.waitForLoadState('networkidle');
    repeat = { traffic: await captured(), firstRowMs: again.firstRowMs };
    await again.page.close();
    for (let run = 0; run < RUNS; run++) {
      const { page, firstRowMs, waterfall } = await openTable(context, url);
      result.firstRowMs.push(firstRowMs);
      visits.push({ firstRowMs, line: describeWaterfall(waterfall, firstRowMs) });
      for (let click = 0; click < NEXT_CLICKS; click++)
        result.nextMs.push(await timeClick(page, { role: 'button', name: 'Next page' }));
      result.pagesOf =
        (await page
          .getByText(/^Page [\d,]+ of [\d,]+/)
          .first()
          .textContent()) ?? '';
      await page.close();
      // The sort from the first page of a fresh tab, so no earlier answer is in the app's cache.
      const sorted = await openTable(context, url);
      result.sortMs.push(await timeClick(sorted.page, { role: 'button', name: c.sortBy }));
      await sorted.page.close();
    }
  } finally {
    await context.close();
  }
  if (!repeat) throw new Error('the repeat visit was not measured');
  visits.sort((a, b) => a.firstRowMs - b.firstRowMs);
  result.medianVisit = visits[Math.floor((visits.length - 1) / 2)]?.line ?? '';
  return { ...result, first: cold.traffic, repeat: repeat.traffic, repeatFirstRowMs: repeat.firstRowMs };
}

async function main(): Promise<void> {
  if (!fs.existsSync(SERVER_MAIN))
    throw new Error('Run npm run build first (dist/server/main.js is missing).');
  if (!HOME_ONLY) {
    const made = await ensureBenchTable();
    if (!made) console.log(`reusing ${DATABASE}.${TABLE} (${ROWS.toLocaleString('en-US')} rows)`);
  }
  const loads: number[] = [os.loadavg()[0] ?? 0];
  const { dir, token } = await preparedDataDir();
  const server = await startServer(dir);
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    console.log('the home page…');
    const home = await homeVisits(browser, server.origin);
    const homeLcp = median(home.lcpMs);
    const homeLines = [
      `The home page, a first-time visitor (signed out, empty cache, ${RUNS} runs): largest contentful paint ${ms(homeLcp)} ms (median)${homeLcp <= TARGETS.homeLcpMs ? '' : ' (over target)'} (target ${TARGETS.homeLcpMs} ms).`,
      '',
      `Its bytes: ${home.traffic.requests} answers, ${kb(home.traffic.wireBytes)} on the wire (${kb(home.traffic.plainBytes)} uncompressed), ${onLink(home.traffic.wireBytes)} on a 10 Mbit/s link (${onLink(home.traffic.plainBytes)} uncompressed).`,
      '',
      describeJs('the home page', home.traffic, TARGETS.homeKb),
    ];
    if (HOME_ONLY) {
      const lines = [
        `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, 1-minute load average ${(os.loadavg()[0] ?? 0).toFixed(1)}; Chromium headless at 1366×900.`,
        '',
        ...homeLines,
      ];
      fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
      fs.writeFileSync(RESULTS, `${lines.join('\n')}\n`);
      console.log(`\n${lines.join('\n')}\n\nwritten to ${path.relative(process.cwd(), RESULTS)}`);
      return;
    }
    const stored = await verificationFor(server.origin, token);
    const results = [];
    for (const c of CASES) {
      console.log(`${c.title}…`);
      results.push(await measureCase(browser, stored, server.origin, c));
      loads.push(os.loadavg()[0] ?? 0);
    }
    const route = results[0]!.first;
    const mark = (value: number, target: number) => (value <= target ? '' : ' (over target)');
    const lines = [
      `Median of ${RUNS} runs (next page: ${RUNS * NEXT_CLICKS} clicks); ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}; Chromium headless at 1366×900.`,
      '',
      '| table | first rows (first visit) | first rows (median) | next page (median) | sorted page (median) | pages |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
      ...results.map(
        (r) =>
          `| ${r.title} | ${ms(r.coldFirstRowMs)} ms | ${ms(median(r.firstRowMs))} ms${mark(median(r.firstRowMs), TARGETS.firstRowsMs)} | ${ms(median(r.nextMs))} ms${mark(median(r.nextMs), TARGETS.nextPageMs)} | ${ms(median(r.sortMs))} ms | ${r.pagesOf} |`,
      ),
      '',
      ...results.map((r) => `Path to the first row (the median visit), ${r.title}: ${r.medianVisit}.`),
      '',
      'Bytes of a visit, compressed as sent (brotli or gzip, as Chromium asks), from navigation until the grid shows and the network is quiet; in brackets the same answers uncompressed. On a 10 Mbit/s link: the bytes alone, no round trips.',
      '',
      '| visit | answers (compressed) | on the wire | uncompressed | JavaScript as sent, of | first rows (loopback) | on 10 Mbit/s (uncompressed) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...results.flatMap((r) => [
        trafficRow(`${r.title}, first visit`, r.first, `${ms(r.coldFirstRowMs)} ms`),
        trafficRow(`${r.title}, repeat visit`, r.repeat, `${ms(r.repeatFirstRowMs)} ms`),
      ]),
      '',
      describeJs('the browser route', route, TARGETS.routeKb),
      '',
      ...homeLines,
      '',
      `Targets: first rows under ${TARGETS.firstRowsMs} ms, next page under ${TARGETS.nextPageMs} ms, the browser route's JavaScript under ${TARGETS.routeKb} KB as sent, the home page's under ${TARGETS.homeKb} KB with its largest contentful paint under ${TARGETS.homeLcpMs} ms (npm run size:web holds both budgets on every build, decision 0056). First rows: from navigation start (a new tab, the app's files cached, the session stored) to the frame after the first row entered the grid, including the session check the app makes before it shows; "first visit" is the same with an empty cache. Next and sort: from the click to the frame after the first row changed. KB here is 1,024 bytes.`,
    ];
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(RESULTS, `${lines.join('\n')}\n`);
    console.log(`\n${lines.join('\n')}\n\nwritten to ${path.relative(process.cwd(), RESULTS)}`);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    if (KEEP) console.log(`kept ${DATABASE} (--keep)`);
    else if (!HOME_ONLY) {
      await dropBenchDatabase();
      console.log(`dropped ${DATABASE} (--keep keeps it for the next run)`);
    }
  }
}

/* ---- --wide: a page of 100 rows of a 60-column table (issue 36, Performance) ---- */

const WIDE_TABLE = 'bench_wide';
const WIDE_ROWS = Number(process.env.BENCH_WIDE_ROWS ?? 10_000);
const WIDE_PAGE_SIZE = 100;
const WIDE_TARGET_MS = 100;
/** One render time (ms from the page answer's end): to the frame after, and to the rows being in the DOM (the
 * answer's parsing and React's render; the rest is the browser's style, layout and paint). */
interface Render {
  total: number;
  dom: number;
}
/** "647.2 ms | 402.0 ms | 741, 628, …": the medians and every run's total. */
function renderRow(runs: Render[]): string {
  const totals = runs.map((r) => r.total);
  return `${ms(median(totals))} ms | ${ms(median(runs.map((r) => r.dom)))} ms | ${totals.map((v) => v.toFixed(0)).join(', ')}`;
}
/** The types of c01…c59, in turn; with the key, 60 columns. */
const WIDE_TYPES = [
  { type: 'integer', value: (n: string) => `(${n} * 7) % 100000` },
  { type: 'numeric(12,2)', value: (n: string) => `(${n} * 13.37) % 1000000` },
  {
    type: 'text',
    value: (n: string) => `'a longer text of row ' || ${n} || ' in the wide table, for the grid to cut'`,
  },
  { type: 'varchar(12)', value: (n: string) => `'k' || (${n} % 9973)` },
  { type: 'boolean', value: (n: string) => `${n} % 3 = 0` },
  {
    type: 'timestamptz',
    value: (n: string) => `timestamptz '2024-01-01 00:00:00+00' + ${n} * interval '17 minutes'`,
  },
  { type: 'date', value: (n: string) => `date '2020-01-01' + (${n} % 2000)::integer` },
  { type: 'jsonb', value: (n: string) => `jsonb_build_object('n', ${n}, 'tag', 't' || (${n} % 10))` },
] as const;
const WIDE_COLUMNS = ['id', ...Array.from({ length: 59 }, (_, i) => `c${String(i + 1).padStart(2, '0')}`)];

/** Makes dbui_bench_web.bench_wide (60 columns, WIDE_ROWS rows) unless it is there with its rows already. Every
 * name and type above is a constant of this file: no SQL from input. */
async function ensureWideTable(): Promise<boolean> {
  await ensureBenchDatabase();
  const client = new pg.Client({ connectionString: databaseUrl(DATABASE) });
  await client.connect();
  try {
    const present = await client.query('select 1 from pg_class where relname = $1', [WIDE_TABLE]);
    const have =
      present.rowCount === 0
        ? 0
        : Number((await client.query(`select count(*) as n from ${WIDE_TABLE}`)).rows[0].n);
    if (have === WIDE_ROWS) return false;
    const columns = WIDE_COLUMNS.slice(1).map((name, i) => ({ name, ...WIDE_TYPES[i % WIDE_TYPES.length]! }));
    await client.query(`drop table if exists ${WIDE_TABLE}`);
    await client.query(
      `create table ${WIDE_TABLE} (id bigint primary key, ${columns.map((c) => `${c.name} ${c.type}`).join(', ')})`,
    );
    await client.query(
      `insert into ${WIDE_TABLE} select n, ${columns.map((c) => c.value('n')).join(', ')} from generate_series(1, $1::integer) as n`,
      [WIDE_ROWS],
    );
    await client.query(`analyze ${WIDE_TABLE}`);
    return true;
  } finally {
    await client.end();
  }
}

/**
 * Installed before the app's scripts: records in window.__wide the frame (ms since navigation start) after the
 * grid first holds `count` data rows, and the end of the page answer (Resource Timing responseEnd) those rows came in.
 */
function watchRows({ selector, count }: { selector: string; count: number }): void {
  const w = window as unknown as {
    __wide?: { domAt: number; frameAt: number; responseEnd: number } | null;
  };
  w.__wide = null;
  let seen = false;
  const observer = new MutationObserver(() => {
    // All the page's rows, or (a wide grid renders the rows in sight only) its first with the page's row count said.
    const rows = document.querySelectorAll(selector);
    const said = rows[0]?.closest('table')?.getAttribute('aria-rowcount') === String(count + 1);
    if (seen || rows.length === 0 || (rows.length < count && !said)) return;
    seen = true;
    observer.disconnect();
    const domAt = performance.now();
    requestAnimationFrame(() => {
      const frameAt = performance.now();
      const pages = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
        (entry) =>
          /\/page\/\d+(\/search)?$/.test(new URL(entry.name).pathname) && entry.responseEnd <= frameAt,
      );
      const last = pages[pages.length - 1];
      w.__wide = { domAt, frameAt, responseEnd: last ? last.responseEnd : Number.NaN };
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** A fresh tab on `url`: the ms from the page answer's end to the frame after the 100th row, and the API calls made
 * until then. */
async function openWide(
  context: BrowserContext,
  url: string,
): Promise<{ page: Page; renderMs: Render; apiCalls: string[] }> {
  const page = await context.newPage();
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    const pathname = new URL(request.url()).pathname;
    if (pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${pathname}`);
  });
  await page.addInitScript(watchRows, { selector: ROW_SELECTOR, count: WIDE_PAGE_SIZE });
  await page.goto(url);
  await page.waitForFunction(() => Boolean((window as unknown as { __wide?: unknown }).__wide), null, {
    timeout: 60_000,
  });
  const wide = await page.evaluate(
    () => (window as unknown as { __wide: { domAt: number; frameAt: number; responseEnd: number } }).__wide,
  );
  return {
    page,
    renderMs: { total: wide.frameAt - wide.responseEnd, dom: wide.domAt - wide.responseEnd },
    apiCalls: [...apiCalls],
  };
}

/** Clicks Next page: the ms from the new page answer's end to the frame after the first row changed. */
async function wideNext(page: Page): Promise<Render> {
  const target = page.getByRole('button', { name: 'Next page', exact: true }).first();
  await target.waitFor();
  const handle = await target.elementHandle();
  return page.evaluate(
    ({ element, selector, count }) =>
      new Promise<{ total: number; dom: number }>((resolve, reject) => {
        const before = document.querySelector(selector)?.textContent ?? '';
        const started = performance.now();
        const timer = setTimeout(() => reject(new Error('the grid did not change within 30 s')), 30_000);
        const observer = new MutationObserver(() => {
          const rows = document.querySelectorAll(selector);
          const now = rows[0]?.textContent ?? '';
          const said = rows[0]?.closest('table')?.getAttribute('aria-rowcount') === String(count + 1);
          if (now === '' || now === before || (rows.length < count && !said)) return;
          observer.disconnect();
          clearTimeout(timer);
          const domAt = performance.now();
          requestAnimationFrame(() => {
            const frameAt = performance.now();
            const pages = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
              (entry) =>
                /\/page\/\d+(\/search)?$/.test(new URL(entry.name).pathname) &&
                entry.startTime >= started &&
                entry.responseEnd <= frameAt,
            );
            const last = pages[pages.length - 1];
            const end = last ? last.responseEnd : Number.NaN;
            resolve({ total: frameAt - end, dom: domAt - end });
          });
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
        (element as HTMLElement).click();
      }),
    { element: handle, selector: ROW_SELECTOR, count: WIDE_PAGE_SIZE },
  );
}

/** Starts Chromium's CPU profiler on the tab; `stop` writes the profile (open it in DevTools' Performance panel). */
async function startProfile(page: Page): Promise<{ stop: (file: string) => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`CPU profile of the last Next page written to ${file}`);
      await cdp.detach();
    },
  };
}

/** Saves a private view of the wide table showing all its columns, through the API as the web app sends it. */
async function saveWideView(origin: string, token: string): Promise<number> {
  const session = await signedInSession(origin, token);
  const answer = await fetch(`${origin}/api/sql/bench/public/${WIDE_TABLE}/views`, {
    method: 'POST',
    headers: {
      authorization: session.authorization,
      cookie: session.cookie,
      [XSRF_HEADER]: session.xsrf,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      Id: 0,
      name: 'All 60 columns',
      columns: WIDE_COLUMNS.map((name) => ({ name })),
      orderBy: null,
      where: null,
      pageSize: WIDE_PAGE_SIZE,
      shared: 'private',
    }),
  });
  const body = (await answer.json()) as { data?: { Id?: number }; message?: string };
  if (!answer.ok || !body.data?.Id)
    throw new Error(`saving the view failed: ${answer.status} ${body.message}`);
  return body.data.Id;
}

async function wideMain(): Promise<void> {
  const made = await ensureWideTable();
  console.log(
    `${made ? 'made' : 'reusing'} ${DATABASE}.${WIDE_TABLE} (${WIDE_ROWS.toLocaleString('en-US')} rows, ${WIDE_COLUMNS.length} columns)`,
  );
  const loads: number[] = [os.loadavg()[0] ?? 0];
  const { dir, token } = await preparedDataDir();
  const server = await startServer(dir);
  const browser = await chromium.launch({
    executablePath: await chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const stored = await verificationFor(server.origin, token);
    const base = `${server.origin}/db/bench/public/${WIDE_TABLE}`;
    const cols = encodeURIComponent(WIDE_COLUMNS.join(','));
    const tableUrl = `${base}?size=${WIDE_PAGE_SIZE}&cols=${cols}`;
    const viewId = await saveWideView(server.origin, token);
    const context = await signedInContext(browser, stored);
    const renderMs: Render[] = [];
    const nextMs: Render[] = [];
    let tableCalls: string[] = [];
    let viewCalls: string[] = [];
    let headers = 0;
    try {
      // One untimed visit fills the browser's cache with the app's files.
      await (await openWide(context, tableUrl)).page.close();
      for (let run = 0; run < RUNS; run++) {
        const opened = await openWide(context, tableUrl);
        renderMs.push(opened.renderMs);
        tableCalls = opened.apiCalls;
        headers = await opened.page
          .locator('[role="grid"][aria-label="Rows"] thead th:not([role="presentation"])')
          .count();
        const profiling = PROFILE && run === RUNS - 1 ? await startProfile(opened.page) : null;
        if (process.env.BENCH_TRACE && run === RUNS - 1)
          await browser.startTracing(opened.page, {
            path: process.env.BENCH_TRACE,
            categories: [
              'devtools.timeline',
              'disabled-by-default-devtools.timeline',
              'v8.execute',
              'blink.user_timing',
            ],
          });
        nextMs.push(await wideNext(opened.page));
        if (process.env.BENCH_TRACE && run === RUNS - 1) await browser.stopTracing();
        if (profiling) await profiling.stop(PROFILE as string);
        await opened.page.close();
        const view = await openWide(context, `${base}?view=${viewId}`);
        viewCalls = view.apiCalls;
        await view.page.close();
        loads.push(os.loadavg()[0] ?? 0);
      }
    } finally {
      await context.close();
    }
    const mark = (value: number) => (value <= WIDE_TARGET_MS ? 'within target' : 'over target');
    const list = (calls: string[]) =>
      calls.map((c) => `\`${c.replace(/\/api\/sql\/bench\/public\/bench_wide/, '/api/sql/…')}\``).join(', ');
    const lines = [
      `Median of ${RUNS} runs; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus().length} cores, 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} (a shared, noisy machine: other work may run beside the bench); Chromium headless at 1366×900.`,
      '',
      `PostgreSQL \`${WIDE_TABLE}\`: ${WIDE_ROWS.toLocaleString('en-US')} rows, ${WIDE_COLUMNS.length} columns (a bigint key; integer, numeric, text, varchar(12), boolean, timestamptz, date and jsonb in turn), page size ${WIDE_PAGE_SIZE}, all ${WIDE_COLUMNS.length} columns shown through \`cols=\` (the grid rendered ${headers} of them, those in sight and a few either side, and the rows in sight: web/features/browser/grid/column-window.ts).`,
      '',
      '| measure | median | of which until the rows are in the DOM | runs (ms) | target |',
      '| --- | ---: | ---: | --- | --- |',
      `| page answer's end → frame after the page is shown (opening the table) | ${renderRow(renderMs)} | ${WIDE_TARGET_MS} ms: ${mark(median(renderMs.map((r) => r.total)))} |`,
      `| Next page: page answer's end → frame after the rows changed | ${renderRow(nextMs)} | ${WIDE_TARGET_MS} ms: ${mark(median(nextMs.map((r) => r.total)))} |`,
      '',
      `API requests until the grid shows its ${WIDE_PAGE_SIZE} rows (the last run): opening the table (\`?size=${WIDE_PAGE_SIZE}&cols=…\`) ${tableCalls.length}: ${list(tableCalls)}; opening the saved view (\`?view=${viewId}\`) ${viewCalls.length}: ${list(viewCalls)}. Target: the view at most one more (${viewCalls.length - tableCalls.length <= 1 ? 'met' : 'not met'}: ${viewCalls.length - tableCalls.length >= 0 ? '+' : ''}${viewCalls.length - tableCalls.length}).`,
      '',
      `How: a fresh tab each run (the app's files cached, the session stored); the times are taken inside the page: the page answer's (\`…/page/N/search\`) responseEnd from the Resource Timing API to the animation frame after a MutationObserver saw the page's rows (the grid's aria-rowcount saying ${WIDE_PAGE_SIZE + 1} with its rows in sight rendered; Next: the first row's text changed); opening the table holds the rest of the app's first render, which the answer (prefetched with the route) often overtakes; "in the DOM" is the observer's own moment, after React's commit, before style, layout and paint. So they hold the answer's parsing, React's render and the browser's layout, not the network or the server. Requests: every \`/api/\` request the tab made from navigation to that frame. \`npm run bench:web -- --wide\` (BENCH_RUNS, BENCH_WIDE_ROWS).`,
    ];
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(RESULTS, `${lines.join('\n')}\n`);
    console.log(`\n${lines.join('\n')}\n\nwritten to ${path.relative(process.cwd(), RESULTS)}`);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    if (KEEP) console.log(`kept ${DATABASE} (--keep)`);
    else {
      await dropBenchDatabase();
      console.log(`dropped ${DATABASE} (--keep keeps it for the next run)`);
    }
  }
}

await (WIDE ? wideMain() : main());
