import {
  ROW_HISTORY_LIMIT,
  row as rowSchema,
  type Row,
  type RowHistoryEntry,
  type UndoResult,
} from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { NO_RIGHTS, tablePermissions, type TableRef } from '#server/access/policy.ts';
import type { AuditContext } from './audit-intents.ts';
import { parsedDetail } from './audit-service.ts';
import { canUndo, changeOf, undoChangeOfTable, type BulkUndoStarter } from './undo-service.ts';
import { auditOfKey, undosOf, type StoredAuditEntry } from '#server/store/audit.ts';
import { z } from 'zod';
import { auditedRow, keyOf, type DataChange } from './row-audit.ts';
import { openTable, type Caller } from '#server/access/table-access.ts';

/*
 * A row's history for anyone who may read its table (docs/decisions/0026-row-history-and-last-page.md): the audit
 * trail's data changes of that table and that key, and the undo of one of them, which the admin undo's logic does
 * (undo-service.ts) once the data API's access order has let the caller in.
 */

/** Entries read from the store at a time while looking for the row's (the store narrows by the key's text). */
const BATCH = 100;

const recorded = z.object({
  key: rowSchema.nullish(),
  change: z.enum(['insert', 'update', 'delete']).optional(),
  before: rowSchema.nullable().optional(),
  after: rowSchema.nullable().optional(),
});

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The columns whose values differ between before and after; every column of the row for an insert or delete. */
function changedColumnsOf(before: Row | null, after: Row | null): string[] {
  if (!before) return Object.keys(after ?? {});
  if (!after) return Object.keys(before);
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.filter((name) => !sameValue(before[name], after[name]));
}

/** The entries of a table's target whose recorded key is exactly `keyJson`, newest first, at most `limit`. */
async function entriesOfKey(
  context: AuditContext,
  target: string,
  keyJson: string,
  limit: number,
): Promise<{ entry: StoredAuditEntry; change: DataChange; before: Row | null; after: Row | null }[]> {
  const found: { entry: StoredAuditEntry; change: DataChange; before: Row | null; after: Row | null }[] = [];
  for (let offset = 0; found.length < limit; offset += BATCH) {
    const batch = await auditOfKey(context.store.db, target, keyJson, { offset, limit: BATCH });
    for (const entry of batch) {
      const parsed = recorded.safeParse(parsedDetail(entry.detail));
      if (!parsed.success || JSON.stringify(parsed.data.key) !== keyJson) continue;
      const change = entry.action === 'data.undo' ? parsed.data.change : changeOf(entry.action);
      if (!change) continue;
      found.push({ entry, change, before: parsed.data.before ?? null, after: parsed.data.after ?? null });
      if (found.length === limit) break;
    }
    if (batch.length < BATCH) break;
  }
  return found;
}

/** POST …/history: the audit entries of the row with the given row's key, newest first (ROW_HISTORY_LIMIT). */
export async function rowHistory(
  context: AuditContext,
  caller: Caller,
  ref: TableRef,
  given: Row,
): Promise<RowHistoryEntry[]> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  // The row as it is now: its key in the database's own form (the audit recorded that form), and what an undo
  // would find.
  const current = await engine.readRow(table, keyOf(table, given));
  const keyJson = JSON.stringify(auditedRow(table, keyOf(table, current ?? given)));
  const found = await entriesOfKey(
    context,
    tablePath(ref.database, ref.schema, ref.table),
    keyJson,
    ROW_HISTORY_LIMIT,
  );
  const rights = table.isView ? NO_RIGHTS : await tablePermissions(context.store, caller.account, ref);
  const undos = await undosOf(
    context.store.db,
    found.map(({ entry }) => entry.id),
  );
  return found.map(({ entry, change, before, after }) => {
    const undoneBy = undos.get(entry.id) ?? null;
    return {
      id: entry.id,
      at: entry.at,
      username: entry.username,
      action: entry.action,
      change,
      before,
      after,
      changedColumns: changedColumnsOf(before, after),
      undoneBy,
      state: entry.state,
      canUndo: canUndo(entry, { table, rights, undoneBy, current }),
    };
  });
}

/** POST …/history/{id}/undo: undoes one change of this table, for a caller who may read the table and holds the
 * right the undo needs (undo-service.ts decides the rest, as for the audit trail's undo). */
export async function undoRowChange(
  context: AuditContext & { bulkUndo?: BulkUndoStarter | undefined },
  caller: Caller,
  ref: TableRef,
  id: number,
): Promise<{ result: UndoResult; message: string }> {
  // The data API's order: the links first (403 whether or not the table exists), then the catalog (404).
  await openTable(context, caller, ref, 'read');
  return undoChangeOfTable(context, caller, ref, id);
}
