import type { AuditEntryView, AuditQuery } from '#common/contract/admin.ts';
import { canonicalTableId } from '#common/links.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { listAudit, undosOf, type StoredAuditEntry } from '#server/store/audit.ts';

/** A stored detail as JSON; text that is not JSON (none is written so) is answered as it is. */
export function parsedDetail(detail: string | null): unknown {
  if (detail === null) return null;
  try {
    return JSON.parse(detail) as unknown;
  } catch {
    return detail;
  }
}

/** An entry as the API answers it. */
export function auditEntryView(entry: StoredAuditEntry, undoneBy: number | null): AuditEntryView {
  return {
    id: entry.id,
    at: entry.at,
    userId: entry.user_id,
    username: entry.username,
    action: entry.action,
    target: entry.target,
    detail: parsedDetail(entry.detail),
    address: entry.address,
    undoneBy,
    state: entry.state,
  };
}

/** The TableId as targets store it (`pub%2fx` finds `pub%2Fx`); one that cannot be canonical is looked for as
 * given and finds nothing. */
function auditedTableId(tableId: string): string {
  const checked = canonicalTableId(tableId);
  return 'tableId' in checked ? checked.tableId : tableId;
}

/** A page of the audit trail, newest first, narrowed by author, table (TableId), actions and time. */
export async function pageOfAudit(
  store: AppStore,
  query: AuditQuery,
): Promise<{ results: AuditEntryView[]; count: number }> {
  const actions = (query.action ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const { rows, count } = await listAudit(
    store.db,
    {
      userId: query.userId,
      target: query.table ? `/db/${auditedTableId(query.table)}` : undefined,
      actions: actions.length ? actions : undefined,
      // Stored instants are UTC text: an offset given in the query is turned into the same form to compare.
      from: query.from ? new Date(query.from).toISOString() : undefined,
      to: query.to ? new Date(query.to).toISOString() : undefined,
    },
    { offset: (query.page - 1) * query.pageSize, limit: query.pageSize },
  );
  const undoneBy = await undosOf(
    store.db,
    rows.map((r) => r.id),
  );
  return { count, results: rows.map((r) => auditEntryView(r, undoneBy.get(r.id) ?? null)) };
}
