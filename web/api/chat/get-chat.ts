import { queryOptions, useQuery } from '@tanstack/react-query';
import { chatSession, type ChatSession } from '#common/contract/chat.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/chat/{sessionId}: the conversation as stored, for the widget after a reload. Only the browser that
 * started it may read it; any other answers 404 (the chat was not found). */
export function fetchChat(sessionId: string, signal?: AbortSignal): Promise<ApiResult<ChatSession>> {
  return apiGet(`/api/chat/${encodeURIComponent(sessionId)}`, { schema: chatSession, signal });
}

export const chatQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: queryKeys.chat.session(sessionId),
    queryFn: async ({ signal }) => unwrapData(await fetchChat(sessionId, signal)),
    // The widget keeps the conversation itself once read; reading it again would only repeat what it shows.
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** The stored conversation of a session id (nothing is asked while the id is null). */
export function useChat(sessionId: string | null) {
  return useQuery({ ...chatQueryOptions(sessionId ?? ''), enabled: sessionId !== null });
}
