import { mutationOptions, useMutation } from '@tanstack/react-query';
import {
  passkeySummary,
  type PasskeyRegisterRequest,
  type PasskeySummary,
} from '#common/contract/passkeys.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** POST /api/account/passkeys/register/verify: checks and stores the new passkey {response, name} (needs a recent
 * sign-in; other sessions end). */
export function postPasskeyRegisterVerify(
  request: PasskeyRegisterRequest,
): Promise<ApiResult<PasskeySummary>> {
  return apiPost('/api/account/passkeys/register/verify', request, { schema: passkeySummary });
}

export const passkeyRegisterVerifyMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'passkeys', 'register', 'verify'],
    mutationFn: async (request: PasskeyRegisterRequest) =>
      unwrap(await run(() => postPasskeyRegisterVerify(request))),
  });

export function usePasskeyRegisterVerify(run?: RecentAuthRunner) {
  return useMutation(passkeyRegisterVerifyMutationOptions(run));
}
