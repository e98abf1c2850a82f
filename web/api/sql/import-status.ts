import { queryOptions, useQuery } from '@tanstack/react-query';
import { importStatus, type ImportStatus } from '#common/contract/imports.ts';
import { encodeSegment } from '#common/links.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath } from './paths.ts';
import type { ImportRef } from './import-preview.ts';

/** How often a running import is read. */
export const IMPORT_POLL_MS = 1000;

/** GET /api/sql/{db}/{schema}/{table}/import/{id}: the state, the last run's counts, its first 1,000 failures, its
 * audit entry, and why it stopped. */
export function fetchImportStatus(ref: ImportRef, signal?: AbortSignal): Promise<ApiResult<ImportStatus>> {
  return apiGet(`${tableApiPath(ref)}/import/${encodeSegment(ref.id)}`, { schema: importStatus, signal });
}

/** `run` counts the runs asked in this page: each run is polled afresh from its start. */
export const importStatusQueryOptions = (ref: ImportRef, run = 0) =>
  queryOptions({
    queryKey: [...queryKeys.sql.table(ref), 'import', ref.id, 'status', run] as const,
    queryFn: async ({ signal }) => unwrapData(await fetchImportStatus(ref, signal)),
    // Read every second while a run is under way; an ended run or a failed read ends the polling.
    refetchInterval: (query) =>
      query.state.status === 'error' || query.state.data?.inProgress === false ? false : IMPORT_POLL_MS,
    refetchIntervalInBackground: true,
    gcTime: 0,
    retry: false,
  });

/** Polls a run of an import (null: no run asked); `run` is the run's number in this page. */
export function useImportStatus(ref: ImportRef | null, run = 0) {
  return useQuery({
    ...importStatusQueryOptions(ref ?? { db: '', schema: '', table: '', id: '' }, run),
    enabled: ref !== null,
  });
}
