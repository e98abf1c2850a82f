import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Center, Loader, Stack, Text } from '@mantine/core';
import type { Verification } from '#common/contract/account.ts';
import { shellMessages } from '#common/shell-messages.ts';
import type { ApiResult } from '#web/api/client.ts';
import { setSessionEndedHandler, setTokenSource } from '#web/api/client.ts';
import { useQueryClientHolder } from '#web/api/queries.tsx';
import {
  browserClock,
  specIdleTiming,
  startIdleWatch,
  type Clock,
  type IdleTiming,
  type IdleWatch,
} from '#web/session/idle-watch.ts';
import { refreshDelay } from '#web/session/refresh.ts';
import { SessionContext, type Session, type SessionStatus } from '#web/session/session-context.ts';
import {
  clearStoredVerification,
  hasStoredSession,
  storeVerification,
} from '#web/session/session-storage.ts';
import { closeAllPopups } from '#web/ui/popups.ts';

export const LOGOUT_PATH = '/account/logout';

// Loaded when it opens: a first-time visitor's shell carries neither Zod (the verification's schema) nor Mantine's
// Modal (decision 0033), and a signed-in first visit does not carry the Modal either (decision 0056).
const IdleAlert = lazy(() => import('#web/session/idle-alert.tsx').then((m) => ({ default: m.IdleAlert })));

/** GET /api/account/verify (web/api/account/verify.ts, loaded on first use). */
async function fetchVerification(signal?: AbortSignal): Promise<ApiResult<Verification>> {
  const { fetchVerification: fetchIt } = await import('#web/api/account/verify.ts');
  return fetchIt(signal);
}

interface SessionState {
  status: SessionStatus;
  verification: Verification | null;
}

/** 'starting' while a stored session waits to be read and verified (its verification comes with the check). */
function initialState(): SessionState {
  return hasStoredSession()
    ? { status: 'starting', verification: null }
    : { status: 'signedOut', verification: null };
}

/**
 * The session (spec 000 §4, 001 §4): read from storage at start and verified before the app shows; verified again
 * within 5 minutes of its expiry; watched for idleness while signed in; any failed verification signs out. Mounted
 * inside the router (it navigates to /account/logout). `timing`, `clock` and `now` are for tests and end-to-end runs.
 */
export function SessionProvider({
  children,
  timing = specIdleTiming,
  clock = browserClock,
  now = Date.now,
}: {
  children: ReactNode;
  timing?: IdleTiming;
  clock?: Clock;
  now?: () => number;
}) {
  const navigate = useNavigate();
  // The query cache, if anything used it yet (TanStack Query's client loads with the first page that asks the API).
  const queries = useQueryClientHolder();
  const [state, setState] = useState(initialState);
  const [idleAlert, setIdleAlert] = useState(false);
  // The client reads the token at each call; a ref, so a call made right after signIn already carries it.
  const token = useRef<string | null>(state.verification?.token ?? null);
  const watch = useRef<IdleWatch | null>(null);

  useEffect(() => {
    setTokenSource(() => token.current);
    return () => setTokenSource(() => null);
  }, []);

  const accept = useCallback((verification: Verification) => {
    storeVerification(verification);
    token.current = verification.token;
    setState({ status: 'signedIn', verification });
  }, []);

  const signOut = useCallback(() => {
    clearStoredVerification();
    token.current = null;
    setIdleAlert(false);
    setState({ status: 'signedOut', verification: null });
    queries?.peek()?.clear();
    closeAllPopups();
  }, [queries]);

  // A call refused with 401 under this session: it has ended on the server (locked, ended by an administrator,
  // expired), so sign out here too; the access guard then sends a guarded page to the 401 page.
  useEffect(() => {
    setSessionEndedHandler(signOut);
    return () => setSessionEndedHandler(() => undefined);
  }, [signOut]);

  const reverify = useCallback(async () => {
    const answer = await fetchVerification();
    if (answer.isSuccess) {
      accept(answer.data);
      return true;
    }
    signOut();
    void navigate(LOGOUT_PATH);
    return false;
  }, [accept, signOut, navigate]);

  // Start-up: a stored session is read (checked against the contract: a value that is not a verification is dropped)
  // and verified before anything shows; a failure signs out (spec 001 §4).
  const starting = state.status === 'starting';
  useEffect(() => {
    if (!starting) return;
    const controller = new AbortController();
    const start = async () => {
      const { readStoredVerification } = await import('#web/session/storage.ts');
      if (controller.signal.aborted) return;
      const stored = readStoredVerification();
      if (!stored) return signOut();
      token.current = stored.token;
      const answer = await fetchVerification(controller.signal);
      if (answer.isSuccess) return accept(answer.data);
      // Spec 001 §4: a start-up failure goes to the console; the person simply starts signed out.
      console.warn(`The stored session could not be verified: ${answer.message}`);
      signOut();
    };
    start().catch((error: unknown) => {
      // Aborted: the effect ran again (StrictMode) and that run decides. Otherwise the code could not be loaded.
      if (controller.signal.aborted) return;
      console.warn('The stored session could not be verified:', error);
      signOut();
    });
    return () => controller.abort();
  }, [starting, accept, signOut]);

  // Refresh: verify again once the expiration is within 5 minutes.
  // The refresh timer and the idle watch are planned once per expiration and per sign-in: they read the latest
  // callbacks when they fire, so a new callback (the query cache loading with a page, a navigation) does not plan
  // them again from a later moment.
  const latest = useRef({ reverify, navigate });
  useEffect(() => {
    latest.current = { reverify, navigate };
  }, [reverify, navigate]);
  const expiration = state.status === 'signedIn' ? (state.verification?.expiration ?? null) : null;
  useEffect(() => {
    if (expiration === null) return;
    const handle = clock.setTimeout(() => void latest.current.reverify(), refreshDelay(expiration, now()));
    return () => clock.clearTimeout(handle);
  }, [expiration, clock, now]);

  // Idle: ticks while signed in; a mouse move or key press resets; the alert, then logout without an answer.
  const signedIn = state.status === 'signedIn';
  useEffect(() => {
    if (!signedIn) return;
    const current = startIdleWatch({
      timing,
      clock,
      onAlert: () => setIdleAlert(true),
      // The logout page ends the server's session with the token still in hand, then signs out here.
      onTimeout: () => {
        setIdleAlert(false);
        closeAllPopups();
        void latest.current.navigate(LOGOUT_PATH);
      },
    });
    watch.current = current;
    const activity = () => current.activity();
    window.addEventListener('mousemove', activity, { passive: true });
    window.addEventListener('keydown', activity);
    return () => {
      window.removeEventListener('mousemove', activity);
      window.removeEventListener('keydown', activity);
      current.stop();
      watch.current = null;
    };
  }, [signedIn, timing, clock]);

  const answerIdleAlert = useCallback(() => {
    watch.current?.answered();
    setIdleAlert(false);
    void reverify();
  }, [reverify]);

  const session = useMemo<Session>(
    () => ({ ...state, signIn: accept, signOut, reverify }),
    [state, accept, signOut, reverify],
  );

  return (
    <SessionContext.Provider value={session}>
      {starting ? <StartingApplication /> : children}
      {idleAlert && (
        <Suspense fallback={null}>
          <IdleAlert opened onYes={answerIdleAlert} />
        </Suspense>
      )}
    </SessionContext.Provider>
  );
}

/** The start-up screen while a stored session is verified (the same words as index.html's loader). */
function StartingApplication() {
  return (
    <Center mih="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="md">
        <Loader />
        <Text>{shellMessages.starting}</Text>
      </Stack>
    </Center>
  );
}
