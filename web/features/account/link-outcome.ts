import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { notifications } from '@mantine/notifications';
import { socialProviderName } from '#common/contract/social.ts';
import { socialMessages as sm } from '#common/messages.ts';
import { providerName, useProviders } from '#web/api/account/providers.ts';

/** The outcome of linking a provider, which its callback brings back in the address (/account?linked=google or
 * /account?error=…): shown once as a toast, then removed from the address so a reload does not repeat it. The
 * provider is named as the server names it (the generic provider's OIDC_LABEL), so the toast waits for that list
 * (the linked accounts card asks for it anyway); if the list cannot be read, the known name stands in. */
export function useLinkOutcome(): void {
  const [params, setParams] = useSearchParams();
  const providers = useProviders();
  const linked = params.get('linked');
  const error = params.get('error');
  const answer = providers.data;
  const waiting = providers.isPending;
  useEffect(() => {
    if (linked === null && error === null) return;
    const provider = socialProviderName.safeParse(linked);
    if (provider.success && waiting) return;
    if (provider.success)
      notifications.show({ color: 'green', message: sm.linked(providerName(provider.data, answer)) });
    if (error) notifications.show({ color: 'red', message: error });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('linked');
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [linked, error, setParams, waiting, answer]);
}
