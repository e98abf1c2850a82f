import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { accountRole, type AccountRole } from '#common/contract/account.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/account/roles: the signed-in person's own roles with their links. */
export function fetchRoles(signal?: AbortSignal): Promise<ApiResult<AccountRole[]>> {
  return apiGet('/api/account/roles', { schema: z.array(accountRole), signal });
}

export const rolesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account.roles(),
    queryFn: async ({ signal }) => unwrapData(await fetchRoles(signal)),
  });

export function useRoles() {
  return useQuery(rolesQueryOptions());
}
