import { queryOptions, useQuery } from '@tanstack/react-query';
import { socialProviders, type SocialProviderName, type SocialProviders } from '#common/contract/social.ts';
import { loginMessages as lm } from '#common/messages.ts';
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

/** How a provider is named on screen: the server's name for it (the generic provider's OIDC_LABEL), else the known
 * one ('google' → 'Google'). */
export function providerName(provider: SocialProviderName, answer: SocialProviders | undefined): string {
  return answer?.labels?.[provider] ?? lm.socialNames[provider];
}
