import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { contactResult, type ContactInput, type ContactResult } from '#common/contract/contact.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** POST /api/contact {subject, message}: stores the message from the signed-in account (the server reads From) and
 * mails it to the team when it can; the answer's message says honestly which of the two happened. */
export function postContact(input: ContactInput): Promise<ApiResult<ContactResult>> {
  return apiPost('/api/contact', input, { schema: contactResult });
}

export const sendContactMutationOptions = () =>
  mutationOptions({
    mutationKey: [...queryKeys.contact.all, 'send'],
    mutationFn: async (input: ContactInput) => unwrap(await postContact(input)),
  });

/** Sends the contact form; an administrator's inbox in the same app reads again afterwards. */
export function useSendContact() {
  const queryClient = useQueryClient();
  return useMutation({
    ...sendContactMutationOptions(),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.contact.messages(), refetchType: 'none' }),
  });
}
