import type { Pool, PoolConnection } from 'mysql2';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DynamicSchema, RowStreamOptions } from '#server/engines/engine.ts';

/*
 * Streaming from MySQL and MariaDB (exports): the driver's streaming query on a connection of its own, read as the
 * consumer asks (mysql2 pauses the socket while the consumer is busy, so the server waits instead of the rows
 * piling up in memory). The connection runs in UTC like every other (connect.ts) and without the statement
 * timeout; it is closed afterwards rather than pooled again with that setting.
 */

const pools = new WeakMap<Kysely<DynamicSchema>, Pool>();

/** Remembers the pool under a Kysely instance (connect.ts): streams need a connection of their own. */
export function registerPool(db: Kysely<DynamicSchema>, pool: Pool): void {
  pools.set(db, pool);
}

/** Unknown system variable: the other server family, or a version without the setting. */
const UNKNOWN_VARIABLE = 1193;

/** Rows through mysql2's streaming query, `chunkSize` at a time. */
export async function* mysqlStreamQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  options: RowStreamOptions & { chunkSize: number },
): AsyncGenerator<Record<string, unknown>[]> {
  const pool = pools.get(db);
  if (!pool) throw new Error('This MySQL connection was not opened by openMysql, so it cannot stream.');
  options.signal?.throwIfAborted();
  const connection = await new Promise<PoolConnection>((resolve, reject) =>
    pool.getConnection((error, got) => (error ? reject(error) : resolve(got))),
  );
  try {
    await run(connection, "SET time_zone = '+00:00'");
    // MariaDB spells the timeout max_statement_time, MySQL max_execution_time (connect.ts); 0 is no limit.
    if (!(await setIfKnown(connection, 'SET SESSION max_statement_time = 0')))
      await setIfKnown(connection, 'SET SESSION max_execution_time = 0');
    const stream = connection
      .query(query.sql, [...query.parameters])
      .stream({ objectMode: true, highWaterMark: options.chunkSize });
    const stop = () =>
      stream.destroy(options.signal?.reason instanceof Error ? options.signal.reason : new Error('stopped'));
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      let chunk: Record<string, unknown>[] = [];
      for await (const row of stream) {
        chunk.push(row as Record<string, unknown>);
        if (chunk.length >= options.chunkSize) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  } finally {
    // Closed, not pooled: its timeout is off, and a result left half-read would still be arriving on it.
    connection.destroy();
  }
}

function run(connection: PoolConnection, statement: string): Promise<void> {
  return new Promise((resolve, reject) =>
    connection.query(statement, (error) => (error ? reject(error) : resolve())),
  );
}

async function setIfKnown(connection: PoolConnection, statement: string): Promise<boolean> {
  try {
    await run(connection, statement);
    return true;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'errno' in error && error.errno === UNKNOWN_VARIABLE)
      return false;
    throw error;
  }
}
