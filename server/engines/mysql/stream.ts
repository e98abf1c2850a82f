import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { CsvCopy, SqlFragment } from '#server/engines/adapter.ts';
import type { CsvChunk, DynamicSchema, RowStreamOptions } from '#server/engines/engine.ts';
import { FORMULA_START_CODES } from '#server/engines/formula-cells.ts';
import { batchesOf } from '#server/engines/stream-batches.ts';
import type { GuardedConnection, GuardedPool } from './guarded-pool.ts';

/*
 * Streaming from MySQL and MariaDB (exports): the driver's streaming query on a connection of its own, read as the
 * consumer asks (mysql2 pauses the socket while the consumer is busy, so the server waits instead of the rows
 * piling up in memory). The connection runs in UTC like every other (connect.ts) and without the statement
 * timeout; it is closed afterwards rather than pooled again with that setting.
 *
 * CSV is written by the server itself where the columns allow: the select makes each record's text (every field
 * as the wire value would be written, quoted where RFC 4180 needs it, text that starts like a formula with a
 * leading single quote as formula-cells.ts says) and the driver hands it over as bytes, so Node neither decodes
 * values nor formats them (about three times as fast as rows through csv-stringify).
 */

const pools = new WeakMap<Kysely<DynamicSchema>, GuardedPool>();

/** Remembers the pool under a Kysely instance (connect.ts): streams need a connection of their own. */
export function registerPool(db: Kysely<DynamicSchema>, pool: GuardedPool): void {
  pools.set(db, pool);
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
  const pool = pools.get(db);
  if (!pool) throw new Error('This MySQL connection was not opened by openMysql, so it cannot stream.');
  options.signal?.throwIfAborted();
  // Getting the connection and each setting keep a deadline (guarded-pool.ts); the streaming query then has none as
  // a whole (the engine watches its silences, stream-watch.ts).
  const connection = await new Promise<GuardedConnection>((resolve, reject) =>
    pool.getConnection((error, got) => (error ? reject(error) : resolve(got))),
  );
  try {
    await run(connection, "SET time_zone = '+00:00'");
    // MariaDB spells the timeout max_statement_time, MySQL max_execution_time (connect.ts); 0 is no limit.
    if (!(await setIfKnown(connection, 'SET SESSION max_statement_time = 0')))
      await setIfKnown(connection, 'SET SESSION max_execution_time = 0');
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

/** Records per chunk of CSV. */
const CSV_CHUNK_ROWS = 2000;
const NEWLINE = Buffer.from('\n');

/** The server's CSV records: one binary column per row (see `record`), joined with line ends. */
export function mysqlCsvCopy(db: Kysely<DynamicSchema>): CsvCopy {
  return {
    expression: csvField,
    // Binary, so the driver hands over the bytes undecoded, and the fields' collations never need to agree.
    record: (fields) => sql`cast(concat_ws(',', ${sql.join(fields.map((f) => f.expression))}) as binary)`,
    copy: (query, options) =>
      csvChunks(streamed<[Buffer]>(db, query, { ...options, chunkSize: CSV_CHUNK_ROWS }, true)),
  };
}

async function* csvChunks(source: AsyncIterable<[Buffer][]>): AsyncGenerator<CsvChunk> {
  for await (const rows of source) {
    const parts: Buffer[] = [];
    for (const [record] of rows) parts.push(record, NEWLINE);
    yield { bytes: Buffer.concat(parts), rows: rows.length };
  }
}

/** Text that RFC 4180 must quote (besides the empty string, told by its length: null is the empty field). A
 * character class alone: an alternation such as ^$|… makes the server try the pattern at every position (twice
 * the time of the whole export, measured). */
const NEEDS_QUOTES = '[",\\r\\n]';
/** In a one-column file a lone \. is quoted too, as COPY and csv-stringify (export-formats.ts) do. */
const NEEDS_QUOTES_ALONE = `${NEEDS_QUOTES}|^\\\\\\.$`;

/**
 * A column's CSV field as the select writes it: the text csv-stringify makes of its wire value (types.ts
 * decodeValue), or null for the columns whose server text differs from it (floats, which JavaScript writes
 * differently; geometry and other types the driver turns into objects). Text is converted to utf8mb4 (the file's
 * encoding) and matched against a bound pattern; values are never written into the SQL.
 */
export function csvField(column: Column, ref: SqlFragment, onlyColumn: boolean): SqlFragment | null {
  const orEmpty = (expression: SqlFragment) => sql`ifnull(${expression}, '')`;
  switch (column.typeGroup) {
    case 'Text':
      return quotedText(ref, onlyColumn, true);
    case 'guid':
      return quotedText(ref, onlyColumn, false);
    case 'bit':
      // tinyint(1) and bit(1): any value but 0 is true, as decodeValue reads it.
      return sql`case when ${ref} is null then '' when ${ref} <> 0 then 'true' else 'false' end`;
    case 'Number':
      if (/float|double|real/.test(column.type)) return null;
      // BIT(n) and YEAR go on the wire as numbers; + 0 gives their number.
      return orEmpty(column.type === 'bit' || column.type === 'year' ? sql`${ref} + 0` : ref);
    case 'Date':
      if (column.type === 'date') return orEmpty(ref);
      // decodeValue's isoDateTime: 'YYYY-MM-DD hh:mm:ss[.f]' → 'YYYY-MM-DDThh:mm:ss[.f]' (+ Z for TIMESTAMP);
      // zero dates stay as they are.
      return sql`case when ${ref} is null then '' when left(${ref}, 10) = '0000-00-00' then ${ref} else concat(replace(${ref}, ' ', 'T'), ${column.type === 'timestamp' ? sql`'Z'` : sql`''`}) end`;
    case 'Time':
      return orEmpty(ref);
    case 'Binary':
    case 'image':
      // Base64 without the line breaks TO_BASE64 puts every 76 characters; empty binary is the empty string.
      return sql`case when ${ref} is null then '' when length(${ref}) = 0 then '""' else replace(to_base64(${ref}), char(10), '') end`;
    case 'Other':
      // JSON arrives as its text (connect.ts jsonStrings); the rest (geometry…) the driver decodes.
      return column.type === 'json' ? quotedText(ref, onlyColumn, true) : null;
  }
}

const FORMULA_STARTS = sql.raw(FORMULA_START_CODES.join(', '));

/** Text quoted where it must be, and (`formulaSafe`) with a leading single quote when it starts like a formula.
 * The pattern is matched on the utf8mb4 text too: MySQL 8's REGEXP refuses a column and a pattern of different
 * character sets. ascii() reads the first byte, a number to compare, so no collation is involved. */
function quotedText(ref: SqlFragment, onlyColumn: boolean, formulaSafe: boolean): SqlFragment {
  const text = sql`convert(${ref} using utf8mb4)`;
  const pattern = onlyColumn ? NEEDS_QUOTES_ALONE : NEEDS_QUOTES;
  if (!formulaSafe)
    return sql`case when ${ref} is null then '' when length(${ref}) = 0 or ${text} regexp ${pattern} then concat('"', replace(${text}, '"', '""'), '"') else ${text} end`;
  const formula = sql`ascii(${text}) in (${FORMULA_STARTS})`;
  return sql`case when ${ref} is null then '' when length(${ref}) = 0 or ${text} regexp ${pattern} then concat('"', if(${formula}, '''', ''), replace(${text}, '"', '""'), '"') when ${formula} then concat('''', ${text}) else ${text} end`;
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
