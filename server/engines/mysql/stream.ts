import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { CsvCopy } from '#server/engines/adapter.ts';
import type { CsvChunk, DynamicSchema, RowStreamOptions } from '#server/engines/engine.ts';
import { batchesOf } from '#server/engines/stream-batches.ts';
import { csvFieldKind, MysqlCsvEncoder, type CsvFieldKind, type RowPacket } from './csv-records.ts';
import type { GuardedConnection, GuardedPool } from './guarded-pool.ts';

/*
 * Streaming from MySQL and MariaDB (exports): the driver's streaming query on a connection of its own, read as the
 * consumer asks (mysql2 pauses the socket while the consumer is busy, so the server waits instead of the rows
 * piling up in memory). The connection runs in UTC like every other (connect.ts) and without the statement
 * timeout; it is closed afterwards rather than pooled again with that setting.
 *
 * CSV is written by Node from the cells' raw bytes (csv-records.ts): the server runs the plain select, at the cost
 * INTO OUTFILE pays to read the rows, and Node writes each field without decoding it into a value (the select
 * formatting each record itself, as before, cost the server twice a plain select: docs/decisions/0035).
 */

const pools = new WeakMap<Kysely<DynamicSchema>, GuardedPool>();

/** Remembers the pool under a Kysely instance (connect.ts): streams need a connection of their own. */
export function registerPool(db: Kysely<DynamicSchema>, pool: GuardedPool): void {
  pools.set(db, pool);
}

/** The pool under a Kysely instance opened by openMysql. */
export function poolOf(db: Kysely<DynamicSchema>): GuardedPool {
  const pool = pools.get(db);
  if (!pool) throw new Error('This MySQL connection was not opened by openMysql, so it cannot stream.');
  return pool;
}

/** A connection of the stream's own, in UTC and without the statement timeout. Getting it and each setting keep
 * a deadline (guarded-pool.ts); the streaming query then has none as a whole (the engine watches its silences,
 * stream-watch.ts). */
async function streamingConnection(
  db: Kysely<DynamicSchema>,
  options: RowStreamOptions,
): Promise<GuardedConnection> {
  const pool = poolOf(db);
  options.signal?.throwIfAborted();
  const connection = await new Promise<GuardedConnection>((resolve, reject) =>
    pool.getConnection((error, got) => (error ? reject(error) : resolve(got)), { eachStatement: true }),
  );
  try {
    await run(connection, "SET time_zone = '+00:00'");
    // MariaDB spells the timeout max_statement_time, MySQL max_execution_time (connect.ts); 0 is no limit.
    if (!(await setIfKnown(connection, 'SET SESSION max_statement_time = 0')))
      await setIfKnown(connection, 'SET SESSION max_execution_time = 0');
  } catch (error) {
    connection.destroy();
    throw error;
  }
  return connection;
}

/** Unknown system variable: the other server family, or a version without the setting. */
const UNKNOWN_VARIABLE = 1193;

/** Rows through mysql2's streaming query, `chunkSize` at a time. */
export function mysqlStreamQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  options: RowStreamOptions & { chunkSize: number },
): AsyncGenerator<Record<string, unknown>[]> {
  return streamed(db, query, options, false);
}

/** The rows of `query` as arrays (rowsAsArray) or objects, on a streaming connection of their own. */
async function* streamed<T>(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  options: RowStreamOptions & { chunkSize: number },
  rowsAsArray: boolean,
): AsyncGenerator<T[]> {
  const connection = await streamingConnection(db, options);
  try {
    const stream = connection.raw
      .query({ sql: query.sql, values: [...query.parameters], rowsAsArray })
      .stream({ objectMode: true, highWaterMark: options.chunkSize });
    const stop = () =>
      stream.destroy(options.signal?.reason instanceof Error ? options.signal.reason : new Error('stopped'));
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      yield* batchesOf<T>(stream, options.chunkSize);
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  } finally {
    // Closed, not pooled: its timeout is off, and a result left half-read would still be arriving on it.
    connection.destroy();
  }
}

/** Chunks of CSV waiting for the reader before the socket is paused. */
const CSV_CHUNKS_AHEAD = 4;

/** CSV written by Node from the server's own text of each cell (csv-records.ts): the select is the columns
 * themselves, which the server sends at the cost of a plain select. */
export function mysqlCsvCopy(db: Kysely<DynamicSchema>): CsvCopy {
  return {
    expression: (column, ref) => (csvFieldKind(column) === null ? null : ref),
    record: (fields) => sql.join(fields.map((f) => f.expression)),
    copy: (query, fields, options) =>
      csvRecords(
        db,
        query,
        fields.map((f) => csvFieldKind(f.column) as CsvFieldKind),
        options,
      ),
  };
}

/** The binary character set's number, and MySQL's JSON column type (sent as binary, read by mysql2 as UTF-8). */
const BINARY_CHARSET = 63;
const JSON_TYPE = 245;

/** What the hooked row parser answers mysql2 for a row it has encoded itself. */
const ENCODED: unknown[] = [];

interface DriverRowParser {
  next(packet: unknown, fields: unknown, options: unknown): unknown;
}

const isRowPacket = (packet: unknown): packet is RowPacket =>
  typeof packet === 'object' &&
  packet !== null &&
  Buffer.isBuffer((packet as RowPacket).buffer) &&
  typeof (packet as RowPacket).offset === 'number' &&
  typeof (packet as RowPacket).end === 'number';

/**
 * Has the encoder read each row packet itself instead of mysql2's row parser (which makes a Buffer per cell and an
 * array per row: a third of the export's time, measured). mysql2 3.x keeps the query's parser in `_rowParser`, set
 * once the columns are known and asked for each row; it is wrapped here so the driver's own parser stays the
 * fallback for anything unexpected. A mysql2 without that field gives the rows as arrays of Buffers (typeCast:
 * false), which the encoder takes too.
 */
function encodeRowPackets(query: object, encoder: MysqlCsvEncoder, fail: (error: unknown) => void): void {
  if (!('_rowParser' in query)) return;
  let driverParser: DriverRowParser | null = null;
  const parser: DriverRowParser = {
    next(packet, fields, options) {
      if (!isRowPacket(packet)) return driverParser?.next(packet, fields, options);
      try {
        encoder.packet(packet);
      } catch (error) {
        fail(error);
      }
      return ENCODED;
    },
  };
  Object.defineProperty(query, '_rowParser', {
    configurable: true,
    get: () => (driverParser ? parser : null),
    set: (value: DriverRowParser | null) => {
      driverParser = value;
    },
  });
}

/**
 * The rows of `query` as raw cells (`typeCast: false`), encoded as they arrive, a 64 KB chunk at a time. Rows
 * come as mysql2 events rather than through an object stream (a promise and a push per row cost more than the
 * encoding); when the reader is CSV_CHUNKS_AHEAD chunks behind, the socket is paused (mysql2 holds the packets it
 * had read), so the server waits and memory stays flat.
 */
async function* csvRecords(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  kinds: CsvFieldKind[],
  options: RowStreamOptions,
): AsyncGenerator<CsvChunk> {
  const connection = await streamingConnection(db, options);
  try {
    // Text as utf8mb4 (the file's encoding) whatever character set the connection was opened with.
    await run(connection, 'SET character_set_results = utf8mb4');
    const raw = connection.raw;
    const encoder = new MysqlCsvEncoder(kinds);
    const ready: CsvChunk[] = [];
    let ended = false;
    let failure: unknown = null;
    let paused = false;
    let wake: (() => void) | null = null;
    const wakeReader = () => {
      const resolve = wake;
      wake = null;
      resolve?.();
    };
    const running = raw.query({
      sql: query.sql,
      values: [...query.parameters],
      rowsAsArray: true,
      typeCast: false,
    });
    encodeRowPackets(running, encoder, (error) => {
      failure ??= error;
      connection.destroy();
      wakeReader();
    });
    // Text the driver would read as binary (a binary character set) is binary on the wire too: base64.
    running.on('fields', (fields: { characterSet?: number; columnType?: number }[]) =>
      fields.forEach((field, at) => {
        if (field.characterSet === BINARY_CHARSET && field.columnType !== JSON_TYPE) encoder.binaryText(at);
      }),
    );
    running.on('result', (row) => {
      if (row !== ENCODED) encoder.row(row as unknown as (Buffer | null)[]);
      if (!encoder.full) return;
      const chunk = encoder.take();
      if (chunk) ready.push(chunk);
      if (ready.length >= CSV_CHUNKS_AHEAD && !paused) {
        paused = true;
        raw.pause();
      }
      wakeReader();
    });
    running.on('error', (error) => {
      failure ??= error;
      wakeReader();
    });
    running.on('end', () => {
      ended = true;
      const last = encoder.take();
      if (last) ready.push(last);
      wakeReader();
    });
    const stop = () => {
      failure ??= options.signal?.reason instanceof Error ? options.signal.reason : new Error('stopped');
      connection.destroy();
      wakeReader();
    };
    options.signal?.addEventListener('abort', stop, { once: true });
    try {
      for (;;) {
        if (failure) throw failure;
        const chunk = ready.shift();
        if (chunk) {
          yield chunk;
          encoder.reuse(chunk);
          if (paused && ready.length < CSV_CHUNKS_AHEAD) {
            paused = false;
            raw.resume();
          }
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      options.signal?.removeEventListener('abort', stop);
    }
  } finally {
    // Closed, not pooled: its timeout is off, and a result left half-read would still be arriving on it.
    connection.destroy();
  }
}

function run(connection: GuardedConnection, statement: string): Promise<void> {
  return new Promise((resolve, reject) =>
    connection.query(statement, [], (error) => (error ? reject(error) : resolve())),
  );
}

async function setIfKnown(connection: GuardedConnection, statement: string): Promise<boolean> {
  try {
    await run(connection, statement);
    return true;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'errno' in error && error.errno === UNKNOWN_VARIABLE)
      return false;
    throw error;
  }
}
