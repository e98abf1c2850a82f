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
import { currentAccountCode, useCode, wasIssuedForAttempt } from '#server/store/one-time-codes.ts';
import type { PasskeyAuthenticationResponse } from '#common/contract/passkeys.ts';
import { countPasskeys } from '#server/store/passkeys.ts';
import { countRecoveryCodes, hasUsedRecoveryCode } from '#server/store/recovery-codes.ts';
import {
  claimSend,
  closeAttempt,
  deleteExpiredAttempts,
  findOpenAttempt,
  isAttemptCompleted,
  insertAttempt,
  moveAttemptOn,
  type AttemptPurpose,
  type SignInAttemptRow,
} from '#server/store/sign-in-attempts.ts';
import { findUserById, findUserByUsername, updateUser, type UserRow } from '#server/store/users.ts';
import { hashPassword, verifyPassword } from '#server/crypto/password-hash.ts';
import { randomToken, safeEqual, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { accountRules, type AccountDeps } from './account-deps.ts';
import { deliverQuietly, issueCode } from './code-delivery.ts';
import { requireHumanCheck } from './human-check.ts';
import { recordFailure, refuseUnchecked, releaseCheckSlot, reserveCheckSlot } from './lockout.ts';
import { checkPasskeyStep } from './passkey-service.ts';
import { normalizeRecoveryCode, redeemRecoveryCode } from './recovery-code-service.ts';
import { signInMethodsOf, type SignInMethods } from './sign-in-methods.ts';
import { startSession } from './session-service.ts';
import { matchTotp } from './totp.ts';
import { countSignInFailure } from '#server/features/metrics/account-counts.ts';

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
 * POST /api/account/login: the human check, the lockout, then the password (argon2id; unknown usernames are checked
 * against a dummy hash, so they take as long); then a pre-sign-in key, with a code sent by the preferred method.
 * The password is checked only under a slot of the lockout (lockout.ts), so no burst checks more than five.
 * Every refusal is the same 'Failed to login... Please try again.'.
 */
export async function login(deps: AccountDeps, body: LoginRequest, address: string): Promise<PreSignIn> {
  await requireHumanCheck(deps, body.token);
  const user = await findUserByUsername(deps.store.db, body.username);
  if (user && !(await reserveCheckSlot(deps, user.id))) {
    // Refused unchecked, after the same hashing work as a check: the time tells no locked account from others.
    await verifyPassword(await hashForUnknownUsers(), body.password);
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
    throw new ApiError(401, m.loginFailed);
  }
  const matches = await verifyPassword(user?.password_hash ?? (await hashForUnknownUsers()), body.password);
  if (!user) {
    countSignInFailure('sign-in.unknown-username');
    throw new ApiError(401, m.loginFailed);
  }
  if (!user.password_hash || !matches) {
    await recordFailure(deps, user.id, 'sign-in.password-failed', address);
    throw new ApiError(401, m.loginFailed);
  }
  if (!(await releaseCheckSlot(deps, user.id))) {
    // The right password, but the account locked while it was checked.
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
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
    background: purposeOf(attempt) === 'reset',
  });
}

/**
 * POST /api/account/login/verify: the code of the selected method (or a recovery code) turns the pre-sign-in key
 * into a session. The code is checked under a slot of the lockout; a wrong code counts toward it, while a code this
 * sign-in already used (a double submit) is no guess and counts nothing. Every refusal says 'Failed to validate
 * OTP.'. With
 * selected2fa Passkey (POST /api/account/login/passkey/verify {key, response}) `passkey` is the authenticator's
 * answer.
 */
export async function verifyLogin(
  deps: AccountDeps,
  request: FastifyRequest,
  body: VerifyRequest,
  passkey?: PasskeyAuthenticationResponse,
): Promise<Verification | PreSignIn> {
  const now = deps.now();
  const address = request.ip;
  const keyHash = sha256Hex(body.key);
  const attempt = await findOpenAttempt(deps.store.db, keyHash, now.toISOString());
  if (!attempt) throw await closedKeyRefusal(deps, keyHash, now);
  if (!allowedOf(attempt).includes(body.selected2fa)) throw new ApiError(400, am.methodNotAllowed);
  const user = attempt.user_id === null ? undefined : await findUserById(deps.store.db, attempt.user_id);
  if (!user) throw new ApiError(401, m.otpFailed);
  if (!(await reserveCheckSlot(deps, user.id))) {
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
    throw new ApiError(401, m.otpFailed);
  }
  const outcome = await checkSecondStep(deps, attempt, user, body.selected2fa, body.otp, now, passkey);
  if (outcome === 'wrong') {
    await recordFailure(deps, user.id, 'sign-in.code-failed', address);
    throw new ApiError(401, m.otpFailed);
  }
  const open = await releaseCheckSlot(deps, user.id);
  if (!open) await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
  if (!open || outcome === 'used') throw new ApiError(401, m.otpFailed);
  if (attempt.purpose === 'reset') {
    const next = await recoverySecondStep(deps, attempt, user, body.key, address);
    if (next) return next;
  }
  // Another verify of the same key completed it a moment ago.
  if (!(await closeAttempt(deps.store.db, attempt.id, now.toISOString())))
    throw new ApiError(409, am.signInAlreadyComplete);

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
    refusal: m.otpFailed,
  });
}

/**
 * The refusal of a key that has no open attempt. A key whose sign-in was just completed is a second Verify of the
 * code that did it (a click as the typed code submitted itself, issue 32): 409, which says so, not the 401 of a
 * wrong code, which a client reads as its session's end although the session that code started is fine. Only the
 * holder of the key (a random secret the browser keeps) can tell the two apart, and nothing counts toward the lockout.
 */
async function closedKeyRefusal(deps: AccountDeps, keyHash: string, now: Date): Promise<ApiError> {
  return (await isAttemptCompleted(deps.store.db, keyHash, now.toISOString()))
    ? new ApiError(409, am.signInAlreadyComplete)
    : new ApiError(401, m.otpFailed);
}

/** The envelope of login/verify: the session, or the next step of a recovery with the sentence that says so. */
export function verified(answer: Verification | PreSignIn) {
  return success(answer, 'token' in answer ? null : am.recoveryNextStep);
}

/**
 * Forgot password asks what a sign-in asks (docs/decisions/0016-account-recovery.md): the emailed code stands in for
 * the password, so an account with a second step beyond email (Phone, Totp, Passkey) must still give one of them, or
 * a recovery code. After the emailed code the attempt moves on to those methods under the same key (a phone code is
 * sent when Phone is preferred), and its next step is answered; an account whose only second step is email needs
 * nothing more (null).
 */
async function recoverySecondStep(
  deps: AccountDeps,
  attempt: SignInAttemptRow,
  user: UserRow,
  key: string,
  address: string,
): Promise<PreSignIn | null> {
  const methods = signInMethodsOf(
    user,
    await countRecoveryCodes(deps.store.db, user.id),
    await countPasskeys(deps.store.db, user.id),
  );
  const allowed = methods.allowed2fa.filter((method) => method !== 'Email');
  if (!allowed.some((method) => method !== 'Recovery')) return null;
  // The account's preferred step when it is one of these (an email preference falls to the first other method).
  const preferred =
    allowed.find((method) => method === methods.preferred2fa) ??
    allowed.find((method) => method !== 'Recovery') ??
    'Recovery';
  if (!(await moveAttemptOn(deps.store.db, attempt.id, RECOVERY_SECOND_STEP, allowed)))
    throw new ApiError(401, m.otpFailed);
  await writeAudit(deps.store.db, {
    userId: user.id,
    action: 'password.reset-email-confirmed',
    target: `user:${user.id}`,
    address,
  });
  if (preferred === 'Phone') {
    await sendSignInCode(deps, { id: attempt.id, purpose: 'reset', user }, 'Phone', { background: false });
  }
  return { key, allowed2fa: allowed, preferred2fa: preferred, disableSelect2fa: allowed.length === 1 };
}

/** A second step checked: right (and used up now), wrong (a guess), or a right code already used — sent twice at
 * once, or again — which is no guess. */
type StepOutcome = 'right' | 'wrong' | 'used';

/** Checks the second step; every method's check is once-only. */
async function checkSecondStep(
  deps: AccountDeps,
  attempt: SignInAttemptRow,
  user: UserRow,
  method: SignInMethod,
  otp: string,
  now: Date,
  passkey?: PasskeyAuthenticationResponse,
): Promise<StepOutcome> {
  const db = deps.store.db;
  switch (method) {
    case 'Email':
    case 'Phone': {
      const where = { userId: user.id, purpose: SIGN_IN_PURPOSE, channel: method, attemptId: attempt.id };
      const hash = sha256Hex(otp);
      const code = await currentAccountCode(db, where, now.toISOString());
      if (code && safeEqual(code.code_hash, hash))
        return (await useCode(db, code.id, now.toISOString())) ? 'right' : 'used';
      // A code this sign-in was sent (used, replaced by a resend, or run out) was not guessed.
      return (await wasIssuedForAttempt(db, where, hash)) ? 'used' : 'wrong';
    }
    case 'Totp': {
      if (!user.totp_secret || !user.totp_verified_at) return 'wrong';
      const secret = deps.secrets.open(user.totp_secret);
      const step = matchTotp(secret, otp, now, user.totp_last_step);
      if (step !== null) return (await claimTotpStep(deps, user.id, step)) ? 'right' : 'used';
      // A code of the current time steps whose step was used already.
      return matchTotp(secret, otp, now, null) !== null ? 'used' : 'wrong';
    }
    case 'Recovery': {
      if (await redeemRecoveryCode(deps, user.id, otp)) return 'right';
      const hash = sha256Hex(normalizeRecoveryCode(otp));
      return (await hasUsedRecoveryCode(db, user.id, hash)) ? 'used' : 'wrong';
    }
    case 'Passkey':
      return passkey !== undefined && (await checkPasskeyStep(deps, attempt.id, user.id, passkey))
        ? 'right'
        : 'wrong';
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

/** The stored purpose of a recovery whose emailed code was right and whose second step is still to come. */
const RECOVERY_SECOND_STEP = 'reset-second-step';

function purposeOf(attempt: SignInAttemptRow): AttemptPurpose {
  if (attempt.purpose === RECOVERY_SECOND_STEP) return 'reset';
  return attempt.purpose === 'signup' || attempt.purpose === 'reset' ? attempt.purpose : 'sign-in';
}
