import type { FastifyRequest } from 'fastify';
import type { ReauthRequest } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { markReauthenticated } from '#server/store/sessions.ts';
import { clearLoginFailures, findUserById } from '#server/store/users.ts';
import { verifyPassword } from '#server/features/auth/password-hash.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { isLocked, recordFailure } from './lockout.ts';
import { claimTotpStep } from './login-service.ts';
import { matchTotp } from './totp.ts';

/**
 * POST /api/account/reauth: the password (or a code of the authenticator app) proves the person is still there;
 * changes that need a recent proof are allowed for the next 10 minutes. Failures count toward the lockout.
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
  let ok: boolean;
  const password = body.password;
  if (password !== undefined) {
    ok = !!user.password_hash && (await verifyPassword(user.password_hash, password));
  } else {
    const step =
      user.totp_secret && user.totp_verified_at && body.otp
        ? matchTotp(deps.secrets.open(user.totp_secret), body.otp, now, user.totp_last_step)
        : null;
    ok = step !== null && (await claimTotpStep(deps, user.id, step));
  }
  const refusal = password !== undefined ? am.passwordWrong : m.otpFailed;
  if (isLocked(user, now)) throw new ApiError(400, refusal);
  if (!ok) {
    await recordFailure(deps, user.id, 'reauth.failed', request.ip);
    throw new ApiError(400, refusal);
  }
  await clearLoginFailures(deps.store.db, user.id);
  await markReauthenticated(deps.store.db, account.sessionId, now.toISOString());
  await writeAudit(deps.store.db, {
    userId: user.id,
    action: 'reauth',
    target: `user:${user.id}`,
    address: request.ip,
  });
}
