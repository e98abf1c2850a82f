import type { FastifyRequest } from 'fastify';
import type { Verification } from '#common/contract/account.ts';
import { writeAudit } from '#server/store/audit.ts';
import { linksOfUser, userIsAdmin } from '#server/store/roles.ts';
import { insertSession, revokeSession, revokeSessionsOfUser } from '#server/store/sessions.ts';
import { clearFailuresUnlessLocked, type UserRow } from '#server/store/users.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { rebindXsrf } from '#server/plugins/csrf.ts';
import { passwordIsExpired, slidingExpiry } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { buildVerification } from './user-view.ts';

export interface NewSessionOptions {
  /** The second step that completed the sign-in. */
  method: string;
  /** A forgot-password sign-in: the password must be changed. */
  resetPassword: boolean;
  address: string | null;
  /** What the caller answers every refusal with, here when the account locked during the sign-in. */
  refusal: string;
}

/**
 * Starts a session after a complete sign-in: a new random token (stored hashed), the idle expiry capped by the
 * absolute lifetime, counted as a fresh re-authentication; the account's failure count starts again. Answers the
 * verification; the XSRF cookie of the answer is bound to the new session.
 */
export async function startSession(
  deps: AccountDeps,
  request: FastifyRequest,
  user: UserRow,
  options: NewSessionOptions,
): Promise<Verification> {
  const now = deps.now();
  const token = randomToken();
  const absoluteExpiresAt = new Date(now.getTime() + deps.config.sessionMaxHours * 3_600_000).toISOString();
  const expiresAt = slidingExpiry(now, absoluteExpiresAt, deps.config.sessionIdleMinutes);
  const sessionId = await insertSession(
    deps.store.db,
    {
      userId: user.id,
      tokenHash: sha256Hex(token),
      expiresAt,
      absoluteExpiresAt,
      resetPassword: options.resetPassword,
      method: options.method,
      address: options.address,
    },
    now.toISOString(),
  );
  // Checked after the session exists: a lock that lands from here on ends it with the account's others (0013), and
  // one that landed before is seen here, so no session outlives a lock.
  if (!(await clearFailuresUnlessLocked(deps.store.db, user.id, now.toISOString()))) {
    await revokeSession(deps.store.db, sessionId, now.toISOString());
    await writeAudit(deps.store.db, {
      userId: user.id,
      action: 'sign-in.refused-locked',
      target: `user:${user.id}`,
      address: options.address,
    });
    throw new ApiError(401, options.refusal);
  }
  const [isAdmin, links] = await Promise.all([
    userIsAdmin(deps.store.db, user.id),
    linksOfUser(deps.store.db, user.id),
  ]);
  const account = {
    userId: user.id,
    username: user.username,
    isAdmin,
    sessionId,
    links,
    reauthenticatedAt: now.toISOString(),
    passwordExpired: passwordIsExpired(
      { ...user, reset_password: options.resetPassword ? 1 : 0 },
      deps.config.passwordMaxAgeDays,
      now,
    ),
  };
  rebindXsrf(request, sessionId);
  return buildVerification(deps.store, account, { id: sessionId, token, expiresAt });
}

/** Ends the caller's session (logout); signed-out callers get the same answer. */
export async function endSession(deps: AccountDeps, request: FastifyRequest): Promise<void> {
  const account = request.account;
  if (!account) return;
  await revokeSession(deps.store.db, account.sessionId, deps.now().toISOString());
  await writeAudit(deps.store.db, {
    userId: account.userId,
    action: 'sign-out',
    target: `user:${account.userId}`,
    address: request.ip,
  });
  rebindXsrf(request, null);
}

/** Ends every other session of the account (password change, two-factor change). */
export async function endOtherSessions(
  deps: AccountDeps,
  userId: number,
  keepSessionId: number,
): Promise<number> {
  return revokeSessionsOfUser(deps.store.db, userId, keepSessionId, deps.now().toISOString());
}
