import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pagedContactMessages, type PagedContactMessages } from '#common/contract/contact.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

export interface ContactMessagesRequest {
  page: number;
  pageSize: number;
  /** true: the archived messages; false: the inbox. */
  archived: boolean;
}

/** GET /api/admin/messages?page=&pageSize=&archived=: the contact messages, newest first, and how many there are. */
export function fetchContactMessages(
  request: ContactMessagesRequest,
  signal?: AbortSignal,
): Promise<ApiResult<PagedContactMessages>> {
  const query = queryString({ page: request.page, pageSize: request.pageSize, archived: request.archived });
  return apiGet(`/api/admin/messages${query}`, { schema: pagedContactMessages, signal });
}

export const contactMessagesQueryOptions = (request: ContactMessagesRequest) =>
  queryOptions({
    queryKey: queryKeys.contact.messagePage(request),
    queryFn: async ({ signal }) => unwrapData(await fetchContactMessages(request, signal)),
    placeholderData: keepPreviousData,
  });

/** One page of the inbox or of the archive (/admin/messages); the page shown stays while the next loads. */
export function useContactMessages(request: ContactMessagesRequest) {
  return useQuery(contactMessagesQueryOptions(request));
}
