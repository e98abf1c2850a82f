import { describe, expect, it } from 'vitest';
import { fixedPagePath, isPageRoute } from './page-routes.ts';

describe('isPageRoute', () => {
  it('knows the spec’s pages, with their parameters', () => {
    for (const path of [
      '/',
      '/home',
      '/news/The%20Future%20of%20Software',
      '/services/cloud',
      '/account/forgotPassword',
      '/admin/users',
      '/db',
      '/db/demo',
      '/db/demo/main/orders',
      '/db/pg/pub%2Fx/secret2',
      '/error/unauthorized',
      '/setup',
    ])
      expect(isPageRoute(path), path).toBe(true);
  });

  it('matches as React Router does: any case, trailing slashes ignored', () => {
    expect(isPageRoute('/HOME')).toBe(true);
    expect(isPageRoute('/account/forgotpassword/')).toBe(true);
  });

  it('knows no other path', () => {
    for (const path of [
      '/no/such/page',
      '/homes',
      '/db/demo/main',
      '/db/demo/main/orders/extra',
      '/db//main/orders',
      '/account/login/x',
      '/index.html',
      '/news/%zz',
    ])
      expect(isPageRoute(path), path).toBe(false);
  });
});

describe('fixedPagePath', () => {
  it('names a page without parameters in its own spelling', () => {
    expect(fixedPagePath('/')).toBe('/');
    expect(fixedPagePath('/HOME/')).toBe('/home');
    expect(fixedPagePath('/account/forgotpassword')).toBe('/account/forgotPassword');
    expect(fixedPagePath('/admin/%61nalytics')).toBe('/admin/analytics');
  });

  it('is null for a page with parameters and for no page', () => {
    for (const path of ['/news/some-title', '/db/demo', '/db/demo/main/Track', '/nowhere', '/home/x', '/%E0'])
      expect(fixedPagePath(path), path).toBeNull();
  });
});
