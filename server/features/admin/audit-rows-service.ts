import { z } from 'zod';
import {
  auditRowsMessages,
  type AuditRowChange,
  type AuditRows,
  type AuditRowsQuery,
} from '#common/contract/admin.ts';
import { undoMessages } from '#server/features/audit/undo-service.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { findAudit, type StoredAuditEntry } from '#server/store/audit.ts';
import { bulkBatchRows, doneBulkBatchSizes, doneBulkRowCount } from '#server/store/bulk-jobs.ts';

/*
 * The row list of a bulk change (issue 38, docs/decisions/0068-bulk-changes.md "The audit page"): a data.bulk entry,
 * or the data.undo entry of one, keeps its rows out of its detail, in audit_bulk_batches, one record per batch of up
 * to 1,000 rows in key order. An entry can hold a million rows, so a page is found by the batches' row counts (read
 * without their rows) and only the batches the page takes are read, one at a time. Only done batches are listed: a
 * pending one is in flight and may still be rolled back, and the undo skips it too.
 */

const storedRows = z.array(
  z.object({
    key: z.record(z.string(), z.unknown()),
    before: z.record(z.string(), z.unknown()).nullish(),
    after: z.record(z.string(), z.unknown()).nullish(),
  }),
);

/** Batch sizes read at a time while skipping to the offset. */
const SIZES_AT_A_TIME = 1000;

/** Whether an entry keeps its rows in batches: a bulk change, or the undo of one (detail.change 'bulk'). */
function holdsRowList(entry: StoredAuditEntry): boolean {
  if (entry.action === 'data.bulk') return true;
  if (entry.action !== 'data.undo' || entry.detail === null) return false;
  try {
    const detail = JSON.parse(entry.detail) as unknown;
    return typeof detail === 'object' && detail !== null && 'change' in detail && detail.change === 'bulk';
  } catch {
    return false;
  }
}

/** GET /api/admin/audit/{id}/rows: a page of a bulk entry's rows in key order, each as the audit stored it. */
export async function pageOfAuditRows(
  store: AppStore,
  id: number,
  query: AuditRowsQuery,
): Promise<AuditRows> {
  const entry = await findAudit(store.db, id);
  if (!entry) throw new ApiError(404, undoMessages.notFound);
  if (!holdsRowList(entry)) throw new ApiError(409, auditRowsMessages.noRowList(id, entry.action));

  const total = await doneBulkRowCount(store.db, id);
  const rows: AuditRowChange[] = [];
  let skip = query.offset;
  let afterBatch = -1;
  walk: for (;;) {
    const sizes = await doneBulkBatchSizes(store.db, id, afterBatch, SIZES_AT_A_TIME);
    if (sizes.length === 0) break;
    for (const size of sizes) {
      afterBatch = size.batch;
      if (skip >= size.row_count) {
        skip -= size.row_count;
        continue;
      }
      const text = await bulkBatchRows(store.db, id, size.batch);
      const stored = text === undefined ? [] : storedRows.parse(JSON.parse(text));
      for (const row of stored.slice(skip, skip + query.limit - rows.length))
        // An update's after may hold only the columns it changed: answered whole, as the page shows it.
        rows.push({
          key: row.key,
          before: row.before ?? null,
          after: row.before && row.after ? { ...row.before, ...row.after } : (row.after ?? null),
        });
      skip = 0;
      if (rows.length >= query.limit) break walk;
    }
  }
  const next = query.offset + rows.length;
  return { rows, total, nextOffset: rows.length > 0 && next < total ? next : null };
}
