import { mutationOptions, useMutation } from '@tanstack/react-query';
import { passkeyRegistrationOptions, type PasskeyRegistrationOptions } from '#common/contract/passkeys.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** POST /api/account/passkeys/register/options: the options for navigator.credentials.create (needs a recent
 * sign-in; the challenge is good for 5 minutes, once). */
export function postPasskeyRegisterOptions(): Promise<ApiResult<PasskeyRegistrationOptions>> {
  return apiPost('/api/account/passkeys/register/options', {}, { schema: passkeyRegistrationOptions });
}

export const passkeyRegisterOptionsMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'passkeys', 'register', 'options'],
    mutationFn: async () => unwrap(await run(() => postPasskeyRegisterOptions())),
  });

export function usePasskeyRegisterOptions(run?: RecentAuthRunner) {
  return useMutation(passkeyRegisterOptionsMutationOptions(run));
}
