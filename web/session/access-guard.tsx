import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { decideAccess, type AccessGroup } from '#web/session/access.ts';
import { useSession } from '#web/session/session-context.ts';
import { closeAllPopups } from '#web/ui/popups.ts';

export const UNAUTHORIZED_PATH = '/error/unauthorized';

/** Pages that send a visitor who is not signed in to the login page, returning afterwards, instead of the 401 page
 * (spec 001 §2: /contact-us redirects to /account/login?r=/contact-us). */
const LOGIN_FIRST: ReadonlySet<string> = new Set(['/contact-us']);

/** The decision for the current address in a group, and its consequence (spec 000 §4): nobody signed in → the
 * session is cleared, every popup closed, and the 401 page shown; signed in without the link → popups closed, 401. */
export function useAccessGuard(group: AccessGroup): boolean {
  const { pathname, search } = useLocation();
  const { verification, signOut } = useSession();
  const navigate = useNavigate();
  const decision = decideAccess(group, pathname, verification);

  useEffect(() => {
    if (decision === 'allow') return;
    if (decision === 'signedOut') signOut();
    else closeAllPopups();
    if (decision === 'signedOut' && LOGIN_FIRST.has(pathname)) {
      void navigate(`/account/login?${new URLSearchParams({ r: `${pathname}${search}` }).toString()}`, {
        replace: true,
      });
      return;
    }
    // The 401 page's Login returns here once signed in.
    void navigate(UNAUTHORIZED_PATH, { replace: true, state: { from: `${pathname}${search}` } });
  }, [decision, signOut, navigate, pathname, search]);

  return decision === 'allow';
}

/** A layout route guarding the pages of its group: they render only when allowed. */
export function AccessGuard({ group }: { group: AccessGroup }) {
  return useAccessGuard(group) ? <Outlet /> : null;
}
