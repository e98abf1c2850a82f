import { lazy, useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { loadQueries, queriesLoaded, useQueryClientHolder } from '#web/api/queries.tsx';
import { PageLoader } from '#web/ui/page-loader.tsx';
import type * as BrowserPrefetch from './browser-prefetch.ts';

/*
 * The browser's route element, in the app's first chunk (kept small: the page itself is a chunk of its own).
 * - An address of the browser starts that chunk's download when the app starts, beside the session check.
 * - The page waits for its chunk without suspending: a lazy page suspends, and React then holds the revealed page
 *   back up to 300 ms after the fallback showed, which was most of the wait for the first rows. A chunk that fails
 *   to load falls back to the lazy page, so the error reaches the error boundary as before.
 * - Once the route renders (the access guard allowed it, so the session is verified), the view's tables and page
 *   are asked for at once, while the page's code still loads; its hooks then find those reads under way. The asking
 *   (browser-prefetch.ts, with the data API's schemas and Zod) is a small chunk of its own, also started when the app
 *   starts on a browser's address: the route table is in the first chunk of every page, the home page's too, which
 *   loads no Zod (decision 0033).
 */

let prefetchLoad: Promise<typeof BrowserPrefetch> | null = null;
const loadPrefetch = () =>
  (prefetchLoad ??= import('./browser-prefetch.ts').catch((error: unknown) => {
    prefetchLoad = null;
    throw error;
  }));

let loadedPage: ComponentType | null = null;
let pageLoad: Promise<ComponentType> | null = null;
const loadPage = () =>
  (pageLoad ??= import('#web/features/browser/browser-page.tsx').then(
    (m) => (loadedPage = m.BrowserPage),
    (error: unknown) => {
      pageLoad = null;
      throw error;
    },
  ));
if (typeof window !== 'undefined' && window.location.pathname.startsWith('/db/')) {
  loadPage().catch(() => undefined);
  loadQueries().catch(() => undefined);
  loadPrefetch().catch(() => undefined);
}
const LazyBrowserPage = lazy(() => loadPage().then((page) => ({ default: page })));

/**
 * /db/{db} and /db/{db}/{schema}/{table}: the browser page once its code is in. TanStack Query's client loads with the
 * first page that asks the API (web/api/queries.tsx); this route waits for it without suspending, as for its page.
 */
export function BrowserRoute() {
  const holder = useQueryClientHolder();
  const [ready, setReady] = useState(queriesLoaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadQueries().then(
      () => live && setReady(true),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [ready]);
  if (failed) return <LazyBrowserPage />;
  if (!ready || !holder) return <PageLoader />;
  return (
    <QueryClientProvider client={holder.get()}>
      <BrowserView />
    </QueryClientProvider>
  );
}

/** The browser route once the query client is in: its reads start at once, its page when its code is in. */
function BrowserView() {
  const queryClient = useQueryClient();
  const { pathname, search } = useLocation();
  const [address] = useState({ pathname, search });
  useEffect(() => {
    // A chunk that does not load leaves the reads to the page's hooks, which show any failure.
    loadPrefetch().then(
      ({ prefetchBrowserView }) => prefetchBrowserView(queryClient, address.pathname, address.search),
      () => undefined,
    );
  }, [queryClient, address]);

  const [page, setPage] = useState<{ Page: ComponentType | null; failed: boolean }>(() => ({
    Page: loadedPage,
    failed: false,
  }));
  useEffect(() => {
    if (page.Page || page.failed) return;
    let live = true;
    loadPage().then(
      (Page) => live && setPage({ Page, failed: false }),
      () => live && setPage({ Page: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [page]);
  if (page.failed) return <LazyBrowserPage />;
  return page.Page ? <page.Page /> : <PageLoader />;
}
