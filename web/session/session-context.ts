import { createContext, useContext } from 'react';
import type { Verification } from '#common/contract/account.ts';

export type SessionStatus = 'starting' | 'signedOut' | 'signedIn';

export interface Session {
  status: SessionStatus;
  /** The stored verification (token, user, links, expiration), null when signed out. */
  verification: Verification | null;
  /** Keeps a verification that login/verify answered: stored, sent as the bearer token from now on. */
  signIn(verification: Verification): void;
  /** Ends the session in this browser: storage, cached server data and every popup. The server's session is ended
   * by the /account/logout page (GET /api/account/logout). */
  signOut(): void;
  /** Verifies again (refresh, 'Yes!'); a failure signs out and goes to /account/logout. True when still signed in. */
  reverify(): Promise<boolean>;
}

export const SessionContext = createContext<Session | null>(null);

/** The session of the app; only inside SessionProvider. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is used outside SessionProvider.');
  return session;
}
