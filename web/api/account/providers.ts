import { queryOptions, useQuery } from '@tanstack/react-query';
import { socialProviders, type SocialProviders } from '#common/contract/social.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/account/providers: the social sign-in providers set up on this server, and the ones the signed-in
 * account has linked. */
export function fetchProviders(signal?: AbortSignal): Promise<ApiResult<SocialProviders>> {
  return apiGet('/api/account/providers', { schema: socialProviders, signal });
}

export const providersQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account.providers(),
    queryFn: async ({ signal }) => unwrapData(await fetchProviders(signal)),
  });

export function useProviders() {
  return useQuery(providersQueryOptions());
}
