import { createContext, use, useLayoutEffect, type ReactNode } from 'react';
import { render, renderHook, type RenderHookResult, type RenderResult } from '@testing-library/react';
import { vi } from 'vitest';
import { createMemoryRouter, Outlet, RouterProvider, type InitialEntry } from 'react-router';
import type { Verification } from '#common/contract/account.ts';
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClientHolder, type QueryClientHolder } from '#web/api/queries.tsx';
import { AppProviders } from '#web/app-providers.tsx';
import { NavigationGuardProvider } from '#web/forms/navigation-guard.tsx';
import { SessionContext, type Session } from '#web/session/session-context.ts';

export interface RenderPageOptions {
  /** Where the router starts: a path with its query, or an entry with state. By default the page's own path when
   * that is one address (no parameter), else '/'. */
  at?: InitialEntry;
  /** The route pattern the page renders at (default '*', any address), so it reads its params as in the app; several
   * for a page the app shows at more than one (the browser at a database and at a table). */
  path?: string | string[];
  /** Other routes beside the page's: pattern → element (where a page sends someone, a stand-in). */
  routes?: Record<string, ReactNode>;
  /**
   * The session the page reads (useSession): a verification is signed in, null signed out, or a whole Session
   * (fakeSession) whose calls the test watches. Left out, there is none, as for a page that brings the real
   * SessionProvider (the route table does).
   */
  session?: Verification | null | Session;
}

export type RenderedPage = RenderResult & {
  router: Router;
  /** The app's TanStack Query client, to read or fill its cache. */
  queryClient: QueryClient;
  /** Every path the router has been at, from the first (pathnames, in order). */
  visited: string[];
};

const PageContext = createContext<ReactNode>(null);

/** The page itself, inside the router: what render (or rerender) was last given. */
function Page() {
  return use(PageContext);
}

/**
 * Renders `page` as the app does (web/app.tsx): the app's providers (Mantine theme, toasts, TanStack Query's client),
 * a data router with the one navigation guard, starting at `at`, and the session when given. `rerender` takes a new
 * page and keeps the router where it is; `router` is there to navigate or read the address.
 */
export function renderPage(page: ReactNode, options: RenderPageOptions = {}): RenderedPage {
  const { Wrapper, router, visited, queryClient } = pageWrapper(options);
  const rendered: RenderResult = render(page, { wrapper: Wrapper });
  return Object.assign(rendered, { router, visited, queryClient: queryClient() });
}

/** renderHook inside the same providers and router as renderPage, for a hook that needs them. */
export function renderPageHook<Result, Props>(
  hook: (props: Props) => Result,
  options: RenderPageOptions & { initialProps?: Props } = {},
): RenderHookResult<Result, Props> & { router: Router; queryClient: QueryClient } {
  const { initialProps, ...pageOptions } = options;
  const { Wrapper, router, queryClient } = pageWrapper(pageOptions);
  const rendered = renderHook<Result, Props>(hook, { wrapper: Wrapper, initialProps });
  return Object.assign(rendered, { router, queryClient: queryClient() });
}

type Router = ReturnType<typeof createMemoryRouter>;

function pageWrapper(options: RenderPageOptions): {
  Wrapper: (props: { children: ReactNode }) => ReactNode;
  router: Router;
  visited: string[];
  queryClient: () => QueryClient;
} {
  const { path = '*', routes = {}, session } = options;
  const at = options.at ?? (typeof path === 'string' && !/[:*]/.test(path) ? path : '/');
  const router = createMemoryRouter(
    [
      {
        element: (
          <NavigationGuardProvider>
            <Outlet />
          </NavigationGuardProvider>
        ),
        children: [
          ...(Array.isArray(path) ? path : [path]).map((pagePath) => ({ path: pagePath, element: <Page /> })),
          ...Object.entries(routes).map(([routePath, element]) => ({ path: routePath, element })),
        ],
      },
    ],
    { initialEntries: [at] },
  );
  const visited = [router.state.location.pathname];
  router.subscribe((state) => {
    if (state.location.pathname !== visited.at(-1)) visited.push(state.location.pathname);
  });
  const sessionValue = session === undefined ? null : isSession(session) ? session : fakeSession(session);
  const found: { holder: QueryClientHolder | null } = { holder: null };
  function HolderProbe() {
    const holder = useQueryClientHolder();
    useLayoutEffect(() => {
      found.holder = holder;
    }, [holder]);
    return null;
  }
  function Wrapper({ children }: { children: ReactNode }) {
    const routed = (
      <PageContext value={children}>
        <RouterProvider router={router} />
      </PageContext>
    );
    return (
      <AppProviders>
        <HolderProbe />
        {sessionValue ? <SessionContext value={sessionValue}>{routed}</SessionContext> : routed}
      </AppProviders>
    );
  }
  const queryClient = () => {
    if (!found.holder) throw new Error('renderPage: the query client is asked for before the page rendered.');
    return found.holder.get();
  };
  return { Wrapper, router, visited, queryClient };
}

/** A session for a test: signed in with `verification` (signed out for null); its calls are mocks unless given. */
export function fakeSession(verification: Verification | null, calls: Partial<Session> = {}): Session {
  return {
    status: verification ? 'signedIn' : 'signedOut',
    verification,
    signIn: vi.fn(),
    signOut: vi.fn(),
    reverify: vi.fn(() => Promise.resolve(true)),
    ...calls,
  };
}

function isSession(value: Verification | Session | null): value is Session {
  return value !== null && 'status' in value;
}
