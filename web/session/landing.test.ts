import { describe, expect, it } from 'vitest';
import { homeOf, landingAfterSignIn } from '#web/session/landing.ts';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';

const expired = { ...sampleVerification, user: { ...sampleVerification.user, passwordExpired: true } };

describe('landingAfterSignIn', () => {
  it('goes to a safe return address', () => {
    expect(landingAfterSignIn(sampleVerification, '/db/chinook/main/Album?x=1')).toBe(
      '/db/chinook/main/Album?x=1',
    );
    expect(landingAfterSignIn(adminVerification, '/account')).toBe('/account');
  });

  it('else sends administrators to /admin/home and others to /account', () => {
    expect(landingAfterSignIn(adminVerification, null)).toBe('/admin/home');
    expect(landingAfterSignIn(sampleVerification, undefined)).toBe('/account');
    expect(landingAfterSignIn(sampleVerification, '//evil.com')).toBe('/account');
    expect(landingAfterSignIn(adminVerification, 'https://evil.com/admin/home')).toBe('/admin/home');
    expect(homeOf(adminVerification)).toBe('/admin/home');
  });

  it('forces the update-password page for an expired password, carrying a safe return address on', () => {
    expect(landingAfterSignIn(expired, null)).toBe('/account/updatePassword?expired=true');
    expect(landingAfterSignIn(expired, '/contact-us')).toBe(
      '/account/updatePassword?expired=true&r=%2Fcontact-us',
    );
    expect(landingAfterSignIn(expired, '//evil.com')).toBe('/account/updatePassword?expired=true');
    expect(landingAfterSignIn(expired, '/account/updatePassword')).toBe(
      '/account/updatePassword?expired=true',
    );
  });
});
