import { lazy, useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { PageLoader } from '#web/ui/page-loader.tsx';
import { prefetchBrowserView } from './browser-prefetch.ts';

/*
 * The browser's route element, in the app's first chunk (kept small: the page itself is a chunk of its own).
 * - An address of the browser starts that chunk's download when the app starts, beside the session check.
 * - The page waits for its chunk without suspending: a lazy page suspends, and React then holds the revealed page
 *   back up to 300 ms after the fallback showed, which was most of the wait for the first rows. A chunk that fails
 *   to load falls back to the lazy page, so the error reaches the error boundary as before.
 * - Once the route renders (the access guard allowed it, so the session is verified), the view's tables and page
 *   are asked for at once, while the page's code still loads; its hooks then find those reads under way.
 */

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
if (typeof window !== 'undefined' && window.location.pathname.startsWith('/db/'))
  loadPage().catch(() => undefined);
const LazyBrowserPage = lazy(() => loadPage().then((page) => ({ default: page })));

/** /db/{db} and /db/{db}/{schema}/{table}: the browser page once its code is in. */
export function BrowserRoute() {
  const queryClient = useQueryClient();
  const { pathname, search } = useLocation();
  const [address] = useState({ pathname, search });
  useEffect(() => prefetchBrowserView(queryClient, address.pathname, address.search), [queryClient, address]);

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
