import { lazy, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { pageRoutes, type PageRoute } from '#common/page-routes.ts';
import { HOME_PATH } from '#web/content/site.ts';
import { SiteLayout } from '#web/features/site/site-layout.tsx';

// Each page is its own chunk, so a visitor of the public pages never downloads the database browser.
const HomePage = lazy(() =>
  import('#web/features/site/home-page.tsx').then((m) => ({ default: m.HomePage })),
);
const NotFoundPage = lazy(() =>
  import('#web/features/site/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);
const UnauthorizedPage = lazy(() =>
  import('#web/features/site/unauthorized-page.tsx').then((m) => ({ default: m.UnauthorizedPage })),
);
const SetupPage = lazy(() =>
  import('#web/features/setup/setup-page.tsx').then((m) => ({ default: m.SetupPage })),
);

/**
 * What each page of common/page-routes.ts renders (the server answers 200 for exactly those paths, 404 for the
 * rest). A page not built yet is absent here and shows the 404 page meanwhile; a new page is added to the list in
 * common/page-routes.ts and its element here.
 */
const pages: Partial<Record<PageRoute, ReactNode>> = {
  '/': <Navigate to={HOME_PATH} replace />,
  '/home': <HomePage />,
  '/setup': <SetupPage />,
  '/error': <NotFoundPage />,
  '/error/unauthorized': <UnauthorizedPage />,
};

/** The route table (spec 001 §2): every known page, and the 404 page for any other path. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SiteLayout />}>
        {pageRoutes.map((path) => (
          <Route key={path} path={path} element={pages[path] ?? <NotFoundPage />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
