import { filterDocument, keepsEveryRow, type Filter } from '#common/contract/filter.ts';
import { WHERE_BROKEN } from './where-param.ts';

/** What the address's filter turned out to be: a filter (null: none, or one that keeps every row), or why not. */
export type WhereCheck = { where: Filter | null; problem: null } | { where: null; problem: string };

/**
 * The address's filter JSON checked against the filter document's schema (the same words the server would answer a
 * 400 with). Loaded on demand, when an address carries a filter (browser-page.tsx, browser-prefetch.ts).
 */
export function checkWhere(json: unknown): WhereCheck {
  const parsed = filterDocument.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue && issue.path.length > 0 ? `where.${issue.path.map(String).join('.')}: ` : '';
    return {
      where: null,
      problem: `${WHERE_BROKEN}: ${at}${issue?.message ?? 'it is no filter document.'} Every row is shown.`,
    };
  }
  return { where: keepsEveryRow(parsed.data) ? null : parsed.data, problem: null };
}
