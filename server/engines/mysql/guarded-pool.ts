import type { Pool, PoolConnection, QueryError } from 'mysql2';
import type { CallDeadline, DeadlineGuard } from '#server/engines/call-deadline.ts';
import type { EngineError } from '#server/engines/engine-error.ts';

/*
 * The mysql2 pool behind DBUI's deadlines (call-deadline.ts): the wait for a connection (mysql2 would queue it for
 * ever) and every statement run on it until it is released end by one deadline that starts when it is asked for, and
 * a connection whose statement outlived it is closed rather than pooled again. Kysely's dialect and the streams (stream.ts) both take their connections here.
 */

type Callback<T> = (error: unknown, result: T) => void;

/** A pooled connection whose statements keep the call's deadline. */
export interface GuardedConnection {
  /** A statement, ended (with its connection) by the call's deadline. */
  query(sql: string, parameters: unknown[], callback: Callback<unknown>): void;
  /** A streaming query as mysql2 runs it (Kysely's dialect declares it; DBUI's streams use `raw`). */
  query(sql: string, parameters: unknown[]): ReturnType<PoolConnection['query']>;
  /** mysql2's connection itself, for a streaming query: a stream has no deadline as a whole (stream-watch.ts
   * watches it). */
  readonly raw: PoolConnection;
  /** Back to the pool (closed instead when a deadline discarded it). */
  release(): void;
  /** Closed, never pooled again. */
  destroy(): void;
}

/** How a connection is taken: the budget of its deadline (the pool's call budget unless given), or, for a stream, a
 * budget from now for each of its statements (its streaming query has none). */
export interface CheckoutOptions {
  budgetMs?: number;
  eachStatement?: boolean;
}

export interface GuardedPool {
  /** Kysely's dialect calls it with the callback alone. */
  getConnection(callback: Callback<GuardedConnection>, options?: CheckoutOptions): void;
  end(callback: (error: unknown) => void): void;
}

/** An error the server sent (it answered), as opposed to one of the network or the driver. */
const fromServer = (error: unknown) =>
  typeof error === 'object' && error !== null && 'sqlState' in error && !(error as QueryError).fatal;

/** Wraps a pool: connections come by their deadline, and their statements end by it. */
export function guardedPool(pool: Pool, guard: DeadlineGuard): GuardedPool {
  // A new connection is the server answering.
  pool.on('connection', () => guard.answered());
  interface Checkout {
    connection: GuardedConnection;
    /** The deadline of the checkout in progress; null: each statement its own. */
    deadline: CallDeadline | null;
  }
  const connections = new WeakMap<PoolConnection, Checkout>();
  const wrap = (connection: PoolConnection): Checkout => {
    let discarded: EngineError | null = null;
    const discard = (reason: EngineError) => {
      discarded = reason;
      // Removed from the pool at once; the statement in flight ends with the socket.
      connection.destroy();
    };
    function query(sql: string, parameters: unknown[], callback: Callback<unknown>): void;
    function query(sql: string, parameters: unknown[]): ReturnType<PoolConnection['query']>;
    function query(sql: string, parameters: unknown[], callback?: Callback<unknown>) {
      if (!callback) return connection.query(sql, parameters);
      if (discarded) {
        callback(discarded, undefined);
        return;
      }
      guard
        .run(
          () =>
            new Promise<unknown>((resolve, reject) =>
              connection.query(sql, parameters, (error, result) => (error ? reject(error) : resolve(result))),
            ),
          discard,
          fromServer,
          checkout.deadline ?? guard.deadline(),
        )
        .then(
          (result) => callback(null, result),
          (error: unknown) => callback(error, undefined),
        );
      return;
    }
    const checkout: Checkout = {
      connection: {
        raw: connection,
        query,
        release: () => (discarded ? connection.destroy() : connection.release()),
        destroy: () => connection.destroy(),
      },
      deadline: null,
    };
    return checkout;
  };
  return {
    getConnection(callback, options = {}) {
      const deadline = guard.deadline(options.budgetMs);
      guard
        .acquire(
          () =>
            new Promise<PoolConnection>((resolve, reject) =>
              pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
            ),
          (late) => late.release(),
          deadline,
        )
        .then(
          (connection) => {
            let checkout = connections.get(connection);
            if (!checkout) {
              checkout = wrap(connection);
              connections.set(connection, checkout);
            }
            checkout.deadline = options.eachStatement ? null : deadline;
            callback(null, checkout.connection);
          },
          (error: unknown) => callback(error, undefined as never),
        );
    },
    end: (callback) => pool.end(callback),
  };
}

/** Whether the database answers `select 1` within `budgetMs`, the wait for a connection included (a health check's
 * shorter budget); a connection whose probe outlives it is closed. */
export async function probe(pool: GuardedPool, budgetMs: number): Promise<void> {
  const connection = await new Promise<GuardedConnection>((resolve, reject) =>
    pool.getConnection((error, got) => (error ? reject(error) : resolve(got)), { budgetMs }),
  );
  try {
    await new Promise((resolve, reject) =>
      connection.query('select 1', [], (error, result) => (error ? reject(error) : resolve(result))),
    );
    connection.release();
  } catch (error) {
    connection.destroy();
    throw error;
  }
}
