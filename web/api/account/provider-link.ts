import { mutationOptions, useMutation } from '@tanstack/react-query';
import { socialLinkStart, type SocialLinkStart, type SocialProviderName } from '#common/contract/social.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/providers/{provider}/link: the provider's authorization URL to send the browser to; its
 * callback links the identity and comes back to /account (with ?error=… when it failed). Needs a recent sign-in. */
export function postProviderLink(provider: SocialProviderName): Promise<ApiResult<SocialLinkStart>> {
  return apiPost(
    `/api/account/providers/${encodeURIComponent(provider)}/link`,
    {},
    { schema: socialLinkStart },
  );
}

/** Runs a call that may need a recent sign-in; the account page passes useReauth()'s run. */
type Runner = <T>(call: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>;
const direct: Runner = (call) => call();

export const providerLinkMutationOptions = (run: Runner = direct) =>
  mutationOptions({
    mutationKey: ['account', 'providers', 'link'],
    mutationFn: async (provider: SocialProviderName) => unwrap(await run(() => postProviderLink(provider))),
  });

export function useProviderLink(run?: Runner) {
  return useMutation(providerLinkMutationOptions(run));
}
