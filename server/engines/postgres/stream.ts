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

/*
 * Streaming from PostgreSQL (exports). Each stream takes a client of its own from the pool, in a read-only
 * transaction without the statement timeout (an export of ten million rows runs for minutes): rows through a
 * server-side cursor (pg-query-stream, read a batch at a time as the consumer asks), or CSV written by the server
 * itself with COPY (pg-copy-streams), the fastest way out of PostgreSQL. A stream stopped early discards its
 * connection, which ends the statement on the server.
 */

const pools = new WeakMap<Kysely<DynamicSchema>, GuardedPool>();

/** Remembers the pool under a Kysely instance (connect.ts): streams need a client of their own. */
export function registerPool(db: Kysely<DynamicSchema>, pool: GuardedPool): void {
  pools.set(db, pool);
}

/** A client of the stream's own. Getting it and starting its transaction keep a deadline each (guarded-pool.ts);
 * the cursor or COPY then has none as a whole (the engine watches its silences, stream-watch.ts). */
async function streamingClient(db: Kysely<DynamicSchema>): Promise<GuardedClient> {
  const pool = pools.get(db);
  if (!pool)
    throw new Error('This PostgreSQL connection was not opened by openPostgres, so it cannot stream.');
  const client = await pool.connect();
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
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
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
 * PostgreSQL's own JSON: each row as row_to_json writes it (compact, keys in column order, text escaped as
 * JSON.stringify escapes it), each column selected through an expression whose JSON is its wire value's
 * (jsonExpression). Without bound values COPY writes the lines: CSV format with a quote and a delimiter that JSON
 * never holds raw (control characters are escaped in JSON strings), so COPY adds nothing to them. With bound values
 * (a filter) a cursor reads one text column, each row's line.
 */
export function postgresJsonLinesCopy(db: Kysely<DynamicSchema>): JsonLinesCopy {
  return {
    expression: jsonExpression,
    copy: (query, options) => {
      const lines = `select row_to_json(r) as line from (${query.sql}) r`;
      if (query.parameters.length === 0)
        return countedLines(
          onStreamingClient(
            db,
            options.signal,
            (client) =>
              client.query(
                copyTo(`copy (${lines}) to stdout with (format csv, quote e'\\x01', delimiter e'\\x02')`),
              ),
            (source) => source as AsyncIterable<Uint8Array>,
          ),
        );
      return joinedLines(
        onStreamingClient(
          db,
          options.signal,
          (client) =>
            client.query(
              new QueryStream(`select line::text as line from (${lines}) l`, [...query.parameters], {
                batchSize: JSON_LINES_BATCH,
                highWaterMark: JSON_LINES_BATCH,
                rowMode: 'array',
              }),
            ),
          (source) => batchesOf<[string]>(source, JSON_LINES_BATCH),
        ),
      );
    },
  };
}

/** Rows per batch of the filtered JSON Lines cursor. */
const JSON_LINES_BATCH = 2000;

async function* countedLines(source: AsyncIterable<Uint8Array>): AsyncGenerator<CsvChunk> {
  for await (const bytes of source) {
    let rows = 0;
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) rows++;
    yield { bytes, rows };
  }
}

async function* joinedLines(source: AsyncIterable<[string][]>): AsyncGenerator<CsvChunk> {
  for await (const rows of source) {
    let text = '';
    for (const [line] of rows) text += `${line}\n`;
    yield { bytes: Buffer.from(text), rows: rows.length };
  }
}

/** JavaScript's exact integers: an int8 beyond them is a string on the wire (wire-values.ts). */
const SAFE = sql.raw(String(Number.MAX_SAFE_INTEGER));

/**
 * What row_to_json should see for a column so its JSON is JSON.stringify's of the wire value (types.ts
 * decodeValue), or null for floats (PostgreSQL writes 1e-07 and NaN where JavaScript writes 1e-7 and "NaN").
 * The session's TimeZone=UTC and DateStyle=ISO (types.ts sessionOptions) hold the text forms steady.
 */
export function jsonExpression(column: Column, ref: SqlFragment): SqlFragment | null {
  switch (column.type) {
    case 'float4':
    case 'float8':
      return null;
    case 'int2':
    case 'int4':
    case 'bool':
      return ref;
    case 'oid':
      return sql`${ref}::int8`;
    case 'int8':
      return sql`case when ${ref} between -${SAFE} and ${SAFE} then to_json(${ref}) else to_json(${ref}::text) end`;
    case 'timestamp':
      // row_to_json writes ISO 8601 itself for years 1 to 9999 (what isoPointInTime makes); the rest as COPY's.
      return sql`case when ${ref} >= '0001-01-01' and ${ref} < '10000-01-01' then to_json(${ref}) else to_json(${copyExpression(column, ref)}) end`;
    case 'timestamptz':
      return sql`case when ${ref} >= '0001-01-01 00:00:00+00' and ${ref} < '10000-01-01 00:00:00+00' then to_json(${ref}) else to_json(${copyExpression(column, ref)}) end`;
    case 'timetz':
    case 'money':
    case 'bytea':
      return sql`to_json(${copyExpression(column, ref)})`;
  }
  if (column.typeGroup === 'bit') return column.type === 'bit' ? sql`(${ref} = B'1')` : null;
  if (column.typeGroup === 'Binary' || column.typeGroup === 'image') return null;
  // Text as it is (char(n) keeps its padding); everything else as its output function writes it (concat(), as
  // COPY does: a cast to text drops inet's /32), a JSON string: numeric, dates, times, json, arrays, intervals…
  if (column.typeGroup === 'Text') return sql`to_json(${ref})`;
  return sql`case when ${ref} is null then null else to_json(concat(${ref})) end`;
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
