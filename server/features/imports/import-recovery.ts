import { importMessages } from '#common/contract/imports.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { failInterruptedEntry, settlePendingBatches } from '#server/features/bulk/bulk-job.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { unfinishedImportAudits } from '#server/store/import-jobs.ts';

/*
 * After a restart, before the runs it interrupted are failed (decision 0070): each run that writes has batches whose
 * rows were recorded before a commit the killed process never saw answered ('pending'). Each is settled by its first
 * row, as bulk changes' are (batchHappened: the row as the batch left it means it committed; a batch commits whole or
 * not at all), and the import's entry says how many rows were written. An all-or-nothing run's transaction died with
 * its connection, so its batches are found not to have happened. A batch whose database cannot be read now stays
 * pending (its rows stay in the trail).
 */
export async function recoverImportAudits(store: AppStore, databases: DatabaseRegistry): Promise<void> {
  for (const job of await unfinishedImportAudits(store.db)) {
    const auditId = job.audit_id;
    if (auditId === null) continue;
    const engine = databases.get(job.database_name);
    const table = await engine?.table(job.schema_name, job.table_name).catch(() => null);
    const rows = await settlePendingBatches(store, engine, table, auditId);
    await failInterruptedEntry(store, auditId, rows, importMessages.restarted);
  }
}
