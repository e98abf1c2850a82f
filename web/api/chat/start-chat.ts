import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { chatSession, type ChatSession, type ChatStartInput } from '#common/contract/chat.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** POST /api/chat/start {messages}: opens a conversation with Titan bound to this browser (an HttpOnly cookie). No
 * messages asks for Titan's introduction (the widget's first open); with messages, the last one is answered. */
export function postStartChat(input: ChatStartInput): Promise<ApiResult<ChatSession>> {
  return apiPost('/api/chat/start', input, { schema: chatSession });
}

export const startChatMutationOptions = () =>
  mutationOptions({
    mutationKey: [...queryKeys.chat.all, 'start'],
    mutationFn: async (input: ChatStartInput) => unwrap(await postStartChat(input)),
  });

/** Starts a conversation; the session's query holds it at once, so a later read needs no call. */
export function useStartChat() {
  const queryClient = useQueryClient();
  return useMutation({
    ...startChatMutationOptions(),
    onSuccess: (answer) =>
      queryClient.setQueryData(queryKeys.chat.session(answer.data.sessionId), answer.data),
  });
}
