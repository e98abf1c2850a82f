import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { notifications } from '@mantine/notifications';
import { socialProviderName } from '#common/contract/social.ts';
import { socialMessages as sm } from '#common/messages.ts';
import { providerLabel } from './linked-accounts-card.tsx';

/** The outcome of linking a provider, which its callback brings back in the address (/account?linked=google or
 * /account?error=…): shown once as a toast, then removed from the address so a reload does not repeat it. */
export function useLinkOutcome(): void {
  const [params, setParams] = useSearchParams();
  const linked = params.get('linked');
  const error = params.get('error');
  useEffect(() => {
    if (linked === null && error === null) return;
    const provider = socialProviderName.safeParse(linked);
    if (provider.success)
      notifications.show({ color: 'green', message: sm.linked(providerLabel(provider.data)) });
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
  }, [linked, error, setParams]);
}
