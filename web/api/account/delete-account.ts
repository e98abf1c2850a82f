import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiDelete, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** DELETE /api/account/delete: deletes the signed-in account and everything that belongs to it. Needs a recent
 * sign-in (403 'Confirm your password to continue.' otherwise); the only administrator is refused (409). */
export function deleteAccount(): Promise<ApiResult<null>> {
  return apiDelete('/api/account/delete', undefined, { schema: z.null() });
}

/** Runs a call that may need a recent sign-in; the account page passes useReauth()'s run. */
type Runner = <T>(call: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>;
const direct: Runner = (call) => call();

export const deleteAccountMutationOptions = (run: Runner = direct) =>
  mutationOptions({
    mutationKey: ['account', 'delete'],
    mutationFn: async () => unwrap(await run(deleteAccount)),
  });

export function useDeleteAccount(run?: Runner) {
  return useMutation(deleteAccountMutationOptions(run));
}
