import { describe, expect, it } from 'vitest';
import { isPageRoute } from './page-routes.ts';

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
