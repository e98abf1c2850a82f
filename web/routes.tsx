import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
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

/** The route table (spec 001 §2). Pages of later issues are added here; until then they fall to the 404. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<SiteLayout />}>
        <Route index element={<Navigate to={HOME_PATH} replace />} />
        <Route path="home" element={<HomePage />} />
        <Route path="setup" element={<SetupPage />} />
        <Route path="error" element={<NotFoundPage />} />
        <Route path="error/unauthorized" element={<UnauthorizedPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
