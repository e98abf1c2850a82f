import { mutationOptions, useMutation } from '@tanstack/react-query';
import { methodVerified, type MethodVerified } from '#common/contract/account.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** GET /api/account/eotp/verify/{code}: confirms the emailed code, so Email becomes a verified method (needs a recent
 * sign-in). Other sessions end; the first verified method also answers the recovery codes. */
export function verifyEmailCode(code: string): Promise<ApiResult<MethodVerified>> {
  return apiGet(`/api/account/eotp/verify/${encodeURIComponent(code)}`, { schema: methodVerified });
}

export const verifyEmailCodeMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'eotp', 'verify'],
    mutationFn: async (code: string) => unwrap(await run(() => verifyEmailCode(code))),
  });

export function useVerifyEmailCode(run?: RecentAuthRunner) {
  return useMutation(verifyEmailCodeMutationOptions(run));
}
