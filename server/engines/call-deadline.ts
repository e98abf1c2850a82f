import { databaseBusy, databaseNotAnswering, type DatabaseUnavailable } from './engine-error.ts';

/*
 * DBUI's own deadline on every database call (docs/decisions/0019-call-deadlines.md). A statement timeout runs inside
 * the database: a frozen server (stopped, swapped out, hung) cannot fire it, and a call waiting for a pooled
 * connection runs no statement yet. So each call of the engine (a page, a write, a count…) has one deadline on our
 * side, the pool wait and its statements together: the statement timeout plus DEADLINE_MARGIN_MS, so that a live
 * database's own timeout answers first (a 504 that says what to narrow) and ours only when the database cannot.
 *
 * The deadline travels with the connection the call takes: the pool wrappers of each engine (postgres/guarded-pool.ts,
 * mysql/guarded-pool.ts) start it when a connection is asked for, bound the wait by it, and every statement run on
 * that connection until it is given back, without the queries knowing. A call that takes two connections at once (a
 * page and its count) has two deadlines that start together; one that takes them one after the other (the count,
 * then the page from the end) has a budget for each. When it passes during a statement, the connection is closed,
 * never pooled again: a frozen server cannot leave the pool full of connections waiting for it, and once it thaws,
 * new connections serve the next calls. A stream's connection gives each of its statements a deadline of its own
 * (its cursor has none; stream-watch.ts watches it).
 *
 * It used to travel in an AsyncLocalStorage; in Node 20 that turns on promise hooks for every promise of the
 * process once used, which cost a quarter of the first-page throughput under load (issue 17, decision 0034).
 */

/** What our deadline adds to the statement timeout. */
export const DEADLINE_MARGIN_MS = 1000;

/** How long one call may take, pool wait and statements together. */
export const callBudgetOf = (statementTimeoutMs: number) => statementTimeoutMs + DEADLINE_MARGIN_MS;

/** One call's deadline (ms since the epoch). */
export interface CallDeadline {
  startedAt: number;
  at: number;
}

/** A call waiting for its deadline: `late` runs if it comes first. */
interface Waiter {
  at: number;
  late: () => void;
  /** Its index in `waiting`; -1 once it waits no more. */
  slot: number;
}

/**
 * Every waiting call's deadline under one timer, set for the earliest of them, rather than a timer of its own each:
 * a timer a statement (and one a pool wait) was a timer object, a list of Node's timers by duration, a promise and a
 * settled-state object a call, a few microseconds of a page's server time (issue 17). A deadline fires a little
 * after its time at most, as a timer does.
 *
 * The waiters are an array (each knows its slot), not a Set. A Set that grows and shrinks with the calls in flight
 * rehashes all the time, and each table it leaves links to the next: under load, once the garbage collector had
 * moved one such table to the old generation, it kept every later table, their waiters and through them each
 * call's promises and rows alive until the next mark-compact (decision 0034, "Promoted rows").
 */
const waiting: Waiter[] = [];
let timer: NodeJS.Timeout | null = null;
let timerAt = Infinity;

function watch(waiter: Waiter): void {
  waiter.slot = waiting.length;
  waiting.push(waiter);
  if (waiter.at < timerAt) schedule(waiter.at);
}

/** Takes a waiter out of `waiting`: the last one moves into its slot. */
function remove(waiter: Waiter): void {
  const last = waiting.pop();
  if (last && last !== waiter) {
    waiting[waiter.slot] = last;
    last.slot = waiter.slot;
  }
  waiter.slot = -1;
}

/** Stops watching; false when the deadline already fired. */
function unwatch(waiter: Waiter): boolean {
  if (waiter.slot < 0) return false;
  remove(waiter);
  if (waiting.length === 0 && timer) {
    clearTimeout(timer);
    timer = null;
    timerAt = Infinity;
  }
  return true;
}

function schedule(at: number): void {
  if (timer) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(fireDue, Math.max(0, at - Date.now()));
}

function fireDue(): void {
  timer = null;
  timerAt = Infinity;
  const now = Date.now();
  for (const waiter of waiting.filter((w) => w.at <= now)) {
    remove(waiter);
    waiter.late();
  }
  let next = Infinity;
  for (const waiter of waiting) if (waiter.at < next) next = waiter.at;
  if (next < Infinity && next < timerAt) schedule(next);
}

/** `work`'s outcome, or `late()`'s rejection when `at` passes first (`late` runs then, and throws the reason). */
function settleBy<T>(
  work: Promise<T>,
  at: number,
  late: () => unknown,
  settled?: (ok: boolean, result: unknown) => void,
) {
  return new Promise<T>((resolve, reject) => {
    const waiter: Waiter = {
      at,
      slot: -1,
      late: () => {
        try {
          reject(late());
        } catch (error) {
          reject(error);
        }
      },
    };
    watch(waiter);
    work.then(
      (value) => {
        if (!unwatch(waiter)) return;
        settled?.(true, value);
        resolve(value);
      },
      (error: unknown) => {
        if (!unwatch(waiter)) return;
        settled?.(false, error);
        reject(error);
      },
    );
  });
}

/**
 * The deadlines of one database's pool. It also notes when the database last answered anything (a result, a new
 * connection, an error the server sent), which tells the two 503s apart when a deadline passes: busy when the
 * database answered others meanwhile (it works, but rows this call needs are locked or every connection is taken),
 * not answering when nothing at all came back since the call began.
 */
export class DeadlineGuard {
  private lastAnswerAt = 0;

  constructor(
    private readonly name: string,
    /** A call's budget: the statement timeout plus the margin. */
    readonly budgetMs: number,
  ) {}

  /** A deadline `budgetMs` from now (a call's budget unless given). */
  deadline(budgetMs = this.budgetMs): CallDeadline {
    const startedAt = Date.now();
    return { startedAt, at: startedAt + budgetMs };
  }

  /** The database answered: a result, a new connection, or an error of its own. */
  answered(): void {
    this.lastAnswerAt = Date.now();
  }

  /** What a call whose deadline passed answers (503): busy or not answering, see above. */
  expired(deadline: CallDeadline): DatabaseUnavailable {
    return this.lastAnswerAt >= deadline.startedAt
      ? databaseBusy(this.name)
      : databaseNotAnswering(this.name);
  }

  /** Waits for a pooled connection until the deadline. A connection that comes later is given back at once: the
   * pool's queue cannot be left holding it. */
  acquire<C>(
    ask: () => Promise<C>,
    giveBack: (connection: C) => void,
    deadline = this.deadline(),
  ): Promise<C> {
    if (Date.now() >= deadline.at) return Promise.reject(this.expired(deadline));
    let asking: Promise<C>;
    try {
      asking = ask();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return settleBy(asking, deadline.at, () => {
      asking.then(giveBack, () => undefined);
      return this.expired(deadline);
    });
  }

  /**
   * Runs one statement until the deadline (its connection's, or a budget from now). Past it, `discard` closes the
   * connection (the statement dies with it; the pool will not hand it out again) and the call fails with the 503 it
   * is given. `fromServer` tells an error the database sent (it answered) from one of the network.
   */
  run<R>(
    statement: () => Promise<R>,
    discard: (reason: DatabaseUnavailable) => void,
    fromServer: (error: unknown) => boolean,
    deadline = this.deadline(),
  ): Promise<R> {
    if (Date.now() >= deadline.at) {
      const reason = this.expired(deadline);
      discard(reason);
      return Promise.reject(reason);
    }
    let running: Promise<R>;
    try {
      running = statement();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return settleBy(
      running,
      deadline.at,
      () => {
        running.catch(() => undefined);
        const reason = this.expired(deadline);
        discard(reason);
        return reason;
      },
      (ok, result) => {
        if (ok || fromServer(result)) this.answered();
      },
    );
  }
}
