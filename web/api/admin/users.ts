import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { pagedUsers } from '#common/contract/admin.ts';
import { LAZY_LOAD_SIZE } from '#common/limits.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

type PagedUsers = typeof pagedUsers._output;

export interface UsersRequest {
  page: number;
  pageSize: number;
  /** A username prefix, any case ('' for all). */
  username: string;
}

/** GET /api/admin/users?page=&pageSize=&username=: users sorted by id, each with roles, lock state, last sign-in and
 * second factors; `count` is the number of matching users. */
export function fetchUsers(request: UsersRequest, signal?: AbortSignal): Promise<ApiResult<PagedUsers>> {
  const query = queryString({
    page: request.page,
    pageSize: request.pageSize,
    username: request.username.trim(),
  });
  return apiGet(`/api/admin/users${query}`, { schema: pagedUsers, signal });
}

export const usersQueryOptions = (request: UsersRequest) =>
  queryOptions({
    queryKey: queryKeys.admin.userPage({ ...request, username: request.username.trim() }),
    queryFn: async ({ signal }) => unwrapData(await fetchUsers(request, signal)),
    placeholderData: keepPreviousData,
  });

/** One page of the user list (/admin/users); the page shown stays while the next loads. */
export function useAdminUsers(request: UsersRequest) {
  return useQuery(usersQueryOptions(request));
}

/** The role page's user picker: users whose name starts with `term`, 25 per load, 25 more with fetchNextPage. */
export function useUserChoices(term: string, enabled = true) {
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: [...queryKeys.admin.users(), 'choices', term.trim()] as const,
      queryFn: async ({ pageParam, signal }) =>
        unwrapData(await fetchUsers({ page: pageParam, pageSize: LAZY_LOAD_SIZE, username: term }, signal)),
      initialPageParam: 1,
      getNextPageParam: (last: PagedUsers, all: PagedUsers[]) =>
        all.length * LAZY_LOAD_SIZE < last.count ? all.length + 1 : undefined,
    }),
    enabled,
  });
}
