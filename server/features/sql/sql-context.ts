import type { FastifyBaseLogger } from 'fastify';
import type { TableAccessContext } from '#server/access/table-access.ts';
import type { BulkUndoStarter } from '#server/features/audit/undo-service.ts';
import type { CatalogRefresh } from './catalog-refresh.ts';

/** What a data call needs: the app store for rights and audit, the registered databases (server/access's
 * TableAccessContext), and where to log what the caller is not told (an audit intent left for later). */
export interface SqlContext extends TableAccessContext {
  log?: FastifyBaseLogger;
  /** Tells the other instances when an administrator refreshes a catalog (catalog-refresh.ts). */
  catalogRefresh?: CatalogRefresh;
  /** Starts the undo job of a bulk change's entry from a row's history (the bulk feature's, handed in by the app). */
  bulkUndo?: BulkUndoStarter;
}
