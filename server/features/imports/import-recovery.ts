import { importMessages } from '#common/contract/imports.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { batchHappened } from '#server/features/bulk/bulk-job.ts';
import { revertRows } from '#server/features/bulk/bulk-undo.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { findAudit, setAuditDetail } from '#server/store/audit.ts';
import { bulkBatchesOf, settleBulkBatch } from '#server/store/bulk-jobs.ts';
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
    let rows = 0;
    let afterBatch = -1;
    for (;;) {
      const batches = await bulkBatchesOf(store.db, auditId, afterBatch);
      if (batches.length === 0) break;
      for (const batch of batches) {
        afterBatch = batch.batch;
        let done = batch.state === 'done';
        const first = batch.state === 'pending' ? revertRows(batch.rows)[0] : undefined;
        if (first && engine && table) {
          const happened = await batchHappened(engine, table, first).catch(() => null);
          if (happened !== null) await settleBulkBatch(store.db, auditId, batch.batch, happened);
          done = happened === true;
        }
        if (done) rows += batch.row_count;
      }
    }
    const entry = await findAudit(store.db, auditId);
    const detail = entry?.detail ? (JSON.parse(entry.detail) as Record<string, unknown>) : {};
    await setAuditDetail(store.db, auditId, {
      ...detail,
      rows,
      status: 'failed',
      error: importMessages.restarted,
    });
  }
}
