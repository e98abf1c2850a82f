import type { Table } from '#common/contract/sql.ts';
import type { EngineAdapter } from './adapter.ts';
import { withTimeout, type DatabaseEngine, type RowStreamOptions } from './engine.ts';
import { databaseBusy, EngineError, notFound } from './engine-error.ts';
import { planFilter } from './filter-scan.ts';
import { foreignKeyLabels } from './foreign-key-labels.ts';
import { foreignKeyOptions } from './foreign-key-options.ts';
import { RowPages } from './row-pages.ts';
import { deleteRow, readRow, restoreRow, upsertRow } from './row-writes.ts';
import { countStreamRows, streamTableCsv, streamTableJsonLines, streamTableRows } from './row-stream.ts';
import { streamWatch } from './stream-watch.ts';
import { buildCatalog } from './table-catalog.ts';
import { countReferencingRows } from './referencing-rows.ts';
import {
  bulkBatch,
  countBulkReferencingRows,
  countBulkRows,
  readBulkRows,
  revertBatch,
} from './bulk-writes.ts';
import { existingKeys } from './existing-keys.ts';
import { openImportWriter, revertImportBatch } from './import-writes.ts';
import { sql } from 'kysely';

/** How long a read catalog is trusted before it is read again (it is also refreshed on demand). */
const CATALOG_TTL_MS = 5 * 60 * 1000;

/** The generic engine: everything that works the same on every database, around one adapter. */
export function createTableEngine(name: string, adapter: EngineAdapter): DatabaseEngine {
  let cached: { at: number; tables: Promise<Table[]> } | null = null;
  const pages = new RowPages(adapter);

  /** A driver error as a message a person can act on (unknown errors as they are). */
  const explain = (error: unknown): unknown =>
    error instanceof EngineError ? error : (adapter.explainError(error) ?? error);

  /**
   * Runs a database call (each connection it takes keeps a deadline, its pool wait and statements together:
   * call-deadline.ts); a driver error becomes a message a person can act on. A write is one row found by its key:
   * when it runs out of time, it was waiting for other sessions (a row lock), not working, so it says the database
   * is busy.
   */
  async function explained<T>(work: () => Promise<T>, kind: 'read' | 'write' = 'read'): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const explanation = explain(error);
      if (kind === 'write' && explanation instanceof EngineError && explanation.statusCode === 504)
        throw databaseBusy(name, { cause: error });
      throw explanation;
    }
  }

  /** A stream's options with the watch on its inactivity (stream-watch.ts), when the adapter keeps deadlines. */
  function watched(options: RowStreamOptions = {}) {
    const quietMs = adapter.callDeadlineMs;
    if (!quietMs) return { options, watch: <T>(source: AsyncIterable<T>) => source };
    const watch = streamWatch({ quietMs, alive: () => engine.ping(quietMs), signal: options.signal });
    return { options: { ...options, signal: watch.signal }, watch: watch.watch };
  }

  /** The same for a stream: an error while reading becomes a message a person can act on. */
  async function* explainedStream<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
    try {
      yield* source;
    } catch (error) {
      if (error instanceof EngineError) throw error;
      throw adapter.explainError(error) ?? error;
    }
  }

  const engine: DatabaseEngine = {
    name,
    kind: adapter.kind,
    db: adapter.db,
    async ping(timeoutMs = 3000) {
      // The probe's own deadline ends it and discards its connection, so a frozen server cannot keep pooled
      // connections waiting; the timer is for engines without one (and a little later, so the deadline's 503
      // reports first where there is one).
      await withTimeout(
        adapter.probe
          ? adapter.probe(timeoutMs)
          : sql`select 1 as one`.execute(adapter.db).then(() => undefined),
        timeoutMs + (adapter.probe ? 250 : 0),
        `${name} did not answer within ${timeoutMs} ms`,
      );
    },
    close: async () => {
      await Promise.all([adapter.db.destroy(), adapter.close?.()]);
    },
    catalog(options = {}) {
      if (!cached || options.refresh || Date.now() - cached.at > CATALOG_TTL_MS) {
        // Shared by every caller, and one statement per small table: each connection it takes keeps a deadline of
        // its own.
        const tables = adapter
          .readCatalog()
          .then((read) => buildCatalog(name, adapter, read))
          .catch((error: unknown) => {
            throw explain(error);
          });
        cached = { at: Date.now(), tables };
        // A failed read is not cached: the next call tries again.
        tables.catch(() => {
          if (cached?.tables === tables) cached = null;
        });
      }
      return cached.tables;
    },
    async table(schema, tableName) {
      const found = (await engine.catalog()).find((t) => t.schema === schema && t.name === tableName);
      if (!found) throw notFound(`The table ${schema}.${tableName}`);
      return found;
    },
    page: (table, query) => explained(() => pages.page(table, query)),
    upsert: (table, row, options) => explained(() => upsertRow(adapter, table, row, options), 'write'),
    deleteRow: (table, row, options) => explained(() => deleteRow(adapter, table, row, options), 'write'),
    restoreRow: (table, row, options) => explained(() => restoreRow(adapter, table, row, options), 'write'),
    readRow: (table, key) => explained(() => readRow(adapter, table, key)),
    foreignKeyOptions: async (table, column, query) =>
      explained(async () => foreignKeyOptions(adapter, await engine.catalog(), table, column, query)),
    plan: (table, query) => explained(() => planFilter(adapter, table, query)),
    countRows: (table, query) => explained(() => countStreamRows(adapter, table, query)),
    countReferencing: (referencing, columns, values, cap) =>
      explained(() => countReferencingRows(adapter, referencing, columns, values, cap)),
    foreignKeyLabels: (table, readable, rows) =>
      explained(() => foreignKeyLabels(adapter, table, readable, rows)),
    countBulk: (table, selection, cap) => explained(() => countBulkRows(adapter, table, selection, cap)),
    countBulkReferencing: (table, selection, referencing, foreignKey, cap) =>
      explained(() => countBulkReferencingRows(adapter, table, selection, referencing, foreignKey, cap)),
    readBulk: (table, query) => explained(() => readBulkRows(adapter, table, query)),
    bulkBatch: (table, query, options) => explained(() => bulkBatch(adapter, table, query, options), 'write'),
    revertBatch: (table, query, options) =>
      explained(() => revertBatch(adapter, table, query, options), 'write'),
    existingKeys: (table, columns, keys) => explained(() => existingKeys(adapter, table, columns, keys)),
    revertImportBatch: (table, rows, options) =>
      explained(() => revertImportBatch(adapter, table, rows, options), 'write'),
    async openImportWriter(table, options) {
      const writer = await explained(() => openImportWriter(adapter, table, options), 'write');
      return {
        existingKeys: (of, columns, keys) => explained(() => writer.existingKeys(of, columns, keys)),
        writeBatch: (rows, batchOptions) => explained(() => writer.writeBatch(rows, batchOptions), 'write'),
        finish: (commit) => explained(() => writer.finish(commit), 'write'),
      };
    },
    streamRows(table, query, options) {
      const stream = watched(options);
      return explainedStream(stream.watch(streamTableRows(adapter, table, query, stream.options)));
    },
    streamCsv(table, query, options) {
      const stream = watched(options);
      const csv = streamTableCsv(adapter, table, query, stream.options);
      return csv && explainedStream(stream.watch(csv));
    },
    streamJsonLines(table, query, options) {
      const stream = watched(options);
      const lines = streamTableJsonLines(adapter, table, query, stream.options);
      return lines && explainedStream(stream.watch(lines));
    },
  };
  return engine;
}
