import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contactMessage, type ArchiveInput, type ContactMessage } from '#common/contract/contact.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** The message as changed, when the server sends it back (null otherwise: the list reads again either way). */
const changedMessage = contactMessage.nullable();

/** POST /api/admin/messages/{id}/archive {archived}: moves a message to the archive (true) or back to the inbox. */
export function postArchiveMessage(
  id: number,
  input: ArchiveInput,
): Promise<ApiResult<ContactMessage | null>> {
  return apiPost(`/api/admin/messages/${id}/archive`, input, { schema: changedMessage });
}

/** Archives or unarchives a message; the inbox and the archive read again. */
export function useArchiveMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...queryKeys.contact.all, 'archive'],
    mutationFn: async ({ id, archived }: { id: number } & ArchiveInput) =>
      unwrap(await postArchiveMessage(id, { archived })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.contact.messages() }),
  });
}
