import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminTables } from '#common/contract/admin.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

export type AdminTable = (typeof adminTables._output)[number];

/** GET /api/admin/tables: every table of every registered database with its TableId ({db}/{schema}/{table}). */
export function fetchAdminTables(signal?: AbortSignal): Promise<ApiResult<AdminTable[]>> {
  return apiGet('/api/admin/tables', { schema: adminTables, signal });
}

export const adminTablesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.admin.tables(),
    queryFn: async ({ signal }) => unwrapData(await fetchAdminTables(signal)),
    staleTime: 60_000,
  });

/** Every table (the link preview, the permission modal's choices and the audit filter). */
export function useAdminTables() {
  return useQuery(adminTablesQueryOptions());
}
