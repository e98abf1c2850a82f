import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pagedAudit } from '#common/contract/admin.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

type PagedAudit = typeof pagedAudit._output;

/** The audit trail's filters (common/contract/admin.ts auditQuery); absent means any. */
export interface AuditRequest {
  page: number;
  pageSize: number;
  userId?: number;
  /** A TableId {db}/{schema}/{table}. */
  table?: string;
  /** One action or several comma-separated (data.update,data.delete). */
  action?: string;
  /** ISO instants: at or after `from`, before `to`. */
  from?: string;
  to?: string;
}

/** GET /api/admin/audit?…: entries newest first with the count matching. */
export function fetchAudit(request: AuditRequest, signal?: AbortSignal): Promise<ApiResult<PagedAudit>> {
  return apiGet(`/api/admin/audit${queryString({ ...request })}`, { schema: pagedAudit, signal });
}

export const auditQueryOptions = (request: AuditRequest) =>
  queryOptions({
    queryKey: queryKeys.admin.auditPage({ ...request }),
    queryFn: async ({ signal }) => unwrapData(await fetchAudit(request, signal)),
    placeholderData: keepPreviousData,
  });

/** One page of the audit trail; the page shown stays while the next loads. */
export function useAudit(request: AuditRequest) {
  return useQuery(auditQueryOptions(request));
}
