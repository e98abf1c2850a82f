import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { pagedRoles } from '#common/contract/admin.ts';
import { LAZY_LOAD_SIZE } from '#common/limits.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

type PagedRoles = typeof pagedRoles._output;

/** GET /api/admin/roles?name=&page=&pageSize=: roles sorted by Id whose name starts with `name` (any case). */
export function fetchRoles(
  name: string,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<ApiResult<PagedRoles>> {
  return apiGet(`/api/admin/roles${queryString({ name: name.trim(), page, pageSize })}`, {
    schema: pagedRoles,
    signal,
  });
}

export const roleListQueryOptions = (name: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.admin.roleList(name),
    queryFn: async ({ pageParam, signal }) =>
      unwrapData(await fetchRoles(name, pageParam, LAZY_LOAD_SIZE, signal)),
    initialPageParam: 1,
    getNextPageParam: (last: PagedRoles, all: PagedRoles[]) =>
      all.length * LAZY_LOAD_SIZE < last.count ? all.length + 1 : undefined,
  });

/** The role list (spec 000 §9): 25 roles first, 25 more with fetchNextPage (on scroll to the end). */
export function useRoleList(name: string) {
  return useInfiniteQuery(roleListQueryOptions(name));
}
