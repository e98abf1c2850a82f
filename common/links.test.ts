import { describe, expect, it } from 'vitest';
import { linkAllows, linksAllow, linksShowDatabase, tablePath } from './links.ts';

describe('linkAllows', () => {
  it.each([
    ['*', '/db/shop/public/orders', true],
    ['/*', '/admin/users', true],
    ['/db/shop/*', '/db/shop/public/orders', true],
    ['/db/shop/*', '/db/shop', true],
    ['/db/shop/*', '/db/shopping/public/orders', false],
    ['/db/shop/public/orders', '/db/shop/public/orders', true],
    ['/db/shop/public/orders', '/db/shop/public/orders2', false],
    ['/db/shop/public/orders', '/db/shop/public', false],
    ['/account/*', '/account/updatePassword', true],
    ['/account', '/account/', true],
    ['', '/home', false],
  ])('%s allows %s: %s', (link, path, expected) => {
    expect(linkAllows(link, path)).toBe(expected);
  });

  it('allows when any link does', () => {
    expect(linksAllow(['/a', '/db/x/*'], tablePath('x', 'main', 't'))).toBe(true);
    expect(linksAllow([], '/a')).toBe(false);
  });

  it('shows a database only for a link of everything or one under it', () => {
    expect(linksShowDatabase(['*'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/*'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/shop/public/orders'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/shop'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/shopping/*'], 'shop')).toBe(false);
    expect(linksShowDatabase(['/account/*'], 'shop')).toBe(false);
  });
});
