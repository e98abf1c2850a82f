import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminOverview, type AdminOverview } from '#common/contract/admin.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/admin/overview: counts of users, roles and sessions, the databases' health, the last day's failed
 * sign-ins, lockouts and data changes, with the newest of each. */
export function fetchOverview(signal?: AbortSignal): Promise<ApiResult<AdminOverview>> {
  return apiGet('/api/admin/overview', { schema: adminOverview, signal });
}

export const overviewQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.admin.overview(),
    queryFn: async ({ signal }) => unwrapData(await fetchOverview(signal)),
    staleTime: 10_000,
  });

export function useAdminOverview() {
  return useQuery(overviewQueryOptions());
}
