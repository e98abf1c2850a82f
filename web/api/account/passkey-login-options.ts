import { mutationOptions, useMutation } from '@tanstack/react-query';
import {
  passkeyLoginOptions,
  type PasskeyLoginOptions,
  type PasskeyLoginOptionsRequest,
} from '#common/contract/passkeys.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/login/passkey/options: options for startAuthentication. Without a key, a sign-in with the
 * passkey alone (answers a ceremonyId); with the pre-sign-in key, the passkey as the second step. A mutation, not a
 * query: every call is a new single-use challenge. */
export function postPasskeyLoginOptions(
  request: PasskeyLoginOptionsRequest,
): Promise<ApiResult<PasskeyLoginOptions>> {
  return apiPost('/api/account/login/passkey/options', request, {
    schema: passkeyLoginOptions,
    signInStep: true,
  });
}

export const passkeyLoginOptionsMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'login', 'passkey', 'options'],
    mutationFn: async (request: PasskeyLoginOptionsRequest) => unwrap(await postPasskeyLoginOptions(request)),
  });

export function usePasskeyLoginOptions() {
  return useMutation(passkeyLoginOptionsMutationOptions());
}
