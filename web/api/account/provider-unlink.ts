import { mutationOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { SocialProviderName } from '#common/contract/social.ts';
import { apiDelete, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** DELETE /api/account/providers/{provider}: unlinks it (needs a recent sign-in; the last way in is refused, 409). */
export function deleteProviderLink(provider: SocialProviderName): Promise<ApiResult<null>> {
  return apiDelete(`/api/account/providers/${encodeURIComponent(provider)}`, undefined, { schema: z.null() });
}

/** Runs a call that may need a recent sign-in; the account page passes useReauth()'s run. */
type Runner = <T>(call: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>;
const direct: Runner = (call) => call();

export const providerUnlinkMutationOptions = (run: Runner = direct) =>
  mutationOptions({
    mutationKey: ['account', 'providers', 'unlink'],
    mutationFn: async (provider: SocialProviderName) => unwrap(await run(() => deleteProviderLink(provider))),
  });

/** Unlinks a provider and reloads the list, so the card shows what the server kept. */
export function useProviderUnlink(run?: Runner) {
  const queryClient = useQueryClient();
  return useMutation({
    ...providerUnlinkMutationOptions(run),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.providers() }),
  });
}
