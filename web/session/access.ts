import type { Verification } from '#common/contract/account.ts';
import { linksAllow, PUBLIC_PATHS } from '#common/links.ts';
import type { PageRoute } from '#common/page-routes.ts';

/** Who may open a page: anyone, a signed-in person whose links allow it, or an administrator whose links allow it. */
export type AccessGroup = 'public' | 'signedIn' | 'admin';

/**
 * Every page of common/page-routes.ts in its group (the `satisfies` makes a new page choose one). Public: the site,
 * the doors into an account and the error pages. Contact Us needs a session (spec 001 §6).
 */
export const pageAccess = {
  '/': 'public',
  '/home': 'public',
  '/news': 'public',
  '/news/:title': 'public',
  '/services': 'public',
  '/services/:service': 'public',
  '/products': 'public',
  '/products/:product': 'public',
  '/about-us': 'public',
  '/contact-us': 'signedIn',
  '/privacy-policy': 'public',
  '/terms-of-use': 'public',
  '/resume': 'public',
  '/account': 'signedIn',
  '/account/login': 'public',
  '/account/logout': 'public',
  '/account/signup': 'public',
  '/account/forgotPassword': 'public',
  '/account/updatePassword': 'signedIn',
  '/admin/home': 'admin',
  '/admin/users': 'admin',
  '/admin/users/:id': 'admin',
  '/admin/roles': 'admin',
  '/admin/audit': 'admin',
  '/admin/messages': 'admin',
  '/admin/analytics': 'admin',
  '/admin/chats': 'admin',
  '/cc': 'signedIn',
  '/db': 'public',
  '/db/:db': 'signedIn',
  '/db/:db/:schema/:table': 'signedIn',
  '/error': 'public',
  '/error/unauthorized': 'public',
  '/redirect': 'public',
  '/setup': 'public',
} as const satisfies Record<PageRoute, AccessGroup>;

/** What the guard does: show the page; sign out and go to the 401 page (nobody signed in); or go to the 401 page
 * keeping the session (signed in, but the links do not allow this page). */
export type AccessDecision = 'allow' | 'signedOut' | 'notAllowed';

const defaultPaths: readonly string[] = PUBLIC_PATHS;

/**
 * Spec 000 §4, §6 and 001 §6: the default public paths are open to all; any other page of a guarded group needs a
 * session whose links (the shared matcher, common/links.ts) allow the URL's path, and the administrator group needs
 * isAdmin as well. `pathname` is the address as the browser has it (segments percent-encoded).
 */
export function decideAccess(
  group: AccessGroup,
  pathname: string,
  session: Verification | null,
): AccessDecision {
  if (group === 'public') return 'allow';
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (defaultPaths.includes(path)) return 'allow';
  if (session === null) return 'signedOut';
  if (group === 'admin' && !session.user.isAdmin) return 'notAllowed';
  return linksAllow(session.links, path) ? 'allow' : 'notAllowed';
}
