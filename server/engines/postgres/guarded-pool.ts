import pg from 'pg';
import type { CallDeadline, DeadlineGuard } from '#server/engines/call-deadline.ts';
import type { EngineError } from '#server/engines/engine-error.ts';

/*
 * The pg pool behind DBUI's deadlines (call-deadline.ts): the wait for a client and every statement run on it until
 * it is released end by one deadline that starts when the client is asked for, and a client whose statement outlived
 * it is closed rather than pooled again. Kysely's dialect and the streams (stream.ts) both take their clients here.
 */

/** A pooled client whose statements keep the call's deadline. */
export interface GuardedClient {
  /** A statement, ended (with its connection) by the call's deadline. */
  query<R extends pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<R>>;
  /** A cursor or COPY, run as pg runs it: a stream has no deadline as a whole (stream-watch.ts watches it). */
  query<T extends pg.Submittable>(submittable: T): T;
  /** Closes the connection now, whatever runs on it (a cursor's or COPY's own close would wait for the server);
   * release() then takes it out of the pool. */
  discard(): void;
  /** Back to the pool; closed instead when given an error or true, or when a deadline discarded it. */
  release(destroy?: boolean | Error): void;
}

/** How a client is taken: the budget of its deadline (the pool's call budget unless given), or, for a stream, a
 * budget from now for each of its statements (its cursor or COPY has none). */
export interface CheckoutOptions {
  budgetMs?: number;
  eachStatement?: boolean;
}

export interface GuardedPool {
  connect(options?: CheckoutOptions): Promise<GuardedClient>;
  end(): Promise<void>;
}

/** How long opening one connection may take: a host that does not answer is "not reachable" after this. */
export const CONNECT_TIMEOUT_MS = 5000;

/** A pg client that gives up connecting after CONNECT_TIMEOUT_MS. The pool's own connectionTimeoutMillis also
 * bounds the wait in its queue, which our deadline does (a wait there is "busy", not "not reachable"). */
export class ConnectingClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/**
 * A statement through pg's callback form, its outcome as a promise of our own. With pg's promise form (client.query
 * without a callback) a pooled client's results stayed reachable past their use: under load every page's rows
 * outlived a scavenge and went to the old generation, and a loop of checkout, query and release ran at two thirds
 * of the callback form's rate (decision 0034, "Promoted rows").
 */
function callbackQuery(
  client: pg.PoolClient,
  text: string,
  values: readonly unknown[] | undefined,
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(text, values ? [...values] : [], (error: Error | null, result: pg.QueryResult) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** Wraps a pool: `connect()` waits until its deadline, and the client's statements end by it. */
export function guardedPool(pool: pg.Pool, guard: DeadlineGuard): GuardedPool {
  // A new connection is the server answering.
  pool.on('connect', () => guard.answered());
  const clients = new WeakMap<pg.PoolClient, Checkout>();
  interface Checkout {
    client: GuardedClient;
    /** The deadline of the checkout in progress; null: each statement its own. */
    deadline: CallDeadline | null;
  }
  const wrap = (client: pg.PoolClient): Checkout => {
    // A client whose connection dies while it is checked out and between statements (a server stopped mid-
    // transaction, a socket reset after a discard) emits 'error'; the pool listens only while it is idle, and an
    // 'error' nobody hears ends the process. Its next statement fails instead, and release() drops it.
    client.on('error', () => undefined);
    let discarded: EngineError | null = null;
    const discard = (reason: EngineError) => {
      discarded = reason;
      // With a statement in flight, pg's end() destroys the socket at once (a graceful goodbye would wait for the
      // frozen server); release() then removes the client from the pool.
      client.end().catch(() => undefined);
    };
    function query<R extends pg.QueryResultRow>(
      text: string,
      values?: readonly unknown[],
    ): Promise<pg.QueryResult<R>>;
    function query<T extends pg.Submittable>(submittable: T): T;
    function query(statement: string | pg.Submittable, values?: readonly unknown[]) {
      if (typeof statement !== 'string') return client.query(statement);
      if (discarded) return Promise.reject(discarded);
      return guard.run(
        () => callbackQuery(client, statement, values),
        discard,
        (error) => error instanceof pg.DatabaseError,
        checkout.deadline ?? guard.deadline(),
      );
    }
    const checkout: Checkout = {
      client: {
        query,
        discard: () => {
          client.end().catch(() => undefined);
        },
        release: (destroy) => client.release(discarded ?? destroy),
      },
      deadline: null,
    };
    return checkout;
  };
  return {
    async connect(options = {}) {
      const deadline = guard.deadline(options.budgetMs);
      const client = await guard.acquire(
        () => pool.connect(),
        (late) => late.release(),
        deadline,
      );
      let checkout = clients.get(client);
      if (!checkout) {
        checkout = wrap(client);
        clients.set(client, checkout);
      }
      checkout.deadline = options.eachStatement ? null : deadline;
      return checkout.client;
    },
    end: () => pool.end(),
  };
}

/** Whether the database answers `select 1` within `budgetMs`, the wait for a client included (a health check's
 * shorter budget); a client whose probe outlives it is closed. */
export async function probe(pool: GuardedPool, budgetMs: number): Promise<void> {
  const client = await pool.connect({ budgetMs });
  let failed = true;
  try {
    await client.query('select 1');
    failed = false;
  } finally {
    client.release(failed);
  }
}
