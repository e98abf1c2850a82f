import { queryOptions, useQuery } from '@tanstack/react-query';
import { chatTranscript, type ChatTranscript } from '#common/contract/chat.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/admin/chats/{sessionId}: one conversation of Titan with every message. */
export function fetchChatTranscript(
  sessionId: string,
  signal?: AbortSignal,
): Promise<ApiResult<ChatTranscript>> {
  return apiGet(`/api/admin/chats/${encodeURIComponent(sessionId)}`, { schema: chatTranscript, signal });
}

export const chatTranscriptQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: queryKeys.admin.chatTranscript(sessionId),
    queryFn: async ({ signal }) => unwrapData(await fetchChatTranscript(sessionId, signal)),
  });

/** A conversation's transcript; nothing is asked while no conversation is open (sessionId null). */
export function useChatTranscript(sessionId: string | null) {
  return useQuery({ ...chatTranscriptQueryOptions(sessionId ?? ''), enabled: sessionId !== null });
}
