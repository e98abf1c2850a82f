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

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown } | { late: true };

/** Waits for `work` until `at`; `{ late: true }` when the time ran out first. */
function settleBy<T>(work: Promise<T>, at: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ late: true }), Math.max(0, at - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve({ ok: true, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ ok: false, error });
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
  async acquire<C>(
    ask: () => Promise<C>,
    giveBack: (connection: C) => void,
    deadline = this.deadline(),
  ): Promise<C> {
    if (Date.now() >= deadline.at) throw this.expired(deadline);
    const asking = ask();
    const settled = await settleBy(asking, deadline.at);
    if ('late' in settled) {
      asking.then(giveBack, () => undefined);
      throw this.expired(deadline);
    }
    if (!settled.ok) throw settled.error;
    return settled.value;
  }

  /**
   * Runs one statement until the deadline (its connection's, or a budget from now). Past it, `discard` closes the connection (the statement dies with
   * it; the pool will not hand it out again) and the call fails with the 503 it is given. `fromServer` tells an
   * error the database sent (it answered) from one of the network.
   */
  async run<R>(
    statement: () => Promise<R>,
    discard: (reason: DatabaseUnavailable) => void,
    fromServer: (error: unknown) => boolean,
    deadline = this.deadline(),
  ): Promise<R> {
    if (Date.now() >= deadline.at) {
      const reason = this.expired(deadline);
      discard(reason);
      throw reason;
    }
    const running = statement();
    const settled = await settleBy(running, deadline.at);
    if ('late' in settled) {
      running.catch(() => undefined);
      const reason = this.expired(deadline);
      discard(reason);
      throw reason;
    }
    if (settled.ok) {
      this.answered();
      return settled.value;
    }
    if (fromServer(settled.error)) this.answered();
    throw settled.error;
  }
}
