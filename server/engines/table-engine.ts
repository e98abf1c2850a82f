import type { Table } from '#common/contract/sql.ts';
import type { EngineAdapter } from './adapter.ts';
import { withTimeout, type DatabaseEngine } from './engine.ts';
import { EngineError, notFound } from './engine-error.ts';
import { foreignKeyOptions } from './foreign-key-options.ts';
import { RowPages } from './row-pages.ts';
import { deleteRow, upsertRow } from './row-writes.ts';
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
    async upsert(table, row) {
      const saved = await explained(() => upsertRow(adapter, table, row));
      pages.forget(table);
      return saved;
    },
    async deleteRow(table, row) {
      const deleted = await explained(() => deleteRow(adapter, table, row));
      pages.forget(table);
      return deleted;
    },
    foreignKeyOptions: async (table, column, query) =>
      explained(async () => foreignKeyOptions(adapter, await engine.catalog(), table, column, query)),
  };
  return engine;
}
