import type { Pool, PoolConnection, QueryError } from 'mysql2';
import type { DeadlineGuard } from '#server/engines/call-deadline.ts';
import type { EngineError } from '#server/engines/engine-error.ts';

/*
 * The mysql2 pool behind DBUI's deadlines (call-deadline.ts): the wait for a connection (mysql2 would queue it for
 * ever) and every statement end by the call's deadline, and a connection whose statement outlived it is closed
 * rather than pooled again. Kysely's dialect and the streams (stream.ts) both take their connections here.
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

export interface GuardedPool {
  getConnection(callback: Callback<GuardedConnection>): void;
  end(callback: (error: unknown) => void): void;
}

/** An error the server sent (it answered), as opposed to one of the network or the driver. */
const fromServer = (error: unknown) =>
  typeof error === 'object' && error !== null && 'sqlState' in error && !(error as QueryError).fatal;

/** Wraps a pool: connections come by the call's deadline, and their statements end by it. */
export function guardedPool(pool: Pool, guard: DeadlineGuard): GuardedPool {
  // A new connection is the server answering.
  pool.on('connection', () => guard.answered());
  const connections = new WeakMap<PoolConnection, GuardedConnection>();
  const wrap = (connection: PoolConnection): GuardedConnection => {
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
        )
        .then(
          (result) => callback(null, result),
          (error: unknown) => callback(error, undefined),
        );
      return;
    }
    return {
      raw: connection,
      query,
      release: () => (discarded ? connection.destroy() : connection.release()),
      destroy: () => connection.destroy(),
    };
  };
  return {
    getConnection(callback) {
      guard
        .acquire(
          () =>
            new Promise<PoolConnection>((resolve, reject) =>
              pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
            ),
          (late) => late.release(),
        )
        .then(
          (connection) => {
            let guarded = connections.get(connection);
            if (!guarded) {
              guarded = wrap(connection);
              connections.set(connection, guarded);
            }
            callback(null, guarded);
          },
          (error: unknown) => callback(error, undefined as never),
        );
    },
    end: (callback) => pool.end(callback),
  };
}
