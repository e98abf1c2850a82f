import { mutationOptions, useMutation } from '@tanstack/react-query';
import { recoveryCodes, type RecoveryCodes } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** POST /api/account/recovery-codes: replaces the recovery codes with ten new ones, answered this once (needs a
 * recent sign-in; other sessions end). */
export function postRecoveryCodes(): Promise<ApiResult<RecoveryCodes>> {
  return apiPost('/api/account/recovery-codes', {}, { schema: recoveryCodes });
}

export const recoveryCodesMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'recovery-codes'],
    mutationFn: async () => unwrap(await run(() => postRecoveryCodes())),
  });

export function useRegenerateRecoveryCodes(run?: RecentAuthRunner) {
  return useMutation(recoveryCodesMutationOptions(run));
}
