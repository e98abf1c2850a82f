import type { FastifyRequest } from 'fastify';
import {
  SECOND_STEP_LINK_PARAM,
  type SecondStepLinkRequest,
  type Verification,
} from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { replaceCode, useCode } from '#server/store/one-time-codes.ts';
import { closeAttempt, findOpenAttempt } from '#server/store/sign-in-attempts.ts';
import { findUserById } from '#server/store/users.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AccountDeps } from './account-deps.ts';
import { recordFailure, refuseUnchecked, releaseCheckSlot, reserveCheckSlot } from './lockout.ts';
import { startSession } from './session-service.ts';

/*
 * The second-step link (`dbui admin reset-2fa`, docs/decisions/0057-command-line-and-configuration-files.md): for
 * someone who lost every second factor, with no administrator left to help or no mailbox to receive a code. The
 * operator resets the account's second factors and gets a link; the person opens it, signs in with their password,
 * and the link stands in for the second step of that one sign-in. It works once, within 24 hours, only after the
 * account's own password; issuing and using it are audited. The session lands on the account page, where a new
 * second factor is set up (the sign-in counts as a recent re-authentication).
 */

const LINK_PURPOSE = 'second-step-link';
/** How long a second-step link works. */
export const SECOND_STEP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The page the link opens: the login page with the token, landing on the account page after the sign-in. */
export function secondStepLinkOf(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/account/login?r=%2Faccount&${SECOND_STEP_LINK_PARAM}=${token}`;
}

/**
 * Issues a second-step link for the account: a random token stored hashed (purpose `second-step-link`), valid for
 * 24 hours, replacing any earlier one of the account; audited `2fa.reset-link-issued` with who asked.
 */
export async function issueSecondStepLink(
  store: AppStore,
  userId: number,
  actor: { userId: number | null; now: Date; via?: string },
): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken();
  const now = actor.now.toISOString();
  const expiresAt = new Date(actor.now.getTime() + SECOND_STEP_LINK_LIFETIME_MS).toISOString();
  await store.db.transaction().execute(async (trx) => {
    await replaceCode(trx, { userId, purpose: LINK_PURPOSE, codeHash: sha256Hex(token), expiresAt }, now);
    await writeAudit(trx, {
      userId: actor.userId,
      action: '2fa.reset-link-issued',
      target: `user:${userId}`,
      detail: { expiresAt, ...(actor.via ? { via: actor.via } : {}) },
    });
  });
  return { token, expiresAt };
}

/**
 * POST /api/account/login/link {key, link}: after the password (the pre-sign-in key of a login), the link stands in
 * for the second step and the sign-in completes. Checked under a slot of the lockout like a code: a token never
 * issued to the account counts as a failure; one issued but used or expired is no guess and counts nothing. A key
 * of signup or forgot password is refused: the link replaces the second step, never the password.
 */
export async function signInWithSecondStepLink(
  deps: AccountDeps,
  request: FastifyRequest,
  body: SecondStepLinkRequest,
): Promise<Verification> {
  const now = deps.now();
  const address = request.ip;
  const attempt = await findOpenAttempt(deps.store.db, sha256Hex(body.key), now.toISOString());
  if (!attempt || attempt.purpose !== 'sign-in' || attempt.user_id === null)
    throw new ApiError(401, m.otpFailed);
  const user = await findUserById(deps.store.db, attempt.user_id);
  if (!user) throw new ApiError(401, m.otpFailed);
  if (!(await reserveCheckSlot(deps, user.id))) {
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
    throw new ApiError(401, m.otpFailed);
  }
  const issued = await deps.store.db
    .selectFrom('one_time_codes')
    .select(['id', 'used_at', 'expires_at'])
    .where('user_id', '=', user.id)
    .where('purpose', '=', LINK_PURPOSE)
    .where('code_hash', '=', sha256Hex(body.link))
    .executeTakeFirst();
  if (!issued) {
    await recordFailure(deps, user.id, 'sign-in.link-failed', address);
    throw new ApiError(401, am.secondStepLinkInvalid);
  }
  // The slot is given back before the link is used, so a lock that landed meanwhile does not spend the link.
  if (!(await releaseCheckSlot(deps, user.id))) {
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
    throw new ApiError(401, m.otpFailed);
  }
  const usable = issued.used_at === null && issued.expires_at > now.toISOString();
  if (!usable || !(await useCode(deps.store.db, issued.id, now.toISOString())))
    throw new ApiError(401, am.secondStepLinkInvalid);
  if (!(await closeAttempt(deps.store.db, attempt.id, now.toISOString())))
    throw new ApiError(409, am.signInAlreadyComplete);
  await writeAudit(deps.store.db, {
    userId: user.id,
    action: '2fa.reset-link-used',
    target: `user:${user.id}`,
    address,
  });
  await writeAudit(deps.store.db, {
    userId: user.id,
    action: 'sign-in',
    target: `user:${user.id}`,
    detail: { method: 'Link' },
    address,
  });
  return startSession(deps, request, user, {
    method: 'Link',
    resetPassword: false,
    address,
    refusal: m.otpFailed,
  });
}
