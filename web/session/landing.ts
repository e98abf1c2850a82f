import type { Verification } from '#common/contract/account.ts';
import { safeReturnPath } from '#web/session/safe-return-path.ts';

export const ADMIN_HOME_PATH = '/admin/home';
export const ACCOUNT_PATH = '/account';
export const UPDATE_PASSWORD_PATH = '/account/updatePassword';

/** Where a sign-in lands when there is no return address (spec 000 §4): administrators the admin area, others the
 * account page. Also where a successful password update goes (spec 001 §4). */
export function homeOf(verification: Verification): string {
  return verification.user.isAdmin ? ADMIN_HOME_PATH : ACCOUNT_PATH;
}

/**
 * Where to go once signed in (spec 000 §4): the return address `r` when it is a page of this app, else homeOf. An
 * expired password goes to the update-password page first, carrying the return address on.
 */
export function landingAfterSignIn(verification: Verification, returnTo: string | null | undefined): string {
  const safe = safeReturnPath(returnTo);
  if (verification.user.passwordExpired) {
    const query = new URLSearchParams({ expired: 'true' });
    if (safe && safe.split(/[?#]/)[0] !== UPDATE_PASSWORD_PATH) query.set('r', safe);
    return `${UPDATE_PASSWORD_PATH}?${query.toString()}`;
  }
  return safe ?? homeOf(verification);
}
