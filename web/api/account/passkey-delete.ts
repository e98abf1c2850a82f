import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiDelete, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** DELETE /api/account/passkeys/{id}: removes one of the person's passkeys (needs a recent sign-in; other sessions
 * end). */
export function deletePasskey(id: number): Promise<ApiResult<null>> {
  return apiDelete(`/api/account/passkeys/${id}`, undefined, { schema: z.null() });
}

export const passkeyDeleteMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'passkeys', 'delete'],
    mutationFn: async (id: number) => unwrap(await run(() => deletePasskey(id))),
  });

export function usePasskeyDelete(run?: RecentAuthRunner) {
  return useMutation(passkeyDeleteMutationOptions(run));
}
