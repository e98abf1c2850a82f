import { queryOptions, useQuery } from '@tanstack/react-query';
import { role, type Role } from '#common/contract/admin.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/admin/roles/{id}: the whole role, its links, permissions and users (with their usernames). */
export function fetchRole(id: number, signal?: AbortSignal): Promise<ApiResult<Role>> {
  return apiGet(`/api/admin/roles/${id}`, { schema: role, signal });
}

export const roleQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.admin.role(id),
    queryFn: async ({ signal }) => unwrapData(await fetchRole(id, signal)),
  });

/** A saved role (null: none selected, or a new one not saved yet). */
export function useRole(id: number | null) {
  return useQuery({ ...roleQueryOptions(id ?? 0), enabled: id !== null && id > 0 });
}
