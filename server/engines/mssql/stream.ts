import * as tedious from 'tedious';
import * as tarn from 'tarn';
import { Kysely, MssqlDialect, type CompiledQuery } from 'kysely';
import type { DynamicSchema, RowStreamOptions } from '#server/engines/engine.ts';

/*
 * Streaming from SQL Server (exports): tedious streams rows as they arrive, and Kysely's driver pauses the request
 * while a chunk waits for the consumer. The stream runs on a connection of its own, opened with the pool's
 * settings but without the request timeout (tedious cancels any request running longer, which an export of
 * millions of rows does), and closed afterwards. Not run here: no SQL Server is available (STACK.md); the live
 * suite covers it where MSSQL_URL is set.
 */

const configs = new WeakMap<Kysely<DynamicSchema>, tedious.ConnectionConfiguration>();

/** Remembers the connection settings under a Kysely instance (connect.ts). */
export function registerConnectionConfig(
  db: Kysely<DynamicSchema>,
  config: tedious.ConnectionConfiguration,
): void {
  configs.set(db, config);
}

/** Rows of the select, `chunkSize` at a time. */
export async function* mssqlStreamQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  options: RowStreamOptions & { chunkSize: number },
): AsyncGenerator<Record<string, unknown>[]> {
  const config = configs.get(db);
  if (!config)
    throw new Error('This SQL Server connection was not opened by openMssql, so it cannot stream.');
  options.signal?.throwIfAborted();
  const unlimited: tedious.ConnectionConfiguration = {
    ...config,
    options: { ...config.options, requestTimeout: 0 },
  };
  const streaming = new Kysely<DynamicSchema>({
    dialect: new MssqlDialect({
      tarn: { ...tarn, options: { min: 0, max: 1, propagateCreateError: true } },
      tedious: { ...tedious, connectionFactory: () => new tedious.Connection(unlimited) },
    }),
  });
  try {
    // The executor is how Kysely streams a compiled query; its driver cancels the request when we stop early.
    for await (const result of streaming.getExecutor().stream(query, options.chunkSize)) {
      yield result.rows as Record<string, unknown>[];
      options.signal?.throwIfAborted();
    }
  } finally {
    await streaming.destroy();
  }
}
