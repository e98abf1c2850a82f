import { queryOptions, useQuery } from '@tanstack/react-query';
import { viewList, type SavedView } from '#common/contract/views.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from '#web/api/sql/paths.ts';

/** GET /api/sql/{db}/{schema}/{table}/views: the views of the table this person may open (their own, those shared
 * with everyone and with their roles), each as they may see it (decision 0062). */
export function fetchViews(ref: TableRef, signal?: AbortSignal): Promise<ApiResult<SavedView[]>> {
  return apiGet(`${tableApiPath(ref)}/views`, { schema: viewList, signal });
}

export const viewsQueryOptions = (ref: TableRef) =>
  queryOptions({
    queryKey: queryKeys.sql.views(ref),
    queryFn: async ({ signal }) => unwrapData(await fetchViews(ref, signal)),
    staleTime: 30_000,
  });

/** The saved views of a table; null asks for nothing. */
export function useViews(ref: TableRef | null) {
  return useQuery({
    ...viewsQueryOptions(ref ?? { db: '', schema: '', table: '' }),
    enabled: ref !== null,
  });
}
