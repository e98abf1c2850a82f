/*
 * The web app's pages (spec 000 §2 and spec 001 §2) as data, the single list both sides read: the web app's route
 * table renders them, the server answers 200 for them and 404 for any other page path (with the same app shell,
 * which then shows its 404 page). A page added later is added here.
 *
 * Patterns are React Router's: `:name` is one non-empty path segment. They match as React Router matches by
 * default: static segments without regard to case, and trailing slashes ignored.
 */

export const pageRoutes = [
  // Public site (spec 001 §2); the empty path redirects to /home.
  '/',
  '/home',
  '/news',
  '/news/:title',
  '/services',
  '/services/:service',
  '/products',
  '/products/:product',
  '/about-us',
  '/contact-us',
  '/privacy-policy',
  '/terms-of-use',
  '/resume',
  // Account screens (spec 000 §2)
  '/account',
  '/account/login',
  '/account/logout',
  '/account/signup',
  '/account/forgotPassword',
  '/account/updatePassword',
  // Admin area
  '/admin/home',
  '/admin/users',
  '/admin/users/:id',
  '/admin/roles',
  '/admin/audit',
  '/admin/messages',
  '/admin/analytics',
  '/admin/chats',
  // Content creator
  '/cc',
  // Database browser: /db/{db} selects a database, /db/{db}/{schema}/{table} browses a table; /db alone goes to /.
  '/db',
  '/db/:db',
  '/db/:db/:schema/:table',
  // Error pages and the internal re-navigation hop
  '/error',
  '/error/unauthorized',
  '/redirect',
  // The first administrator's one-time setup link (docs/decisions/0005-accounts.md)
  '/setup',
] as const;

/** One of the web app's page patterns. */
export type PageRoute = (typeof pageRoutes)[number];

type Segment = { kind: 'static'; text: string } | { kind: 'param' };

function segmentsOf(path: string): string[] {
  return path.replace(/\/+$/, '').split('/').slice(1);
}

const compiled: Segment[][] = pageRoutes.map((route) =>
  segmentsOf(route).map((segment) =>
    segment.startsWith(':') ? { kind: 'param' } : { kind: 'static', text: segment.toLowerCase() },
  ),
);

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Whether a URL path (without its query) is one of the web app's pages. */
export function isPageRoute(pathname: string): boolean {
  const segments = segmentsOf(pathname);
  return compiled.some(
    (pattern) =>
      pattern.length === segments.length &&
      pattern.every((part, i) => {
        const text = decoded(segments[i] ?? '');
        if (text === null || text === '') return false;
        return part.kind === 'param' || text.toLowerCase() === part.text;
      }),
  );
}

/** The page without parameters that a URL path (without its query) names, spelled as in pageRoutes ('/HOME/' is
 * '/home'), or null for a page with parameters or no page at all. Analytics counts these under their own name. */
export function fixedPagePath(pathname: string): PageRoute | null {
  const segments = segmentsOf(pathname);
  const at = compiled.findIndex(
    (pattern) =>
      pattern.length === segments.length &&
      pattern.every(
        (part, i) => part.kind === 'static' && decoded(segments[i] ?? '')?.toLowerCase() === part.text,
      ),
  );
  return at === -1 ? null : (pageRoutes[at] ?? null);
}
