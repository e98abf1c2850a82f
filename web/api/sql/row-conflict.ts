import { rowConflict, type Row } from '#common/contract/sql.ts';
import { ApiFailure } from '#web/api/query.ts';

/** The row as it is now, when a save or delete was refused because the row changed since it was read (409 with
 * the row in the answer: docs/decisions/0045-row-versions.md); null for any other failure. */
export function changedRowOf(error: unknown): Row | null {
  if (!(error instanceof ApiFailure) || error.status !== 409) return null;
  const parsed = rowConflict.safeParse(error.details);
  return parsed.success ? parsed.data.current : null;
}
