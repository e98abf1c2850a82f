import { queryOptions, useQuery } from '@tanstack/react-query';
import { EXPORT_POLL_DELAY_MS } from '#common/limits.ts';
import { exportStatus, type ExportStatus } from '#common/contract/exports.ts';
import { encodeSegment } from '#common/links.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

export interface ExportJobRef extends TableRef {
  id: string;
}

/** GET /api/sql/{db}/{schema}/{table}/export/{id}: the job's progress; when done, url is a single-use download
 * link (5 minutes, new on each read). */
export function fetchExportStatus(job: ExportJobRef, signal?: AbortSignal): Promise<ApiResult<ExportStatus>> {
  return apiGet(`${tableApiPath(job)}/export/${encodeSegment(job.id)}`, { schema: exportStatus, signal });
}

export const exportStatusQueryOptions = (job: ExportJobRef) =>
  queryOptions({
    queryKey: queryKeys.sql.export(job.id),
    queryFn: async ({ signal }) => unwrapData(await fetchExportStatus(job, signal)),
    // Spec 000 §4/§9: the first read 2 s after the start, then again every 2 s while in progress. A failed read
    // (a failed or cancelled export answers isSuccess false) ends the polling as well.
    refetchInterval: (query) =>
      query.state.status === 'error' || query.state.data?.inProgress === false ? false : EXPORT_POLL_DELAY_MS,
    refetchIntervalInBackground: true,
    gcTime: 0,
    retry: false,
  });

/** Polls a started export (null: nothing running); the first read waits EXPORT_POLL_DELAY_MS. */
export function useExportStatus(job: ExportJobRef | null, firstReadAfterStart: boolean) {
  return useQuery({
    ...exportStatusQueryOptions(job ?? { db: '', schema: '', table: '', id: '' }),
    enabled: job !== null && firstReadAfterStart,
  });
}
