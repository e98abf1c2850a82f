import { mutationOptions, useMutation } from '@tanstack/react-query';
import { verifyAnswer } from '#common/contract/account.ts';
import type { PasskeyLoginVerifyRequest } from '#common/contract/passkeys.ts';
import type { VerifyAnswer } from '#web/api/account/login-verify.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/login/passkey/verify: the authenticator's answer, with the ceremonyId (a passkey sign-in on its
 * own) or the pre-sign-in key (the passkey as the second step); answers the session's verification. */
export function postPasskeyLoginVerify(request: PasskeyLoginVerifyRequest): Promise<ApiResult<VerifyAnswer>> {
  return apiPost('/api/account/login/passkey/verify', request, { schema: verifyAnswer, signInStep: true });
}

export const passkeyLoginVerifyMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'login', 'passkey', 'verify'],
    mutationFn: async (request: PasskeyLoginVerifyRequest) => unwrap(await postPasskeyLoginVerify(request)),
  });

export function usePasskeyLoginVerify() {
  return useMutation(passkeyLoginVerifyMutationOptions());
}
