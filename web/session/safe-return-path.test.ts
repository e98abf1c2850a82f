import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '#web/session/safe-return-path.ts';

describe('safeReturnPath', () => {
  it('keeps paths of this app, with their query and fragment', () => {
    expect(safeReturnPath('/account')).toBe('/account');
    expect(safeReturnPath('/db/chinook/main/Album?x=1#top')).toBe('/db/chinook/main/Album?x=1#top');
    expect(safeReturnPath('/db/my%20db')).toBe('/db/my%20db');
    expect(safeReturnPath('/admin/home')).toBe('/admin/home');
  });

  it.each([
    '//evil.com',
    '//evil.com/account',
    '/\\evil.com',
    '\\\\evil.com',
    '/\\/evil.com',
    'https://x',
    'https://x/account',
    'http:/account',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,x',
    '%2F%2Fevil.com',
    '/%2F%2Fevil.com',
    '%2f%5cevil.com',
    '/%5Cevil.com',
    'javascript%3Aalert(1)',
    '%252F%252Fevil.com',
    '/%09/evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    'account',
    '',
    '/no/such/page',
    '/account/logout',
    '/%E0%A4%A',
  ])('refuses %j', (raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });

  it('refuses what is not text', () => {
    expect(safeReturnPath(null)).toBeNull();
    expect(safeReturnPath(undefined)).toBeNull();
    expect(safeReturnPath(`/account?${'a'.repeat(3000)}`)).toBeNull();
  });
});
