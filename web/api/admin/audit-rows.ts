import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { auditRows, type AuditRows } from '#common/contract/admin.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

/** Rows the audit page loads at a time. */
export const AUDIT_ROWS_PAGE = 50;

/** GET /api/admin/audit/{id}/rows?offset=&limit=: a page of the rows of a bulk change (or of its undo), in key order,
 * each before and after as the audit stored them. */
export function fetchAuditRows(
  id: number,
  offset: number,
  signal?: AbortSignal,
): Promise<ApiResult<AuditRows>> {
  return apiGet(`/api/admin/audit/${id}/rows${queryString({ offset, limit: AUDIT_ROWS_PAGE })}`, {
    schema: auditRows,
    signal,
  });
}

export const auditRowsQueryOptions = (id: number) =>
  infiniteQueryOptions({
    queryKey: queryKeys.admin.auditRows(id),
    queryFn: async ({ pageParam, signal }) => unwrapData(await fetchAuditRows(id, pageParam, signal)),
    initialPageParam: 0,
    getNextPageParam: (last: AuditRows) => last.nextOffset ?? undefined,
  });

/** The rows of a bulk entry, AUDIT_ROWS_PAGE at a time; fetchNextPage loads the next page ("Show more"). */
export function useAuditRows(id: number) {
  return useInfiniteQuery(auditRowsQueryOptions(id));
}
