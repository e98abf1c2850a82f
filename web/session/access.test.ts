import { describe, expect, it } from 'vitest';
import { PUBLIC_PATHS } from '#common/links.ts';
import { pageRoutes } from '#common/page-routes.ts';
import { decideAccess, pageAccess } from '#web/session/access.ts';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';

describe('decideAccess', () => {
  it('lets anyone open public pages and the default public paths', () => {
    expect(decideAccess('public', '/account/signup', null)).toBe('allow');
    for (const path of PUBLIC_PATHS) expect(decideAccess('signedIn', path, null)).toBe('allow');
    expect(decideAccess('signedIn', '/home/', null)).toBe('allow');
  });

  it('sends nobody signed in from a guarded page to sign-out and the 401 page', () => {
    expect(decideAccess('signedIn', '/account', null)).toBe('signedOut');
    expect(decideAccess('admin', '/admin/home', null)).toBe('signedOut');
    expect(decideAccess('signedIn', '/db/x/main/t', null)).toBe('signedOut');
  });

  it('follows the links: exact, prefix/* and *', () => {
    expect(decideAccess('signedIn', '/account', sampleVerification)).toBe('allow');
    expect(decideAccess('signedIn', '/account/updatePassword', sampleVerification)).toBe('allow');
    expect(decideAccess('signedIn', '/contact-us', sampleVerification)).toBe('allow');
    expect(decideAccess('signedIn', '/db/x', sampleVerification)).toBe('notAllowed');
    const reader = { ...sampleVerification, links: ['/db/chinook/*'] };
    expect(decideAccess('signedIn', '/db/chinook/main/Album', reader)).toBe('allow');
    expect(decideAccess('signedIn', '/db/other/main/Album', reader)).toBe('notAllowed');
    expect(decideAccess('signedIn', '/db/anything/a/b', adminVerification)).toBe('allow');
  });

  it('needs isAdmin for the administrator pages, whatever the links say', () => {
    const everything = { ...sampleVerification, links: ['*'] };
    expect(decideAccess('admin', '/admin/users', everything)).toBe('notAllowed');
    expect(decideAccess('admin', '/admin/users', adminVerification)).toBe('allow');
    const adminWithoutLink = { ...adminVerification, links: ['/account'] };
    expect(decideAccess('admin', '/admin/users', adminWithoutLink)).toBe('notAllowed');
  });

  it('puts every page in a group, the account doors public and the admin area admin-only', () => {
    expect(Object.keys(pageAccess).sort()).toEqual([...pageRoutes].sort());
    expect(pageAccess['/account/login']).toBe('public');
    expect(pageAccess['/account/signup']).toBe('public');
    expect(pageAccess['/error/unauthorized']).toBe('public');
    expect(pageAccess['/account']).toBe('signedIn');
    expect(pageAccess['/admin/roles']).toBe('admin');
  });
});
