import type { Table } from '#common/contract/sql.ts';
import type { EngineAdapter } from './adapter.ts';
import { withTimeout, type DatabaseEngine } from './engine.ts';
import { EngineError, notFound } from './engine-error.ts';
import { foreignKeyOptions } from './foreign-key-options.ts';
import { RowPages } from './row-pages.ts';
import { deleteRow, restoreRow, upsertRow } from './row-writes.ts';
import { countStreamRows, streamTableCsv, streamTableRows } from './row-stream.ts';
import { buildCatalog } from './table-catalog.ts';
import { sql } from 'kysely';

/** How long a read catalog is trusted before it is read again (it is also refreshed on demand). */
const CATALOG_TTL_MS = 5 * 60 * 1000;

/** The generic engine: everything that works the same on every database, around one adapter. */
export function createTableEngine(name: string, adapter: EngineAdapter): DatabaseEngine {
  let cached: { at: number; tables: Promise<Table[]> } | null = null;
  const pages = new RowPages(adapter);

  /** Runs a database call; a driver error becomes a message a person can act on. */
  async function explained<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof EngineError) throw error;
      const explanation = adapter.explainError(error);
      if (explanation) throw explanation;
      throw error;
    }
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
      await withTimeout(
        sql`select 1 as one`.execute(adapter.db),
        timeoutMs,
        `${name} did not answer within ${timeoutMs} ms`,
      );
    },
    close: () => adapter.db.destroy(),
    catalog(options = {}) {
      if (!cached || options.refresh || Date.now() - cached.at > CATALOG_TTL_MS) {
        const tables = explained(async () => buildCatalog(name, adapter, await adapter.readCatalog()));
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
    async upsert(table, row, options) {
      const saved = await explained(() => upsertRow(adapter, table, row, options));
      pages.forget(table);
      return saved;
    },
    async deleteRow(table, row, options) {
      const deleted = await explained(() => deleteRow(adapter, table, row, options));
      pages.forget(table);
      return deleted;
    },
    async restoreRow(table, row) {
      const restored = await explained(() => restoreRow(adapter, table, row));
      pages.forget(table);
      return restored;
    },
    foreignKeyOptions: async (table, column, query) =>
      explained(async () => foreignKeyOptions(adapter, await engine.catalog(), table, column, query)),
    countRows: (table, query) => explained(() => countStreamRows(adapter, table, query)),
    streamRows: (table, query, options) => explainedStream(streamTableRows(adapter, table, query, options)),
    streamCsv(table, query, options) {
      const csv = streamTableCsv(adapter, table, query, options);
      return csv && explainedStream(csv);
    },
  };
  return engine;
}
