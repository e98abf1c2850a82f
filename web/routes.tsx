import { lazy, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes } from 'react-router';
import { pageRoutes, type PageRoute } from '#common/page-routes.ts';
import { HOME_PATH } from '#common/content/site.ts';
// The browser's page is a chunk of its own too; its route element (small) starts it early and waits without suspending.
import { BrowserRoute } from '#web/features/browser/browser-route.tsx';
import { withQueries } from '#web/api/queries.tsx';
import { SiteLayout } from '#web/features/site/site-layout.tsx';
import { AccessGuard } from '#web/session/access-guard.tsx';
import { pageAccess, type AccessGroup } from '#web/session/access.ts';
import type { Clock, IdleTiming } from '#web/session/idle-watch.ts';
import { SessionProvider } from '#web/session/session-provider.tsx';

// Each page is its own chunk, so a visitor of the public pages never downloads the database browser. The pages load
// with TanStack Query's client (withQueries); the home page asks the API nothing, and loads without it (decision 0033).
const HomePage = lazy(() =>
  import('#web/features/site/home-page.tsx').then((m) => ({ default: m.HomePage })),
);
const NotFoundPage = withQueries(() =>
  import('#web/features/site/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);
const UnauthorizedPage = withQueries(() =>
  import('#web/features/site/unauthorized-page.tsx').then((m) => ({ default: m.UnauthorizedPage })),
);
const RedirectPage = withQueries(() =>
  import('#web/features/site/redirect-page.tsx').then((m) => ({ default: m.RedirectPage })),
);
const SetupPage = withQueries(() =>
  import('#web/features/setup/setup-page.tsx').then((m) => ({ default: m.SetupPage })),
);
const LogoutPage = withQueries(() =>
  import('#web/features/account/logout-page.tsx').then((m) => ({ default: m.LogoutPage })),
);
const LoginPage = withQueries(() =>
  import('#web/features/login/login-page.tsx').then((m) => ({ default: m.LoginPage })),
);
const SignupPage = withQueries(() =>
  import('#web/features/signup/signup-page.tsx').then((m) => ({ default: m.SignupPage })),
);
const ForgotPasswordPage = withQueries(() =>
  import('#web/features/password/forgot-password-page.tsx').then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
const UpdatePasswordPage = withQueries(() =>
  import('#web/features/password/update-password-page.tsx').then((m) => ({
    default: m.UpdatePasswordPage,
  })),
);
const AccountPage = withQueries(() =>
  import('#web/features/account/account-page.tsx').then((m) => ({ default: m.AccountPage })),
);
const AdminHomePage = withQueries(() =>
  import('#web/features/admin/home/admin-home-page.tsx').then((m) => ({ default: m.AdminHomePage })),
);
const UsersPage = withQueries(() =>
  import('#web/features/admin/users/users-page.tsx').then((m) => ({ default: m.UsersPage })),
);
const UserPage = withQueries(() =>
  import('#web/features/admin/users/user-page.tsx').then((m) => ({ default: m.UserPage })),
);
const RolesPage = withQueries(() =>
  import('#web/features/admin/roles/roles-page.tsx').then((m) => ({ default: m.RolesPage })),
);
const AuditPage = withQueries(() =>
  import('#web/features/admin/audit/audit-page.tsx').then((m) => ({ default: m.AuditPage })),
);

const ServicePage = withQueries(() =>
  import('#web/features/services/service-page.tsx').then((m) => ({ default: m.ServicePage })),
);
const ProductPage = withQueries(() =>
  import('#web/features/products/product-page.tsx').then((m) => ({ default: m.ProductPage })),
);
const NewsPage = withQueries(() =>
  import('#web/features/news/news-page.tsx').then((m) => ({ default: m.NewsPage })),
);
const NewsArticlePage = withQueries(() =>
  import('#web/features/news/news-article-page.tsx').then((m) => ({ default: m.NewsArticlePage })),
);
const AboutPage = withQueries(() =>
  import('#web/features/about/about-page.tsx').then((m) => ({ default: m.AboutPage })),
);
const PrivacyPolicyPage = withQueries(() =>
  import('#web/features/legal/privacy-policy-page.tsx').then((m) => ({ default: m.PrivacyPolicyPage })),
);
const TermsOfUsePage = withQueries(() =>
  import('#web/features/legal/terms-of-use-page.tsx').then((m) => ({ default: m.TermsOfUsePage })),
);
const ResumePage = withQueries(() =>
  import('#web/features/resume/resume-page.tsx').then((m) => ({ default: m.ResumePage })),
);
const ContactPage = withQueries(() =>
  import('#web/features/contact/contact-page.tsx').then((m) => ({ default: m.ContactPage })),
);
const CreatorPage = withQueries(() =>
  import('#web/features/creator/creator-page.tsx').then((m) => ({ default: m.CreatorPage })),
);
const MessagesPage = withQueries(() =>
  import('#web/features/admin/messages/messages-page.tsx').then((m) => ({ default: m.MessagesPage })),
);
const AnalyticsPage = withQueries(() =>
  import('#web/features/admin/analytics/analytics-page.tsx').then((m) => ({ default: m.AnalyticsPage })),
);
const ChatsPage = withQueries(() =>
  import('#web/features/admin/chats/chats-page.tsx').then((m) => ({ default: m.ChatsPage })),
);

/**
 * What each page of common/page-routes.ts renders (the server answers 200 for exactly those paths, 404 for the
 * rest). A page not built yet is absent here and shows the 404 page meanwhile; a new page is added to the list in
 * common/page-routes.ts, to its access group in web/session/access.ts, and its element here.
 */
const pages: Partial<Record<PageRoute, ReactNode>> = {
  '/': <Navigate to={HOME_PATH} replace />,
  '/home': <HomePage />,
  '/setup': <SetupPage />,
  '/account': <AccountPage />,
  '/account/login': <LoginPage />,
  '/account/logout': <LogoutPage />,
  '/account/signup': <SignupPage />,
  '/account/forgotPassword': <ForgotPasswordPage />,
  '/account/updatePassword': <UpdatePasswordPage />,
  '/services': <ServicePage />,
  '/services/:service': <ServicePage />,
  '/products': <ProductPage />,
  '/products/:product': <ProductPage />,
  '/news': <NewsPage />,
  '/news/:title': <NewsArticlePage />,
  '/about-us': <AboutPage />,
  '/privacy-policy': <PrivacyPolicyPage />,
  '/terms-of-use': <TermsOfUsePage />,
  '/resume': <ResumePage />,
  '/contact-us': <ContactPage />,
  '/cc': <CreatorPage />,
  '/admin/messages': <MessagesPage />,
  '/admin/analytics': <AnalyticsPage />,
  '/admin/chats': <ChatsPage />,
  '/admin/home': <AdminHomePage />,
  '/admin/users': <UsersPage />,
  '/admin/users/:id': <UserPage />,
  '/admin/roles': <RolesPage />,
  '/admin/audit': <AuditPage />,
  // Spec 000 §2: the browser without a database goes to /.
  '/db': <Navigate to="/" replace />,
  '/db/:db': <BrowserRoute />,
  '/db/:db/:schema/:table': <BrowserRoute />,
  '/error': <NotFoundPage />,
  '/error/unauthorized': <UnauthorizedPage />,
  '/redirect': <RedirectPage />,
};

const groups: readonly AccessGroup[] = ['public', 'signedIn', 'admin'];

/** Session settings for tests and end-to-end runs (shorter idle timings, a clock of their own). */
export interface SessionOptions {
  timing?: IdleTiming;
  clock?: Clock;
  now?: () => number;
}

/**
 * The route table (spec 001 §2): the session around everything (it verifies a stored session before any page shows),
 * then the site's layout, then one layout route per access group whose guard decides before its pages render, and
 * the 404 page for any other path.
 */
export function AppRoutes({ session = {} }: { session?: SessionOptions }) {
  return (
    <Routes>
      <Route
        element={
          <SessionProvider {...session}>
            <Outlet />
          </SessionProvider>
        }
      >
        <Route element={<SiteLayout />}>
          {groups.map((group) => (
            <Route key={group} element={<AccessGuard group={group} />}>
              {pageRoutes
                .filter((path) => pageAccess[path] === group)
                .map((path) => (
                  <Route key={path} path={path} element={pages[path] ?? <NotFoundPage />} />
                ))}
            </Route>
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
