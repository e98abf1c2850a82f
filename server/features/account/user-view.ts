import type { User, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import type { Kysely } from 'kysely';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { CurrentSession, SignedInAccount } from '#server/plugins/session.ts';
import type { AppStore } from '#server/store/app-store.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { countPasskeys } from '#server/store/passkeys.ts';
import { countRecoveryCodes } from '#server/store/recovery-codes.ts';
import { userIsAdmin } from '#server/store/roles.ts';
import { findUserById, findUserImage, type UserRow } from '#server/store/users.ts';
import { signInMethodsOf, storedPreferred } from './sign-in-methods.ts';

/**
 * The spec's User for the account's owner: details in user_Details[0], the image in user_Images[0]. Never the
 * password hash, the authenticator secret or any code: `totp` only says whether an app is set up.
 */
export async function userView(
  db: Kysely<AppDatabase>,
  row: UserRow,
  passwordExpired: boolean,
): Promise<User> {
  const [image, isAdmin, recoveryCodesLeft, passkeys] = await Promise.all([
    findUserImage(db, row.id),
    userIsAdmin(db, row.id),
    countRecoveryCodes(db, row.id),
    countPasskeys(db, row.id),
  ]);
  const methods = signInMethodsOf(row, recoveryCodesLeft, passkeys);
  return {
    id: row.id,
    username: row.username,
    key: null,
    user_Details: [
      {
        email: row.email,
        emailVerified: row.email_verified_at !== null,
        dateEmailVerified: row.email_verified_at,
        phone: row.phone,
        phoneVerified: row.phone !== null && row.phone_verified_at !== null,
        datePhoneVerified: row.phone ? row.phone_verified_at : null,
        totp: row.totp_secret !== null,
        totpVerified: row.totp_secret !== null && row.totp_verified_at !== null,
        dateTotpVerified: row.totp_secret ? row.totp_verified_at : null,
        firstName: row.first_name,
        lastName: row.last_name,
        preferred2fa: storedPreferred(row.preferred_2fa),
      },
    ],
    user_Images: image ? [{ image: image.image, fileName: image.file_name, fileType: image.file_type }] : [],
    isAdmin,
    ...methods,
    passwordExpired,
    recoveryCodesLeft,
    passkeys,
  };
}

/** userView by id; undefined when the account is gone. */
export async function userViewById(
  db: Kysely<AppDatabase>,
  userId: number,
  passwordExpired: boolean,
): Promise<User | undefined> {
  const row = await findUserById(db, userId);
  return row ? userView(db, row, passwordExpired) : undefined;
}

/** The session verification `{token, user, links, expiration}` (spec 000 §3) for a live session. */
export async function buildVerification(
  store: AppStore,
  account: SignedInAccount,
  session: CurrentSession,
): Promise<Verification> {
  const user = await userViewById(store.db, account.userId, account.passwordExpired);
  if (!user) throw new ApiError(401, am.signInRequired);
  return { token: session.token, user, links: account.links, expiration: session.expiresAt };
}
