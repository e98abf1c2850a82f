import type { FastifyRequest } from 'fastify';
import {
  emailField,
  otpField,
  phoneField,
  type MethodVerified,
  type TotpSetup,
  type TwoFactorMethod,
  type User,
} from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import type { z } from 'zod';
import { writeAudit } from '#server/store/audit.ts';
import {
  currentAccountCode,
  reserveCodeGuess,
  retireSpentCode,
  useCode,
} from '#server/store/one-time-codes.ts';
import { findUserById, updateUser, type UserRow } from '#server/store/users.ts';
import { safeEqual, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import { accountRules, type AccountDeps } from './account-deps.ts';
import { deliverCode, issueCode } from './code-delivery.ts';
import { claimTotpStep } from './login-service.ts';
import { firstRecoveryCodes } from './recovery-code-service.ts';
import { endOtherSessions } from './session-service.ts';
import { verifiedMethods } from './sign-in-methods.ts';
import { matchTotp, newTotpSecret, totpEnrolment } from './totp.ts';
import { userView } from './user-view.ts';

const CONFIRM_PURPOSE = 'confirm';

/** A path segment checked with a field schema; a failure answers the field's own message (400). */
export function parseField<T extends z.ZodType>(schema: T, value: string): z.output<T> {
  const checked = schema.safeParse(value);
  if (!checked.success) throw new ApiError(400, checked.error.issues[0]?.message ?? m.otpFailed);
  return checked.data;
}

async function ownUser(deps: AccountDeps, account: SignedInAccount): Promise<UserRow> {
  const user = await findUserById(deps.store.db, account.userId);
  if (!user) throw new ApiError(401, am.accountGone);
  return user;
}

/**
 * GET /api/account/eotp/{email} and potp/{phone}: sends a code to the address to confirm it (15 minutes; a new
 * code replaces the last; at most one a minute).
 */
export async function sendSetupCode(
  deps: AccountDeps,
  account: SignedInAccount,
  channel: 'Email' | 'Phone',
  rawTarget: string,
): Promise<string> {
  const target = channel === 'Email' ? parseField(emailField, rawTarget) : parseField(phoneField, rawTarget);
  const user = await ownUser(deps, account);
  const now = deps.now();
  const last = await deps.store.db
    .selectFrom('one_time_codes')
    .select('created_at')
    .where('user_id', '=', user.id)
    .where('purpose', '=', CONFIRM_PURPOSE)
    .where('channel', '=', channel)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const wait = last ? Date.parse(last.created_at) + accountRules.resendLockMs - now.getTime() : 0;
  if (wait > 0) throw new ApiError(429, m.resendWait(Math.ceil(wait / 1000)));
  const code = await issueCode(deps, { userId: user.id, purpose: CONFIRM_PURPOSE, channel, target }, now);
  await deliverCode(deps, { channel, to: target, code, purpose: 'confirm-email' });
  return target;
}

/**
 * GET /api/account/eotp/verify/{code} and potp/verify/{code}: a right code sets and verifies the address. Five
 * wrong guesses end the code.
 */
export async function verifySetupCode(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  channel: 'Email' | 'Phone',
  rawCode: string,
): Promise<MethodVerified> {
  const otp = parseField(otpField, rawCode);
  const now = deps.now().toISOString();
  const code = await currentAccountCode(
    deps.store.db,
    { userId: account.userId, purpose: CONFIRM_PURPOSE, channel },
    now,
  );
  if (!code || !code.target) throw new ApiError(400, am.codeExpired);
  // A guess is reserved before the comparison, so parallel guesses compare at most five times.
  const guesses = accountRules.setupCodeGuesses;
  if (!(await reserveCodeGuess(deps.store.db, code.id, guesses))) throw new ApiError(400, m.otpFailed);
  if (!safeEqual(code.code_hash, sha256Hex(otp))) {
    await retireSpentCode(deps.store.db, code.id, guesses, now);
    throw new ApiError(400, m.otpFailed);
  }
  if (!(await useCode(deps.store.db, code.id, now))) throw new ApiError(400, m.otpFailed);
  await updateUser(
    deps.store.db,
    account.userId,
    channel === 'Email'
      ? { email: code.target, email_verified_at: now }
      : { phone: code.target, phone_verified_at: now },
    now,
  );
  return methodVerified(deps, request, account, channel);
}

/** GET /api/account/totp: a new authenticator secret (pending until a code confirms it), its QR code and URI. */
export async function startTotpSetup(deps: AccountDeps, account: SignedInAccount): Promise<TotpSetup> {
  const secret = newTotpSecret();
  const now = deps.now().toISOString();
  await updateUser(deps.store.db, account.userId, { totp_pending_secret: deps.secrets.seal(secret) }, now);
  const { uri, qr } = await totpEnrolment(secret, account.username);
  return { key: secret, qr, uri };
}

/** GET /api/account/totp/verify/{code}: a code of the scanned secret makes it the account's authenticator. */
export async function verifyTotpSetup(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  rawCode: string,
): Promise<MethodVerified> {
  const otp = parseField(otpField, rawCode);
  const user = await ownUser(deps, account);
  if (!user.totp_pending_secret) throw new ApiError(400, am.totpSetupFirst);
  const now = deps.now();
  const step = matchTotp(deps.secrets.open(user.totp_pending_secret), otp, now, null);
  if (step === null) throw new ApiError(400, m.otpFailed);
  await updateUser(
    deps.store.db,
    user.id,
    {
      totp_secret: user.totp_pending_secret,
      totp_pending_secret: null,
      totp_verified_at: now.toISOString(),
      totp_last_step: null,
    },
    now.toISOString(),
  );
  // The code just used cannot sign in as well.
  await claimTotpStep(deps, user.id, step);
  return methodVerified(deps, request, account, 'Totp');
}

/** After a method is verified: audit, end the account's other sessions, issue the first recovery codes. */
async function methodVerified(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  method: TwoFactorMethod,
): Promise<MethodVerified> {
  await writeAudit(deps.store.db, {
    userId: account.userId,
    action: `2fa.${method.toLowerCase()}-verified`,
    target: `user:${account.userId}`,
    address: request.ip,
  });
  await endOtherSessions(deps, account.userId, account.sessionId);
  const recoveryCodes = await firstRecoveryCodes(deps, account.userId, request.ip);
  const user = await ownUser(deps, account);
  return { user: await userView(deps.store.db, user, account.passwordExpired), recoveryCodes };
}

/** POST /api/account/preferred2fa (and the user upsert): only a verified method can be preferred. */
export async function setPreferred(
  deps: AccountDeps,
  account: SignedInAccount,
  method: TwoFactorMethod,
  address: string,
): Promise<User> {
  const user = await ownUser(deps, account);
  if (!verifiedMethods(user).includes(method)) throw new ApiError(400, am.methodNotVerified);
  const now = deps.now().toISOString();
  if (user.preferred_2fa !== method) {
    await updateUser(deps.store.db, user.id, { preferred_2fa: method }, now);
    await writeAudit(deps.store.db, {
      userId: user.id,
      action: '2fa.preferred',
      target: `user:${user.id}`,
      detail: { method },
      address,
    });
  }
  return userView(deps.store.db, { ...user, preferred_2fa: method }, account.passwordExpired);
}
