import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import { to as copyTo } from 'pg-copy-streams';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { CsvCopy, JsonLinesCopy, SqlFragment } from '#server/engines/adapter.ts';
import { batchesOf } from '#server/engines/stream-batches.ts';
import type { CsvChunk, DynamicSchema, RowStreamOptions } from '#server/engines/engine.ts';
import type { GuardedClient, GuardedPool } from './guarded-pool.ts';
import { CopyTextEncoder, keysKeepColumnOrder } from './copy-text.ts';

/*
 * Streaming from PostgreSQL (exports). Each stream takes a client of its own from the pool, in a read-only
 * transaction without the statement timeout (an export of ten million rows runs for minutes): rows through a
 * server-side cursor (pg-query-stream, read a batch at a time as the consumer asks), or COPY's plain text
 * (pg-copy-streams), the fastest way out of PostgreSQL, written as CSV or JSON Lines by copy-text.ts. A stream stopped early discards its
 * connection, which ends the statement on the server.
 */

const pools = new WeakMap<Kysely<DynamicSchema>, GuardedPool>();

/** Remembers the pool under a Kysely instance (connect.ts): streams and probes need a client of their own. */
export function registerPool(db: Kysely<DynamicSchema>, pool: GuardedPool): void {
  pools.set(db, pool);
}

/** The pool under a Kysely instance opened by openPostgres. */
export function poolOf(db: Kysely<DynamicSchema>): GuardedPool {
  const pool = pools.get(db);
  if (!pool)
    throw new Error('This PostgreSQL connection was not opened by openPostgres, so it cannot stream.');
  return pool;
}

/** A client of the stream's own. Getting it and starting its transaction keep a deadline each (guarded-pool.ts);
 * the cursor or COPY then has none as a whole (the engine watches its silences, stream-watch.ts). */
async function streamingClient(db: Kysely<DynamicSchema>): Promise<GuardedClient> {
  const client = await poolOf(db).connect({ eachStatement: true });
  try {
    await client.query('begin transaction read only');
    await client.query('set local statement_timeout = 0');
  } catch (error) {
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  return client;
}

/** Runs `work` on a streaming client; commits when it ends, discards the connection when it stops early. */
async function* onStreamingClient<T>(
  db: Kysely<DynamicSchema>,
  signal: AbortSignal | undefined,
  open: (client: GuardedClient) => Readable,
  collect: (source: Readable) => AsyncIterable<T>,
): AsyncGenerator<T> {
  signal?.throwIfAborted();
  const client = await streamingClient(db);
  let completed = false;
  try {
    const stream = open(client);
    const stop = () => {
      stream.destroy(signal?.reason instanceof Error ? signal.reason : new Error('stopped'));
      // A cursor's close would wait for the server (a frozen one never answers); the stream ends with the socket.
      client.discard();
    };
    signal?.addEventListener('abort', stop, { once: true });
    try {
      yield* untilStopped(collect(stream), signal);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    await client.query('commit');
    completed = true;
  } finally {
    // A client released with an error is closed, not pooled: a cursor or COPY left half-read dies with it.
    client.release(completed ? undefined : true);
  }
}

/** The items of `source` until the signal. A stopped cursor's stream ends only once the server confirms the cursor
 * closed, which a frozen server never does: the stop does not wait for it (the connection is gone already). */
export async function* untilStopped<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  if (!signal) return yield* source;
  const iterator = source[Symbol.asyncIterator]();
  let reading = false;
  try {
    for (;;) {
      reading = true;
      const result = await nextUnlessStopped(iterator.next(), signal);
      reading = false;
      if (result.done) return;
      yield result.value;
    }
  } finally {
    // A reader that stops between items ends the source too; one left mid-read is abandoned with its connection.
    if (!reading) await iterator.return?.();
  }
}

/** The next item, or the signal's reason once it is aborted. Each wait listens to the signal only while it lasts:
 * racing every item against one promise of the whole stream's stop (Promise.race) would leave a reaction on that
 * promise per item, each holding its item, so an export kept every chunk it had written until it ended (10 million
 * rows of COPY: 1 GB). */
function nextUnlessStopped<T>(next: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('stopped'));
    // Heard even when the signal was aborted already: the source's read, asked for before, then fails with the
    // stopped stream's error, and a rejection nobody handles is reported as a fault (it failed a CI run).
    next.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Rows through a server-side cursor, `chunkSize` a batch; the pool's type parsers apply (types.ts). */
export function postgresStreamQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  options: RowStreamOptions & { chunkSize: number },
): AsyncIterable<Record<string, unknown>[]> {
  return onStreamingClient(
    db,
    options.signal,
    (client) =>
      client.query(
        new QueryStream(query.sql, [...query.parameters], {
          batchSize: options.chunkSize,
          highWaterMark: options.chunkSize,
        }),
      ),
    (source) => batchesOf<Record<string, unknown>>(source, options.chunkSize),
  );
}

/**
 * CSV from PostgreSQL's plain text, written by Node (copy-text.ts, decision 0042): each column selected as it is
 * (bytea as base64, copyTextExpression), copied `to stdout` in the text format and written as the CSV records
 * csv-stringify makes of the rows' wire values (formula-like text quoted, formula-cells.ts). COPY takes no bound
 * values, so a statement with any (a filter) goes through the rows.
 */
export function postgresCsvCopy(db: Kysely<DynamicSchema>): CsvCopy {
  return {
    expression: copyTextExpression,
    record: (fields) => sql.join(fields.map((f) => sql`${f.expression} as ${sql.id(f.column.name)}`)),
    copy: (query, fields, options) =>
      query.parameters.length > 0
        ? null
        : copiedText(
            onStreamingClient(
              db,
              options.signal,
              (client) => client.query(copyTo(`copy (${query.sql}) to stdout`)),
              (source) => source as AsyncIterable<Buffer>,
            ),
            new CopyTextEncoder(
              fields.map((f) => f.column),
              'csv',
            ),
          ),
  };
}

/**
 * JSON Lines from PostgreSQL's plain text, written by Node (copy-text.ts): each column selected as it is (bytea as
 * base64, copyTextExpression), the line JSON.stringify's of the row's wire values. Without bound values COPY writes the
 * text (the fastest way out of PostgreSQL); with them (a filter) a cursor reads the same select's text values,
 * the driver's type parsers off. Null when JSON.stringify would not write the keys in column order (a column named
 * like an integer or __proto__): such a table goes through the rows.
 */
export function postgresJsonLinesCopy(db: Kysely<DynamicSchema>): JsonLinesCopy {
  return {
    expression: copyTextExpression,
    copy: (query, columns, options) => {
      if (!keysKeepColumnOrder(columns)) return null;
      if (query.parameters.length === 0)
        return copiedText(
          onStreamingClient(
            db,
            options.signal,
            (client) => client.query(copyTo(`copy (${query.sql}) to stdout`)),
            (source) => source as AsyncIterable<Buffer>,
          ),
          new CopyTextEncoder(columns),
        );
      return cursorLines(
        onStreamingClient(
          db,
          options.signal,
          (client) =>
            client.query(
              new QueryStream(query.sql, [...query.parameters], {
                batchSize: JSON_LINES_BATCH,
                highWaterMark: JSON_LINES_BATCH,
                rowMode: 'array',
                types: TEXT_VALUES,
              }),
            ),
          (source) => batchesOf<(string | null)[]>(source, JSON_LINES_BATCH),
        ),
        new CopyTextEncoder(columns),
      );
    },
  };
}

/** Rows per batch of the filtered JSON Lines cursor. */
const JSON_LINES_BATCH = 2000;

/** Every value as the text PostgreSQL sends (the encoder parses what it needs itself). */
const TEXT_VALUES = { getTypeParser: () => (text: string) => text };

/** What to select for a column so its text is what the encoder reads: the column itself, bytea as base64 (encode()
 * breaks base64 into 76-character lines; the wire value has none). */
export function copyTextExpression(column: Column, ref: SqlFragment): SqlFragment {
  return column.type === 'bytea' ? sql`translate(encode(${ref}, 'base64'), chr(10), '')` : ref;
}

async function* copiedText(
  source: AsyncIterable<Buffer>,
  encoder: CopyTextEncoder,
): AsyncGenerator<CsvChunk> {
  for await (const bytes of source) {
    encoder.copyData(bytes);
    const chunk = encoder.full ? encoder.take() : null;
    if (chunk) {
      yield chunk;
      encoder.reuse(chunk);
    }
  }
  encoder.endOfData();
  const last = encoder.take();
  if (last) yield last;
}

async function* cursorLines(
  source: AsyncIterable<(string | null)[][]>,
  encoder: CopyTextEncoder,
): AsyncGenerator<CsvChunk> {
  for await (const rows of source) {
    for (const row of rows) encoder.values(row);
    const chunk = encoder.full ? encoder.take() : null;
    if (chunk) {
      yield chunk;
      encoder.reuse(chunk);
    }
  }
  const last = encoder.take();
  if (last) yield last;
}
