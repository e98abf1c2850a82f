import { mutationOptions, useMutation } from '@tanstack/react-query';
import { methodVerified, type MethodVerified } from '#common/contract/account.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** GET /api/account/totp/verify/{code}: confirms a code of the authenticator app, so Totp becomes a verified method (needs a recent
 * sign-in). Other sessions end; the first verified method also answers the recovery codes. */
export function verifyTotpCode(code: string): Promise<ApiResult<MethodVerified>> {
  return apiGet(`/api/account/totp/verify/${encodeURIComponent(code)}`, { schema: methodVerified });
}

export const verifyTotpCodeMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'totp', 'verify'],
    mutationFn: async (code: string) => unwrap(await run(() => verifyTotpCode(code))),
  });

export function useVerifyTotpCode(run?: RecentAuthRunner) {
  return useMutation(verifyTotpCodeMutationOptions(run));
}
