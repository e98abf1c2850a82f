import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pagedChats, type PagedChats } from '#common/contract/chat.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

export interface AdminChatsRequest {
  page: number;
  pageSize: number;
}

/** GET /api/admin/chats?page=&pageSize=: Titan's conversations, newest first, and how many there are. */
export function fetchAdminChats(
  request: AdminChatsRequest,
  signal?: AbortSignal,
): Promise<ApiResult<PagedChats>> {
  const query = queryString({ page: request.page, pageSize: request.pageSize });
  return apiGet(`/api/admin/chats${query}`, { schema: pagedChats, signal });
}

export const adminChatsQueryOptions = (request: AdminChatsRequest) =>
  queryOptions({
    queryKey: queryKeys.admin.chatPage(request),
    queryFn: async ({ signal }) => unwrapData(await fetchAdminChats(request, signal)),
    placeholderData: keepPreviousData,
  });

/** One page of the conversations (/admin/chats); the page shown stays while the next loads. */
export function useAdminChats(request: AdminChatsRequest) {
  return useQuery(adminChatsQueryOptions(request));
}
