import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { useConsent, useConsentStore } from '#web/features/consent/consent-store.ts';

/** How long a page must stay for its view to count: a page that sends the visitor straight on (the empty path to
 * /home, /redirect?r=, a guard's replacement) is no view of its own. */
export const PAGE_VIEW_SETTLE_MS = 100;

/**
 * Spec 001 §2: each navigation reports a 'PageView' (the first page included), here only while the visitor has
 * accepted; accepting reports the page they are on. The path only: a query can carry tokens (login's pu). A page
 * rewriting its own query in place (a REPLACE to the same path) is no new view.
 */
export function usePageViews(): void {
  const store = useConsentStore();
  const { choice } = useConsent();
  const { key, pathname } = useLocation();
  const navigationType = useNavigationType();
  const reported = useRef<{ key: string; pathname: string } | null>(null);

  useEffect(() => {
    const last = reported.current;
    if (choice !== 'accepted' || last?.key === key) return;
    if (last?.pathname === pathname && navigationType === 'REPLACE') {
      reported.current = { key, pathname };
      return;
    }
    const timer = setTimeout(() => {
      reported.current = { key, pathname };
      store.pageView(pathname);
    }, PAGE_VIEW_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [choice, key, pathname, navigationType, store]);
}
