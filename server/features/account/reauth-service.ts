import type { FastifyRequest } from 'fastify';
import type { ReauthRequest } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { markReauthenticated, revokeSession } from '#server/store/sessions.ts';
import { clearFailuresUnlessLocked, findUserById } from '#server/store/users.ts';
import { verifyPassword } from '#server/crypto/password-hash.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { recordFailure, releaseCheckSlot, reserveCheckSlot } from './lockout.ts';
import { claimTotpStep } from './login-service.ts';
import { matchTotp } from './totp.ts';

/**
 * POST /api/account/reauth: the password (or a code of the authenticator app) proves the person is still there;
 * changes that need a recent proof are allowed for the next 10 minutes. Checks are made under a slot of the lockout
 * and failures count toward it; the session whose failures lock the account ends (0013): whoever holds it could not
 * show it is theirs.
 */
export async function reauthenticate(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  body: ReauthRequest,
): Promise<void> {
  const user = await findUserById(deps.store.db, account.userId);
  if (!user) throw new ApiError(401, am.accountGone);
  const now = deps.now();
  const password = body.password;
  const refusal = password !== undefined ? am.passwordWrong : m.otpFailed;
  if (!(await reserveCheckSlot(deps, user.id))) throw new ApiError(400, refusal);
  let outcome: 'right' | 'wrong' | 'used';
  if (password !== undefined) {
    outcome =
      !!user.password_hash && (await verifyPassword(user.password_hash, password)) ? 'right' : 'wrong';
  } else {
    const secret = user.totp_secret && user.totp_verified_at ? deps.secrets.open(user.totp_secret) : null;
    const step = secret && body.otp ? matchTotp(secret, body.otp, now, user.totp_last_step) : null;
    if (step !== null) outcome = (await claimTotpStep(deps, user.id, step)) ? 'right' : 'used';
    else outcome = secret && body.otp && matchTotp(secret, body.otp, now, null) !== null ? 'used' : 'wrong';
  }
  if (outcome === 'wrong') {
    if (await recordFailure(deps, user.id, 'reauth.failed', request.ip)) {
      await revokeSession(deps.store.db, account.sessionId, now.toISOString());
      await writeAudit(deps.store.db, {
        userId: user.id,
        action: 'session.ended-by-lockout',
        target: `user:${user.id}`,
        address: request.ip,
      });
    }
    throw new ApiError(400, refusal);
  }
  await releaseCheckSlot(deps, user.id);
  if (outcome === 'used') throw new ApiError(400, refusal);
  // Right, but refused if the account locked while it was checked.
  if (!(await clearFailuresUnlessLocked(deps.store.db, user.id, now.toISOString())))
    throw new ApiError(400, refusal);
  await markReauthenticated(deps.store.db, account.sessionId, now.toISOString());
  await writeAudit(deps.store.db, {
    userId: user.id,
    action: 'reauth',
    target: `user:${user.id}`,
    address: request.ip,
  });
}
