import { mutationOptions, useMutation } from '@tanstack/react-query';
import { totpSetup, type TotpSetup } from '#common/contract/account.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** GET /api/account/totp: a new authenticator secret {key, qr (data URL of a PNG), uri}, pending until
 * totp/verify (needs a recent sign-in). Every call makes a new secret, so it is a mutation, never cached. */
export function fetchTotpSetup(): Promise<ApiResult<TotpSetup>> {
  return apiGet('/api/account/totp', { schema: totpSetup });
}

export const totpSetupMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'totp'],
    mutationFn: async () => unwrap(await run(() => fetchTotpSetup())),
  });

export function useTotpSetup(run?: RecentAuthRunner) {
  return useMutation(totpSetupMutationOptions(run));
}
