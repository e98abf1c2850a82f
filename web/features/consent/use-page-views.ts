import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { useConsent, useConsentStore } from '#web/features/consent/consent-store.ts';

/**
 * Spec 001 §2: each navigation reports a 'PageView' (the first page included), here only while the visitor has
 * accepted; accepting reports the page they are on. The path only: a query can carry tokens (login's pu). A page
 * rewriting its own address in place (a REPLACE to the same path) is no new view.
 */
export function usePageViews(): void {
  const store = useConsentStore();
  const { choice } = useConsent();
  const location = useLocation();
  const navigationType = useNavigationType();
  const reported = useRef<{ key: string; pathname: string } | null>(null);

  useEffect(() => {
    if (choice !== 'accepted') return;
    const last = reported.current;
    if (last?.key === location.key) return;
    const sameView = last !== null && navigationType === 'REPLACE' && last.pathname === location.pathname;
    reported.current = { key: location.key, pathname: location.pathname };
    if (!sameView) store.pageView(location.pathname);
  }, [choice, location.key, location.pathname, navigationType, store]);
}
