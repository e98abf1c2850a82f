import type { FastifyRequest } from 'fastify';
import type { ForgotPasswordRequest, UpdatePasswordRequest } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { clearResetMark } from '#server/store/sessions.ts';
import { findUserById, findUserByUsername, updateUser } from '#server/store/users.ts';
import { hashPassword, verifyPassword } from '#server/crypto/password-hash.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { commonPasswords } from './common-passwords.ts';
import { requireHumanCheck } from './human-check.ts';
import { EMAIL_ONLY, beginAttempt, encodePreSignIn } from './login-service.ts';
import { endOtherSessions } from './session-service.ts';

/** True for a password on the common list, alone or with only digits and symbols around it. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (commonPasswords.has(lower)) return true;
  const stem = lower.replace(/^[^a-z]+/, '').replace(/[^a-z]+$/, '');
  return stem.length > 0 && commonPasswords.has(stem);
}

/** Refuses a common password (400); the character rules were checked by the request schema. */
export function requireUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new ApiError(400, am.passwordTooCommon);
}

/**
 * POST /api/account/updatePassword (after a recent sign-in or re-authentication): sets the new password, clears
 * `passwordExpired` and the forgot-password mark, and ends every other session of the account.
 */
export async function updatePassword(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  body: UpdatePasswordRequest,
): Promise<void> {
  requireUncommonPassword(body.password);
  const user = await findUserById(deps.store.db, account.userId);
  if (!user) throw new ApiError(401, am.accountGone);
  if (user.password_hash && (await verifyPassword(user.password_hash, body.password))) {
    throw new ApiError(400, am.passwordUnchanged);
  }
  const passwordHash = await hashPassword(body.password);
  const now = deps.now().toISOString();
  await deps.store.db.transaction().execute(async (trx) => {
    await updateUser(
      trx,
      user.id,
      { password_hash: passwordHash, password_changed_at: now, password_expired: 0 },
      now,
    );
    await clearResetMark(trx, account.sessionId);
    await writeAudit(trx, {
      userId: user.id,
      action: 'password.changed',
      target: `user:${user.id}`,
      address: request.ip,
    });
  });
  await endOtherSessions(deps, user.id, account.sessionId);
}

/**
 * POST /api/account/forgotPassword: answers `pu` and sends a code to the account's email. Unknown usernames get
 * the same answer (a key that never verifies) in the same time: the mail goes out in the background.
 */
export async function forgotPassword(
  deps: AccountDeps,
  body: ForgotPasswordRequest,
  address: string,
): Promise<string> {
  await requireHumanCheck(deps, body.token);
  const user = (await findUserByUsername(deps.store.db, body.username)) ?? null;
  const preSignIn = await beginAttempt(deps, user, 'reset', EMAIL_ONLY, address, { background: true });
  if (user) {
    await writeAudit(deps.store.db, {
      userId: user.id,
      action: 'password.reset-requested',
      target: `user:${user.id}`,
      address,
    });
  }
  return encodePreSignIn(preSignIn);
}
