import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contactMessage, type AnswerInput, type ContactMessage } from '#common/contract/contact.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** The message as changed, when the server sends it back (null otherwise: the list reads again either way). */
const changedMessage = contactMessage.nullable();

/** POST /api/admin/messages/{id}/answer {answer}: mails the answer to the sender and stores it with the message
 * (stored even when the mail fails; refused with a clear message when no mail server is configured). */
export function postAnswerMessage(id: number, input: AnswerInput): Promise<ApiResult<ContactMessage | null>> {
  return apiPost(`/api/admin/messages/${id}/answer`, input, { schema: changedMessage });
}

/** Answers a message; the inbox and the archive read again. */
export function useAnswerMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...queryKeys.contact.all, 'answer'],
    mutationFn: async ({ id, answer }: { id: number } & AnswerInput) =>
      unwrap(await postAnswerMessage(id, { answer })),
    // Also after a refusal: a failed mail may still have stored the answer.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.contact.messages() }),
  });
}
