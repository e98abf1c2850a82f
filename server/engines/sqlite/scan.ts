import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql, type CompiledQuery } from 'kysely';
import type { SqlFragment } from '#server/engines/adapter.ts';
import { ScanStopped } from '#server/engines/engine-error.ts';

/*
 * A scanning filter on SQLite (decision 0061). SQLite runs in-process and better-sqlite3 steps a statement without
 * returning to JavaScript (decision 0019: nothing interrupts it), so a scan on the app's own thread would hold every
 * request for as long as it runs. A scan runs instead on a worker thread, on a read-only connection of its own to the
 * file (as an export's stream does), and stops itself: its WHERE asks `dbui_scan_budget()` for every row it examines
 * before the filter (scanWhere), a function of that connection which throws once the budget has passed, and SQLite
 * abandons the statement at once. The function counts the rows, so the answer can say how many were examined. Should
 * the worker not answer within the budget and a margin (a sort after the scan, a file lock), it is terminated.
 * Each database keeps at most SCAN_WORKERS such threads, started by the first scans and ended after a while without
 * one (or with the engine); more scans at once wait for a free thread.
 *
 * A reader takes SQLite's shared lock: in WAL mode writers go on meanwhile; in rollback-journal mode a writer's commit
 * waits for it (busy_timeout, 5 s), which the budget bounds.
 */

/** How long after the budget a worker that has not answered is terminated. */
const STOP_MARGIN_MS = 1000;
/** Scans of one database that run at once; more wait for a free worker. */
const SCAN_WORKERS = 2;
/** A worker without a scan for this long ends (its connection closes). */
const IDLE_MS = 30_000;

/** The name of the per-row check; a constant of ours, never input. */
const CHECK = 'dbui_scan_budget';

/** The WHERE of a scan: the budget is checked before each row's filter, so every row examined is counted. */
export function sqliteScanWhere(where: SqlFragment): SqlFragment {
  return sql`case when ${sql.raw(CHECK)}() then (${where}) end`;
}

/** CommonJS source evaluated as the worker, so the server's bundle needs no file beside it (as forced-exit.ts). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const STOP = 'dbui scan budget';
let deadline = 0;
let examined = 0;
const database = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
database.pragma('busy_timeout = 5000');
database.defaultSafeIntegers(true);
database.function('${CHECK}', { deterministic: false }, () => {
  examined++;
  if ((examined & 255) === 0 && Date.now() > deadline) throw new Error(STOP);
  return 1;
});
parentPort.on('message', ({ text, parameters, budgetMs }) => {
  deadline = Date.now() + budgetMs;
  examined = 0;
  try {
    const bound = parameters.map((value) => (value instanceof Uint8Array ? Buffer.from(value) : value));
    const rows = database.prepare(text).all(...bound);
    parentPort.postMessage({ rows, examined });
  } catch (error) {
    const stopped = error instanceof Error && error.message === STOP;
    parentPort.postMessage({
      stopped,
      examined,
      message: stopped ? null : String(error && error.message),
      code: error && typeof error.code === 'string' ? error.code : null,
    });
  }
});
`;

interface WorkerAnswer {
  rows?: Record<string, unknown>[];
  stopped?: boolean;
  examined?: number;
  message?: string | null;
  code?: string | null;
}

let driverPath: string | undefined;
/** better-sqlite3's entry, resolved as this module resolves it (the worker's require has no folder of its own). */
const driver = () => (driverPath ??= createRequire(import.meta.url).resolve('better-sqlite3'));

interface Scan {
  query: CompiledQuery;
  budgetMs: number;
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: unknown) => void;
}

/** The scan workers of one SQLite file. */
export class SqliteScans {
  private readonly idle: Worker[] = [];
  private busy = 0;
  private readonly waiting: Scan[] = [];
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly file: string) {}

  /** Runs a scan's select on a worker; its rows, or a ScanStopped with the rows examined. */
  query(query: CompiledQuery, budgetMs: number): Promise<Record<string, unknown>[]> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ query, budgetMs, resolve, reject });
      this.next();
    });
  }

  /** Ends every worker (the engine closes). */
  async close(): Promise<void> {
    this.closed = true;
    for (const scan of this.waiting.splice(0)) scan.reject(new Error('the database is closed'));
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    this.idleTimers.clear();
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private next(): void {
    if (this.waiting.length === 0) return;
    const worker = this.idle.pop() ?? (this.busy + this.idle.length < SCAN_WORKERS ? this.start() : null);
    if (!worker) return;
    const scan = this.waiting.shift() as Scan;
    const timer = this.idleTimers.get(worker);
    if (timer) clearTimeout(timer);
    this.idleTimers.delete(worker);
    this.busy++;
    this.run(worker, scan);
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: driver(), file: this.file },
    });
    worker.unref();
    // A worker that fails to start (the file is gone) fails the scan that started it, below.
    worker.on('error', () => undefined);
    return worker;
  }

  private run(worker: Worker, scan: Scan): void {
    let settled = false;
    const finish = (reusable: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(stop);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.off('error', onError);
      this.busy--;
      if (reusable && !this.closed) this.rest(worker);
      else void worker.terminate();
      outcome();
      this.next();
    };
    const stop = setTimeout(
      () => finish(false, () => scan.reject(new ScanStopped(null))),
      scan.budgetMs + STOP_MARGIN_MS,
    );
    const onMessage = (answer: WorkerAnswer) =>
      finish(true, () => {
        if (answer.rows) scan.resolve(answer.rows);
        else if (answer.stopped) scan.reject(new ScanStopped(answer.examined ?? null));
        else
          scan.reject(
            Object.assign(new Error(answer.message ?? 'the scan failed'), { code: answer.code ?? undefined }),
          );
      });
    const onError = (error: unknown) => finish(false, () => scan.reject(error));
    const onExit = () => finish(false, () => scan.reject(new Error('the scan stopped without an answer')));
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({
      text: scan.query.sql,
      parameters: [...scan.query.parameters],
      budgetMs: scan.budgetMs,
    });
  }

  /** Back among the idle workers, ended after IDLE_MS without a scan. */
  private rest(worker: Worker): void {
    this.idle.push(worker);
    const timer = setTimeout(() => {
      this.idleTimers.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      void worker.terminate();
    }, IDLE_MS);
    timer.unref();
    this.idleTimers.set(worker, timer);
  }
}
