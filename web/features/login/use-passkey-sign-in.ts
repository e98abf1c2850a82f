import { useCallback } from 'react';
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { passkeyAuthenticationResponse } from '#common/contract/passkeys.ts';
import { loginMessages as lm, passkeyMessages as pm } from '#common/messages.ts';
import type { VerifyAnswer } from '#web/api/account/login-verify.ts';
import { usePasskeyLoginOptions } from '#web/api/account/passkey-login-options.ts';
import { usePasskeyLoginVerify } from '#web/api/account/passkey-login-verify.ts';
import { ApiFailure } from '#web/api/query.ts';

/**
 * The passkey ceremony of the login page (docs/decisions/0009-passkeys.md): options from the server, the browser's
 * authenticator (startAuthentication), then the server's check. Without a key it is a sign-in with the passkey
 * alone; with the pre-sign-in key it is the second step after the password. Answers the verification; a failure is
 * an ApiFailure whose message is the sentence to show.
 */
export function usePasskeySignIn() {
  const options = usePasskeyLoginOptions();
  const verify = usePasskeyLoginVerify();
  const { mutateAsync: askOptions } = options;
  const { mutateAsync: check } = verify;
  const run = useCallback(
    async (key?: string): Promise<VerifyAnswer> => {
      if (!browserSupportsWebAuthn()) throw new ApiFailure(lm.passkeyUnsupported);
      const { data } = await askOptions(key ? { key } : {});
      let answer: unknown;
      try {
        // The server's options are WebAuthn's JSON form, checked loosely by the contract; the library reads them.
        answer = await startAuthentication({
          optionsJSON: data.options as unknown as PublicKeyCredentialRequestOptionsJSON,
        });
      } catch {
        // Cancelled, timed out, or no passkey for this site on the device: the browser does not say which.
        throw new ApiFailure(lm.passkeyCancelled);
      }
      const response = passkeyAuthenticationResponse.safeParse(answer);
      if (!response.success) throw new ApiFailure(pm.responseUnreadable);
      const request = key
        ? { key, response: response.data }
        : { ceremonyId: data.ceremonyId ?? '', response: response.data };
      return (await check(request)).data;
    },
    [askOptions, check],
  );
  return { signInWithPasskey: run, pending: options.isPending || verify.isPending };
}
