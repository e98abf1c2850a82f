import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  type ReactNode,
} from 'react';
import { useBlocker } from 'react-router';
import { notifications } from '@mantine/notifications';
import { adminMessages } from '#common/shell-messages.ts';

/** What a page with pending changes tells the guard: whether it has some now (by its own key). */
interface NavigationGuard {
  setPending(key: symbol, pending: boolean): void;
}

const NavigationGuardContext = createContext<NavigationGuard | null>(null);

/**
 * The one in-app navigation guard (spec 000 §4: 'Cannot switch pages with pending changes.'): while any page has
 * pending changes, a link, a menu entry or the browser's Back stays on the page and the warning toast says why.
 * It needs a data router (useBlocker), so the app renders it inside createBrowserRouter; outside it (tests with
 * a MemoryRouter), pages still guard their own actions and the browser's unload question still asks.
 */
export function NavigationGuardProvider({ children }: { children: ReactNode }) {
  const pendingKeys = useRef(new Set<symbol>());
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      pendingKeys.current.size > 0 && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    notifications.show({ color: 'yellow', message: adminMessages.cannotSwitchPages });
    blocker.reset();
  }, [blocker]);

  const guard = useMemo<NavigationGuard>(
    () => ({
      setPending(key, pending) {
        if (pending) pendingKeys.current.add(key);
        else pendingKeys.current.delete(key);
      },
    }),
    [],
  );
  return <NavigationGuardContext value={guard}>{children}</NavigationGuardContext>;
}

/**
 * Registers this page's pending state with the navigation guard, if the app has one; cleared on unmount. A layout
 * effect, so the guard knows in the same commit that shows the change: a passive effect runs later, and a click on a
 * link in between (a fast hand, or a test that found the change on screen) would leave the page unguarded.
 */
export function useNavigationGuard(pending: boolean): void {
  const guard = useContext(NavigationGuardContext);
  const key = useRef(Symbol('pending changes')).current;
  const set = useCallback((value: boolean) => guard?.setPending(key, value), [guard, key]);
  useLayoutEffect(() => {
    set(pending);
    return () => set(false);
  }, [pending, set]);
}
