import type { FastifyRequest } from 'fastify';
import type {
  LoginRequest,
  PreSignIn,
  ResendRequest,
  SignInMethod,
  Verification,
  VerifyRequest,
} from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { currentAccountCode, useCode } from '#server/store/one-time-codes.ts';
import type { PasskeyAuthenticationResponse } from '#common/contract/passkeys.ts';
import { countPasskeys } from '#server/store/passkeys.ts';
import { countRecoveryCodes } from '#server/store/recovery-codes.ts';
import {
  claimSend,
  closeAttempt,
  deleteExpiredAttempts,
  findOpenAttempt,
  insertAttempt,
  type AttemptPurpose,
  type SignInAttemptRow,
} from '#server/store/sign-in-attempts.ts';
import {
  clearLoginFailures,
  findUserById,
  findUserByUsername,
  updateUser,
  type UserRow,
} from '#server/store/users.ts';
import { hashPassword, verifyPassword } from '#server/features/auth/password-hash.ts';
import { randomToken, safeEqual, sha256Hex } from '#server/features/auth/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { accountRules, type AccountDeps } from './account-deps.ts';
import { deliverQuietly, issueCode } from './code-delivery.ts';
import { requireHumanCheck } from './human-check.ts';
import { isLocked, recordFailure } from './lockout.ts';
import { checkPasskeyStep } from './passkey-service.ts';
import { redeemRecoveryCode } from './recovery-code-service.ts';
import { signInMethodsOf, type SignInMethods } from './sign-in-methods.ts';
import { startSession } from './session-service.ts';
import { matchTotp } from './totp.ts';

const SIGN_IN_PURPOSE = 'sign-in';
/** Signup and forgot password go by email only: the code proves the address. */
export const EMAIL_ONLY: SignInMethods = {
  allowed2fa: ['Email'],
  preferred2fa: 'Email',
  disableSelect2fa: true,
};
const MAIL_PURPOSE = { 'sign-in': 'sign-in', signup: 'confirm-email', reset: 'reset-password' } as const;

let dummyHash: Promise<string> | null = null;
/** A hash to check unknown usernames against, so they cost the same argon2 work as known ones. */
function hashForUnknownUsers(): Promise<string> {
  dummyHash ??= hashPassword(randomToken());
  return dummyHash;
}

/** `pu` (0005): the base64 of the JSON of a pre-sign-in answer. */
export function encodePreSignIn(preSignIn: PreSignIn): string {
  return Buffer.from(JSON.stringify(preSignIn), 'utf8').toString('base64');
}

/**
 * POST /api/account/login: the human check, the password (argon2id; unknown usernames are checked against a dummy
 * hash, so they take as long) and the lockout; then a pre-sign-in key, with a code sent by the preferred method.
 * Every refusal is the same 'Failed to login... Please try again.'.
 */
export async function login(deps: AccountDeps, body: LoginRequest, address: string): Promise<PreSignIn> {
  await requireHumanCheck(deps, body.token);
  const user = await findUserByUsername(deps.store.db, body.username);
  const matches = await verifyPassword(user?.password_hash ?? (await hashForUnknownUsers()), body.password);
  if (!user) throw new ApiError(401, m.loginFailed);
  if (isLocked(user, deps.now())) {
    await writeAudit(deps.store.db, {
      userId: user.id,
      action: 'sign-in.refused-locked',
      target: `user:${user.id}`,
      address,
    });
    throw new ApiError(401, m.loginFailed);
  }
  if (!user.password_hash || !matches) {
    await recordFailure(deps, user.id, 'sign-in.password-failed', address);
    throw new ApiError(401, m.loginFailed);
  }
  const methods = signInMethodsOf(
    user,
    await countRecoveryCodes(deps.store.db, user.id),
    await countPasskeys(deps.store.db, user.id),
  );
  return beginAttempt(deps, user, 'sign-in', methods, address, { background: false });
}

/**
 * Opens a pre-sign-in (10 minutes) and sends the first code by the preferred method (Email or Phone; the app
 * needs none). `user` null (unknown username in forgot password) opens a key that can never verify, with the same
 * answer.
 */
export async function beginAttempt(
  deps: AccountDeps,
  user: UserRow | null,
  purpose: AttemptPurpose,
  methods: SignInMethods,
  address: string,
  options: { background: boolean },
): Promise<PreSignIn> {
  const now = deps.now();
  await deleteExpiredAttempts(deps.store.db, new Date(now.getTime() - 86_400_000).toISOString());
  const key = randomToken();
  const attemptId = await insertAttempt(
    deps.store.db,
    {
      userId: user?.id ?? null,
      keyHash: sha256Hex(key),
      purpose,
      allowed: methods.allowed2fa,
      expiresAt: new Date(now.getTime() + accountRules.preSignInLifetimeMs).toISOString(),
      address,
    },
    now.toISOString(),
  );
  const preferred = methods.preferred2fa;
  if (preferred === 'Email' || preferred === 'Phone') {
    await sendSignInCode(deps, { id: attemptId, purpose, user }, preferred, options);
  }
  return { key, ...methods };
}

/** Sends a new sign-in code for an attempt by `channel`, unless one went out by it within the last 60 s. */
async function sendSignInCode(
  deps: AccountDeps,
  attempt: { id: number; purpose: AttemptPurpose; user: UserRow | null },
  channel: 'Email' | 'Phone',
  options: { background: boolean },
): Promise<void> {
  const now = deps.now();
  const lockedBefore = new Date(now.getTime() - accountRules.resendLockMs).toISOString();
  if (!(await claimSend(deps.store.db, attempt.id, channel, now.toISOString(), lockedBefore))) {
    throw new ApiError(429, await resendWaitMessage(deps, attempt.id, channel));
  }
  const user = attempt.user;
  const to = channel === 'Email' ? user?.email : user?.phone;
  if (!user || !to) return;
  const code = await issueCode(
    deps,
    { userId: user.id, purpose: SIGN_IN_PURPOSE, channel, attemptId: attempt.id },
    now,
  );
  await deliverQuietly(deps, { channel, to, code, purpose: MAIL_PURPOSE[attempt.purpose] }, options);
}

async function resendWaitMessage(deps: AccountDeps, attemptId: number, channel: 'Email' | 'Phone') {
  const row = await deps.store.db
    .selectFrom('sign_in_attempts')
    .select(['email_sent_at', 'phone_sent_at'])
    .where('id', '=', attemptId)
    .executeTakeFirst();
  const sentAt = channel === 'Email' ? row?.email_sent_at : row?.phone_sent_at;
  const left = sentAt ? Date.parse(sentAt) + accountRules.resendLockMs - deps.now().getTime() : 0;
  return m.resendWait(Math.max(1, Math.ceil(left / 1000)));
}

/** POST /api/account/login/resend: another code by Email or Phone, locked for 60 s per method. */
export async function resend(deps: AccountDeps, body: ResendRequest): Promise<void> {
  const attempt = await findOpenAttempt(deps.store.db, sha256Hex(body.key), deps.now().toISOString());
  if (!attempt) throw new ApiError(400, m.resendFailed);
  const channel = body.selected2fa;
  if (channel !== 'Email' && channel !== 'Phone') throw new ApiError(400, am.noCodeForTotp);
  if (!allowedOf(attempt).includes(channel)) throw new ApiError(400, am.methodNotAllowed);
  const user =
    attempt.user_id === null ? null : ((await findUserById(deps.store.db, attempt.user_id)) ?? null);
  await sendSignInCode(deps, { id: attempt.id, purpose: purposeOf(attempt), user }, channel, {
    background: attempt.purpose === 'reset',
  });
}

/**
 * POST /api/account/login/verify: the code of the selected method (or a recovery code) turns the pre-sign-in key
 * into a session. A wrong code counts toward the lockout; every refusal says 'Failed to validate OTP.'. With
 * selected2fa Passkey (POST /api/account/login/passkey/verify {key, response}) `passkey` is the authenticator's
 * answer.
 */
export async function verifyLogin(
  deps: AccountDeps,
  request: FastifyRequest,
  body: VerifyRequest,
  passkey?: PasskeyAuthenticationResponse,
): Promise<Verification> {
  const now = deps.now();
  const address = request.ip;
  const attempt = await findOpenAttempt(deps.store.db, sha256Hex(body.key), now.toISOString());
  if (!attempt) throw new ApiError(401, m.otpFailed);
  if (!allowedOf(attempt).includes(body.selected2fa)) throw new ApiError(400, am.methodNotAllowed);
  const user = attempt.user_id === null ? undefined : await findUserById(deps.store.db, attempt.user_id);
  if (!user) throw new ApiError(401, m.otpFailed);
  if (isLocked(user, now)) {
    await writeAudit(deps.store.db, {
      userId: user.id,
      action: 'sign-in.refused-locked',
      target: `user:${user.id}`,
      address,
    });
    throw new ApiError(401, m.otpFailed);
  }
  if (!(await checkSecondStep(deps, attempt, user, body.selected2fa, body.otp, now, passkey))) {
    await recordFailure(deps, user.id, 'sign-in.code-failed', address);
    throw new ApiError(401, m.otpFailed);
  }
  if (!(await closeAttempt(deps.store.db, attempt.id, now.toISOString())))
    throw new ApiError(401, m.otpFailed);

  await clearLoginFailures(deps.store.db, user.id);
  let signedIn = user;
  if (body.selected2fa === 'Email' && !user.email_verified_at) {
    // The code went to the address: it is confirmed now (signup, or an account with nothing verified yet).
    await updateUser(deps.store.db, user.id, { email_verified_at: now.toISOString() }, now.toISOString());
    signedIn = { ...user, email_verified_at: now.toISOString() };
  }
  const purpose = purposeOf(attempt);
  await writeAudit(deps.store.db, {
    userId: user.id,
    action: purpose === 'reset' ? 'sign-in.password-reset' : 'sign-in',
    target: `user:${user.id}`,
    detail: { method: body.selected2fa },
    address,
  });
  if (body.selected2fa === 'Recovery') {
    await writeAudit(deps.store.db, {
      userId: user.id,
      action: 'recovery-code.used',
      target: `user:${user.id}`,
      address,
    });
  }
  return startSession(deps, request, signedIn, {
    method: body.selected2fa,
    resetPassword: purpose === 'reset',
    address,
  });
}

/** Checks the second step; every method's check is once-only. */
async function checkSecondStep(
  deps: AccountDeps,
  attempt: SignInAttemptRow,
  user: UserRow,
  method: SignInMethod,
  otp: string,
  now: Date,
  passkey?: PasskeyAuthenticationResponse,
): Promise<boolean> {
  const db = deps.store.db;
  switch (method) {
    case 'Email':
    case 'Phone': {
      const code = await currentAccountCode(
        db,
        { userId: user.id, purpose: SIGN_IN_PURPOSE, channel: method, attemptId: attempt.id },
        now.toISOString(),
      );
      return !!code && safeEqual(code.code_hash, sha256Hex(otp)) && useCode(db, code.id, now.toISOString());
    }
    case 'Totp': {
      if (!user.totp_secret || !user.totp_verified_at) return false;
      const step = matchTotp(deps.secrets.open(user.totp_secret), otp, now, user.totp_last_step);
      return step !== null && claimTotpStep(deps, user.id, step);
    }
    case 'Recovery':
      return redeemRecoveryCode(deps, user.id, otp);
    case 'Passkey':
      return passkey !== undefined && checkPasskeyStep(deps, attempt.id, user.id, passkey);
  }
}

/** Records a TOTP step as used; false when it (or a later one) already was: a code works once. */
export async function claimTotpStep(deps: AccountDeps, userId: number, step: number): Promise<boolean> {
  const result = await deps.store.db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function allowedOf(attempt: SignInAttemptRow): string[] {
  return attempt.allowed.split(',');
}

function purposeOf(attempt: SignInAttemptRow): AttemptPurpose {
  return attempt.purpose === 'signup' || attempt.purpose === 'reset' ? attempt.purpose : 'sign-in';
}
