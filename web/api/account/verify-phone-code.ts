import { mutationOptions, useMutation } from '@tanstack/react-query';
import { methodVerified, type MethodVerified } from '#common/contract/account.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** GET /api/account/potp/verify/{code}: confirms the texted code, so Phone becomes a verified method (needs a recent
 * sign-in). Other sessions end; the first verified method also answers the recovery codes. */
export function verifyPhoneCode(code: string): Promise<ApiResult<MethodVerified>> {
  return apiGet(`/api/account/potp/verify/${encodeURIComponent(code)}`, { schema: methodVerified });
}

export const verifyPhoneCodeMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'potp', 'verify'],
    mutationFn: async (code: string) => unwrap(await run(() => verifyPhoneCode(code))),
  });

export function useVerifyPhoneCode(run?: RecentAuthRunner) {
  return useMutation(verifyPhoneCodeMutationOptions(run));
}
