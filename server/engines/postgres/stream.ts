import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import { to as copyTo } from 'pg-copy-streams';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { CsvCopy, JsonLinesCopy, SqlFragment } from '#server/engines/adapter.ts';
import { batchesOf } from '#server/engines/stream-batches.ts';
import type { CsvChunk, DynamicSchema, RowStreamOptions } from '#server/engines/engine.ts';
import type { GuardedClient, GuardedPool } from './guarded-pool.ts';
import { FORMULA_START_CODES, holdsText } from '#server/engines/formula-cells.ts';
import { keysKeepColumnOrder, PostgresJsonLinesEncoder } from './json-lines.ts';

/*
 * Streaming from PostgreSQL (exports). Each stream takes a client of its own from the pool, in a read-only
 * transaction without the statement timeout (an export of ten million rows runs for minutes): rows through a
 * server-side cursor (pg-query-stream, read a batch at a time as the consumer asks), or CSV written by the server
 * itself with COPY (pg-copy-streams), the fastest way out of PostgreSQL. A stream stopped early discards its
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
 * PostgreSQL's own CSV writer. COPY takes no bound values, so only statements without any are copied; its text
 * must equal the wire value of every column, so some columns are selected through an expression (the same
 * normalisation types.ts applies to driver values) and floats are not copied at all (PostgreSQL writes 1e-07
 * where JavaScript writes 1e-7). Text that starts like a formula gets its leading quote in the select, as
 * export-formats.ts gives it to the rows (formula-cells.ts).
 */
export function postgresCsvCopy(db: Kysely<DynamicSchema>): CsvCopy {
  return {
    expression: copyExpression,
    record: (fields) => sql.join(fields.map((f) => sql`${f.expression} as ${sql.id(f.column.name)}`)),
    copy: (query, _fields, options) =>
      query.parameters.length > 0
        ? null
        : countedCsv(
            onStreamingClient(
              db,
              options.signal,
              (client) => client.query(copyTo(`copy (${query.sql}) to stdout with (format csv)`)),
              (source) => source as AsyncIterable<Uint8Array>,
            ),
          ),
  };
}

async function* countedCsv(source: AsyncIterable<Uint8Array>): AsyncGenerator<CsvChunk> {
  const counter = new CsvRecordCounter();
  for await (const bytes of source) yield { bytes, rows: counter.count(bytes) };
}

/** What COPY should select for a column so its CSV text is the wire value (types.ts decodeValue), formula-like
 * text quoted, or null. The session runs with TimeZone=UTC and DateStyle=ISO (types.ts sessionOptions), which
 * these rely on. */
export function copyExpression(column: Column, ref: SqlFragment): SqlFragment | null {
  switch (column.type) {
    case 'float4':
    case 'float8':
      return null;
    case 'bool':
      return sql`${ref}::text`;
    case 'bytea':
      // encode() breaks base64 into 76-character lines; the wire value has none.
      return sql`translate(encode(${ref}, 'base64'), chr(10), '')`;
    case 'timestamp':
      // isoPointInTime: '2024-01-02 03:04:05.5' → '2024-01-02T03:04:05.5'; BC and infinity stay as they are.
      return sql`case when ${ref} >= '0001-01-01' and ${ref} < '10000-01-01' then replace(${ref}::text, ' ', 'T') else regexp_replace(${ref}::text, '^(\\d{4,}-\\d{2}-\\d{2}) (\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?)$', '\\1T\\2') end`;
    case 'timestamptz':
      // In UTC every value reads '… +00': '2024-01-02 03:04:05+00' → '2024-01-02T03:04:05+00:00'.
      return sql`case when ${ref} >= '0001-01-01 00:00:00+00' and ${ref} < '10000-01-01 00:00:00+00' then replace(${ref}::text, ' ', 'T') || ':00' else regexp_replace(${ref}::text, '^(\\d{4,}-\\d{2}-\\d{2}) (\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?)\\+00$', '\\1T\\2+00:00') end`;
    case 'timetz':
      return sql`regexp_replace(${ref}::text, '^(\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?)([+-]\\d{2})$', '\\1\\3:00')`;
    case 'money':
      return sql`regexp_replace(${ref}::text, '[^0-9.-]', '', 'g')`;
  }
  if (column.typeGroup === 'bit') return column.type === 'bit' ? sql`(${ref} = B'1')::text` : null;
  if (column.typeGroup === 'Binary' || column.typeGroup === 'image') return null;
  // Everything else arrives as the text PostgreSQL writes (types.ts): integers, numeric, text, uuid, dates,
  // times, json, arrays, intervals.
  return holdsText(column) ? formulaSafe(column, ref) : ref;
}

const FORMULA_STARTS = sql.raw(FORMULA_START_CODES.join(', '));

/** The column's text with a leading quote when it starts like a formula (ascii() looks at the first character
 * only, so a value that needs no quote costs one comparison). */
function formulaSafe(column: Column, ref: SqlFragment): SqlFragment {
  if (column.type === 'text' || column.type === 'varchar')
    return sql`case when ascii(${ref}) in (${FORMULA_STARTS}) then '''' || ${ref} else ${ref} end`;
  // Other types as COPY writes them, which concat() does too (its output function) where a cast to text may not:
  // char(n) keeps its padding, inet its address without /32.
  return sql`case when ${ref} is null then null when ascii(${ref}::text) in (${FORMULA_STARTS}) then concat('''', ${ref}) else concat(${ref}) end`;
}

/**
 * JSON Lines from PostgreSQL's plain text, written by Node (json-lines.ts): each column selected as it is (bytea as
 * base64, copyExpression), the line JSON.stringify's of the row's wire values. Without bound values COPY writes the
 * text (the fastest way out of PostgreSQL); with them (a filter) a cursor reads the same select's text values,
 * the driver's type parsers off. Null when JSON.stringify would not write the keys in column order (a column named
 * like an integer or __proto__): such a table goes through the rows.
 */
export function postgresJsonLinesCopy(db: Kysely<DynamicSchema>): JsonLinesCopy {
  return {
    expression: jsonLinesExpression,
    copy: (query, columns, options) => {
      if (!keysKeepColumnOrder(columns)) return null;
      if (query.parameters.length === 0)
        return copiedLines(
          onStreamingClient(
            db,
            options.signal,
            (client) => client.query(copyTo(`copy (${query.sql}) to stdout`)),
            (source) => source as AsyncIterable<Buffer>,
          ),
          new PostgresJsonLinesEncoder(columns),
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
        new PostgresJsonLinesEncoder(columns),
      );
    },
  };
}

/** Rows per batch of the filtered JSON Lines cursor. */
const JSON_LINES_BATCH = 2000;

/** Every value as the text PostgreSQL sends (the encoder parses what it needs itself). */
const TEXT_VALUES = { getTypeParser: () => (text: string) => text };

/** What to select for a column so its text is what the encoder reads: the column itself, bytea as base64. */
export function jsonLinesExpression(column: Column, ref: SqlFragment): SqlFragment {
  return column.typeGroup === 'Binary' || column.typeGroup === 'image'
    ? (copyExpression(column, ref) ?? ref)
    : ref;
}

async function* copiedLines(
  source: AsyncIterable<Buffer>,
  encoder: PostgresJsonLinesEncoder,
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
  encoder: PostgresJsonLinesEncoder,
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

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Counts the CSV records in a byte stream cut anywhere: a newline ends a record unless it is inside quotes. Every
 * quote toggles the state (an escaped quote "" toggles it twice), so only the parity needs carrying over.
 */
export class CsvRecordCounter {
  private quoted = false;

  count(bytes: Uint8Array): number {
    let records = 0;
    if (!this.quoted && bytes.indexOf(QUOTE) < 0) {
      for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) records++;
      return records;
    }
    for (const byte of bytes) {
      if (byte === QUOTE) this.quoted = !this.quoted;
      else if (byte === NEWLINE && !this.quoted) records++;
    }
    return records;
  }
}
