import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminUserDetail, type AdminUserDetail } from '#common/contract/admin.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/admin/users/{id}: one user with roles, lock state, second factors, sessions and failed checks. */
export function fetchAdminUser(id: number, signal?: AbortSignal): Promise<ApiResult<AdminUserDetail>> {
  return apiGet(`/api/admin/users/${id}`, { schema: adminUserDetail, signal });
}

export const adminUserQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.admin.user(id),
    queryFn: async ({ signal }) => unwrapData(await fetchAdminUser(id, signal)),
  });

export function useAdminUser(id: number) {
  return useQuery(adminUserQueryOptions(id));
}
