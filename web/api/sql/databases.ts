import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { databaseSummary, type DatabaseSummary } from '#common/contract/sql.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/sql: the databases the signed-in person's links show. */
export function fetchDatabases(signal?: AbortSignal): Promise<ApiResult<DatabaseSummary[]>> {
  return apiGet('/api/sql', { schema: z.array(databaseSummary), signal });
}

export const databasesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.sql.databases(),
    queryFn: async ({ signal }) => unwrapData(await fetchDatabases(signal)),
    staleTime: 60_000,
  });

/** The databases for the header's Database dropdown and the browser's redirect. */
export function useDatabases(enabled = true) {
  return useQuery({ ...databasesQueryOptions(), enabled });
}
