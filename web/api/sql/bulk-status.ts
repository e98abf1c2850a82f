import { queryOptions, useQuery } from '@tanstack/react-query';
import { bulkStatus, type BulkStatus } from '#common/contract/bulk.ts';
import { encodeSegment } from '#common/links.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** A started bulk change (or the undo of one: the same status call reads it). */
export interface BulkJobRef extends TableRef {
  id: string;
}

/** How often a running bulk change is read: its batches take about a second each. */
export const BULK_POLL_MS = 1000;

/** GET /api/sql/{db}/{schema}/{table}/bulk/{id}: the job's state, rows done of the total, its audit entry, and why
 * it stopped. */
export function fetchBulkStatus(job: BulkJobRef, signal?: AbortSignal): Promise<ApiResult<BulkStatus>> {
  return apiGet(`${tableApiPath(job)}/bulk/${encodeSegment(job.id)}`, { schema: bulkStatus, signal });
}

export const bulkStatusQueryOptions = (job: BulkJobRef) =>
  queryOptions({
    queryKey: [...queryKeys.sql.table(job), 'bulk', job.id] as const,
    queryFn: async ({ signal }) => unwrapData(await fetchBulkStatus(job, signal)),
    // Read every second while it runs; an ended job or a failed read ends the polling.
    refetchInterval: (query) =>
      query.state.status === 'error' || query.state.data?.inProgress === false ? false : BULK_POLL_MS,
    refetchIntervalInBackground: true,
    gcTime: 0,
    retry: false,
  });

/** Polls a started bulk change (null: none). */
export function useBulkStatus(job: BulkJobRef | null) {
  return useQuery({
    ...bulkStatusQueryOptions(job ?? { db: '', schema: '', table: '', id: '' }),
    enabled: job !== null,
  });
}
