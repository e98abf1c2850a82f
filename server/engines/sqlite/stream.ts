import SQLite from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { RowStreamOptions } from '#server/engines/engine.ts';

/*
 * Streaming from SQLite (exports): a read-only connection of its own to the same file, stepping the statement
 * with `iterate()` a chunk at a time, so the pooled connection stays free for pages and edits meanwhile. The rows
 * come as the main connection gives them (64-bit integers exact). A reader holds a shared lock while it reads: in
 * rollback-journal mode a writer waits for it (busy_timeout) and may time out on a long export; WAL mode lets
 * writers go on.
 */

/** Rows of the select, `chunkSize` at a time; the connection closes when the iteration ends or stops. */
export async function* sqliteStreamQuery(
  file: string,
  query: CompiledQuery,
  options: RowStreamOptions & { chunkSize: number },
): AsyncGenerator<Record<string, unknown>[]> {
  options.signal?.throwIfAborted();
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    database.defaultSafeIntegers(true);
    const rows = database.prepare(query.sql).iterate(...query.parameters) as IterableIterator<
      Record<string, unknown>
    >;
    try {
      while (true) {
        const chunk: Record<string, unknown>[] = [];
        for (let next = rows.next(); !next.done; next = rows.next()) {
          chunk.push(next.value);
          if (chunk.length >= options.chunkSize) break;
        }
        if (chunk.length === 0) break;
        // The consumer writes the chunk before the next is read: SQLite steps only as fast as the file is written.
        yield chunk;
        if (chunk.length < options.chunkSize) break;
        options.signal?.throwIfAborted();
      }
    } finally {
      rows.return?.();
    }
  } finally {
    database.close();
  }
}
