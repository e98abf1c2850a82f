import type { Verification } from '#common/contract/account.ts';

/** A verification for tests: a person with the built-in User role's links. */
export const sampleVerification: Verification = {
  token: 'token-1',
  user: {
    id: 2,
    username: 'ada',
    key: null,
    user_Details: [],
    user_Images: [],
    isAdmin: false,
    allowed2fa: ['Email'],
    preferred2fa: 'Email',
    disableSelect2fa: true,
    passwordExpired: false,
    recoveryCodesLeft: 0,
    passkeys: 0,
  },
  links: ['/account/*', '/account', '/contact-us'],
  expiration: '2030-01-01T00:30:00.000Z',
};

/** The same, for an administrator (link '*'). */
export const adminVerification: Verification = {
  ...sampleVerification,
  token: 'token-admin',
  user: { ...sampleVerification.user, id: 1, username: 'admin', isAdmin: true },
  links: ['*'],
};
