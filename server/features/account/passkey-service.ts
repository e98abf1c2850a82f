import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { z } from 'zod';
import type { Verification } from '#common/contract/account.ts';
import {
  PASSKEYS_MAX,
  type PasskeyAuthenticationResponse,
  type PasskeyLoginOptions,
  type PasskeyRegisterRequest,
  type PasskeyRegistrationResponse,
  type PasskeySummary,
} from '#common/contract/passkeys.ts';
import { accountApiMessages as am, accountMessages as m, passkeyMessages as pm } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { consumeCode } from '#server/store/one-time-codes.ts';
import {
  countPasskeys,
  deleteExpiredPasskeyChallenges,
  deletePasskey,
  findPasskeyByCredentialId,
  insertPasskey,
  insertPasskeyChallenge,
  passkeysOfUser,
  recordPasskeyUse,
  type PasskeyRow,
} from '#server/store/passkeys.ts';
import { sharedSecret } from '#server/store/settings.ts';
import { findOpenAttempt } from '#server/store/sign-in-attempts.ts';
import { findUserById } from '#server/store/users.ts';
import { randomToken, safeEqual, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { recordFailure, refuseUnchecked, releaseCheckSlot, reserveCheckSlot } from './lockout.ts';
import { endOtherSessions, startSession } from './session-service.ts';

/** @simplewebauthn/server, loaded on the first passkey ceremony: it takes 0.4 s to load, too much for every start. */
const webauthn = () => import('@simplewebauthn/server');

/*
 * Passkeys (docs/decisions/0009-passkeys.md). A challenge is stored as a one_time_codes row: SHA-256 of what it is
 * bound to (the session that registers, the sign-in ceremony, or the pre-sign-in attempt) with the challenge, for
 * five minutes, used once. The verify calls find it by hashing the challenge the authenticator signed with the
 * binding the caller presents, so a challenge from elsewhere, an expired one or a used one is never found.
 */

const REGISTER = 'passkey-register';
const SIGN_IN = 'passkey-sign-in';
const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
const USER_HANDLE_KEY = 'webauthn-user-handle-key';

/** The relying party of PUBLIC_URL: its origin, and its host name as RP ID. Browsers refuse IP addresses. */
export function relyingParty(publicUrl: string): { id: string; origin: string } {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) throw new ApiError(503, pm.needsHostName);
  return { id: host, origin: url.origin };
}

/** The WebAuthn user handle of an account: an HMAC of its id (stable, opaque, no personal data). */
async function userHandleOf(deps: AccountDeps, userId: number): Promise<Uint8Array<ArrayBuffer>> {
  const key = await sharedSecret(deps.store.db, USER_HANDLE_KEY, () => randomBytes(32).toString('base64url'));
  return new Uint8Array(createHmac('sha256', key).update(`user:${userId}`).digest());
}

const challengeDigest = (binding: string, challenge: string) => sha256Hex(`${binding}|${challenge}`);

async function storeChallenge(
  deps: AccountDeps,
  challenge: {
    purpose: string;
    binding: string;
    value: string;
    userId: number | null;
    attemptId: number | null;
  },
): Promise<void> {
  const now = deps.now();
  await deleteExpiredPasskeyChallenges(deps.store.db, [REGISTER, SIGN_IN], now.toISOString());
  await insertPasskeyChallenge(
    deps.store.db,
    {
      purpose: challenge.purpose,
      digest: challengeDigest(challenge.binding, challenge.value),
      userId: challenge.userId,
      attemptId: challenge.attemptId,
      expiresAt: new Date(now.getTime() + CHALLENGE_LIFETIME_MS).toISOString(),
    },
    now.toISOString(),
  );
}

/** Uses the stored challenge the authenticator signed; 400 when it is unknown here, expired or already used. */
async function useChallenge(deps: AccountDeps, purpose: string, binding: string, clientDataJSON: string) {
  const challenge = signedChallenge(clientDataJSON);
  const used = await consumeCode(
    deps.store.db,
    purpose,
    challengeDigest(binding, challenge),
    deps.now().toISOString(),
  );
  if (!used) throw new ApiError(400, pm.challengeInvalid);
  return challenge;
}

const clientData = z.object({ challenge: z.string().min(1).max(200) });

/** The challenge inside clientDataJSON (base64url of JSON); 400 when it cannot be read. */
function signedChallenge(clientDataJSON: string): string {
  try {
    return clientData.parse(JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'))).challenge;
  } catch {
    throw new ApiError(400, pm.responseUnreadable);
  }
}

function transportsOf(passkey: PasskeyRow): string[] | undefined {
  if (!passkey.transports) return undefined;
  const parsed = z.array(z.string()).safeParse(JSON.parse(passkey.transports));
  return parsed.success ? parsed.data : undefined;
}

function summaryOf(passkey: Pick<PasskeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>): PasskeySummary {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: passkey.created_at,
    lastUsedAt: passkey.last_used_at,
  };
}

/** GET /api/account/passkeys: the account's passkeys, oldest first. */
export async function listPasskeys(deps: AccountDeps, account: SignedInAccount): Promise<PasskeySummary[]> {
  return (await passkeysOfUser(deps.store.db, account.userId)).map(summaryOf);
}

/**
 * POST /api/account/passkeys/register/options: options for navigator.credentials.create (a discoverable
 * credential with user verification), excluding the account's passkeys; the challenge is bound to this session.
 */
export async function registrationOptions(
  deps: AccountDeps,
  account: SignedInAccount,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(deps.config.publicUrl);
  const user = await findUserById(deps.store.db, account.userId);
  if (!user) throw new ApiError(401, am.accountGone);
  const existing = await passkeysOfUser(deps.store.db, user.id);
  if (existing.length >= PASSKEYS_MAX) throw new ApiError(409, pm.tooMany(PASSKEYS_MAX));
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: 'DBUI',
    rpID: rp.id,
    userName: user.username,
    userID: await userHandleOf(deps, user.id),
    userDisplayName: [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username,
    timeout: CHALLENGE_LIFETIME_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    authenticatorSelection: {
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    },
  });
  await storeChallenge(deps, {
    purpose: REGISTER,
    binding: `session:${account.sessionId}`,
    value: options.challenge,
    userId: user.id,
    attemptId: null,
  });
  return options;
}

function registrationJson(response: PasskeyRegistrationResponse): RegistrationResponseJSON {
  return {
    id: response.id,
    rawId: response.rawId,
    type: response.type,
    response: response.response,
    // Extensions are not asked for, so their client results are not read.
    clientExtensionResults: {},
    ...(response.authenticatorAttachment
      ? { authenticatorAttachment: response.authenticatorAttachment }
      : {}),
  };
}

/**
 * POST /api/account/passkeys/register/verify: checks the new credential against this session's challenge, the
 * origin and RP ID of PUBLIC_URL and user verification, then stores it. Other sessions of the account end (a
 * sign-in method changed, 0005).
 */
export async function registerPasskey(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  body: PasskeyRegisterRequest,
): Promise<PasskeySummary> {
  const rp = relyingParty(deps.config.publicUrl);
  const db = deps.store.db;
  const challenge = await useChallenge(
    deps,
    REGISTER,
    `session:${account.sessionId}`,
    body.response.response.clientDataJSON,
  );
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: registrationJson(body.response),
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    request.log.info({ err: error }, 'passkey registration refused');
    throw new ApiError(400, pm.registrationFailed);
  }
  if (!verified.verified) throw new ApiError(400, pm.registrationFailed);
  const { credential, credentialBackedUp, credentialDeviceType } = verified.registrationInfo;
  if (await findPasskeyByCredentialId(db, credential.id)) throw new ApiError(409, pm.alreadyRegistered);
  const count = await countPasskeys(db, account.userId);
  if (count >= PASSKEYS_MAX) throw new ApiError(409, pm.tooMany(PASSKEYS_MAX));

  const now = deps.now().toISOString();
  const name = body.name || `Passkey ${count + 1}`;
  const id = await insertPasskey(
    db,
    {
      userId: account.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? body.response.response.transports ?? [],
      name,
      backedUp: credentialBackedUp,
      deviceType: credentialDeviceType,
    },
    now,
  );
  await writeAudit(db, {
    userId: account.userId,
    action: 'passkey.added',
    target: `user:${account.userId}`,
    detail: { passkeyId: id, name, deviceType: credentialDeviceType, backedUp: credentialBackedUp },
    address: request.ip,
  });
  await endOtherSessions(deps, account.userId, account.sessionId);
  return summaryOf({ id, name, created_at: now, last_used_at: null });
}

/** DELETE /api/account/passkeys/{id}: removes one of the account's passkeys (404 for anyone else's). */
export async function removePasskey(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  id: number,
): Promise<void> {
  if (!(await deletePasskey(deps.store.db, account.userId, id))) throw new ApiError(404, pm.notFound);
  await writeAudit(deps.store.db, {
    userId: account.userId,
    action: 'passkey.removed',
    target: `user:${account.userId}`,
    detail: { passkeyId: id },
    address: request.ip,
  });
  await endOtherSessions(deps, account.userId, account.sessionId);
}

/**
 * POST /api/account/login/passkey/options. Without a key: a passkey sign-in on its own, with no credentials
 * listed (the authenticator offers its passkeys for this site) and a new ceremony id. With the pre-sign-in key of
 * a password: the passkeys of that account, when Passkey is among its allowed second steps.
 */
export async function signInOptions(
  deps: AccountDeps,
  key: string | undefined,
): Promise<PasskeyLoginOptions> {
  const rp = relyingParty(deps.config.publicUrl);
  const base = { rpID: rp.id, userVerification: 'required', timeout: CHALLENGE_LIFETIME_MS } as const;
  if (key === undefined) {
    const options = await (await webauthn()).generateAuthenticationOptions({ ...base, allowCredentials: [] });
    const ceremonyId = randomToken();
    await storeChallenge(deps, {
      purpose: SIGN_IN,
      binding: `ceremony:${ceremonyId}`,
      value: options.challenge,
      userId: null,
      attemptId: null,
    });
    return { options: { ...options }, ceremonyId };
  }
  const attempt = await findOpenAttempt(deps.store.db, sha256Hex(key), deps.now().toISOString());
  if (!attempt) throw new ApiError(401, m.loginFailed);
  const passkeys =
    attempt.user_id !== null && attempt.allowed.split(',').includes('Passkey')
      ? await passkeysOfUser(deps.store.db, attempt.user_id)
      : [];
  if (attempt.user_id === null || passkeys.length === 0) throw new ApiError(400, am.methodNotAllowed);
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({
    ...base,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
  });
  await storeChallenge(deps, {
    purpose: SIGN_IN,
    binding: `attempt:${attempt.id}`,
    value: options.challenge,
    userId: attempt.user_id,
    attemptId: attempt.id,
  });
  return { options: { ...options }, ceremonyId: null };
}

function authenticationJson(response: PasskeyAuthenticationResponse): AuthenticationResponseJSON {
  const { userHandle, ...signed } = response.response;
  return {
    id: response.id,
    rawId: response.rawId,
    type: response.type,
    response: { ...signed, ...(userHandle ? { userHandle } : {}) },
    clientExtensionResults: {},
    ...(response.authenticatorAttachment
      ? { authenticatorAttachment: response.authenticatorAttachment }
      : {}),
  };
}

/**
 * Checks an assertion of a stored passkey: the challenge, origin, RP ID, user verification, the signature and the
 * counter (it must grow, unless the authenticator keeps none); then records the use. False on any failure.
 */
async function checkAssertion(
  deps: AccountDeps,
  passkey: PasskeyRow,
  response: PasskeyAuthenticationResponse,
  challenge: string,
  options: { userHandleRequired: boolean },
): Promise<boolean> {
  const rp = relyingParty(deps.config.publicUrl);
  const handle = response.response.userHandle;
  if (handle || options.userHandleRequired) {
    const expected = Buffer.from(await userHandleOf(deps, passkey.user_id)).toString('base64url');
    if (!handle || !safeEqual(handle, expected)) return false;
  }
  try {
    const result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: authenticationJson(response),
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
      requireUserVerification: true,
    });
    if (!result.verified) return false;
    const { newCounter, credentialBackedUp } = result.authenticationInfo;
    return recordPasskeyUse(
      deps.store.db,
      passkey,
      { counter: newCounter, backedUp: credentialBackedUp },
      deps.now().toISOString(),
    );
  } catch (error) {
    deps.log.info({ err: error, passkeyId: passkey.id }, 'passkey assertion refused');
    return false;
  }
}

/**
 * POST /api/account/login/passkey/verify {ceremonyId, response}: a complete sign-in with a passkey alone (user
 * verification required). A failed check counts toward the account's lockout like a wrong password; the answer
 * is the session verification, as login/verify answers it.
 */
export async function passkeySignIn(
  deps: AccountDeps,
  request: FastifyRequest,
  ceremonyId: string,
  response: PasskeyAuthenticationResponse,
): Promise<Verification> {
  const db = deps.store.db;
  const address = request.ip;
  const challenge = await useChallenge(
    deps,
    SIGN_IN,
    `ceremony:${ceremonyId}`,
    response.response.clientDataJSON,
  );
  const passkey = await findPasskeyByCredentialId(db, response.id);
  const user = passkey ? await findUserById(db, passkey.user_id) : undefined;
  if (!passkey || !user) throw new ApiError(401, pm.unknownPasskey);
  if (!(await reserveCheckSlot(deps, user.id))) {
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
    throw new ApiError(401, m.loginFailed);
  }
  if (!(await checkAssertion(deps, passkey, response, challenge, { userHandleRequired: true }))) {
    await recordFailure(deps, user.id, 'sign-in.passkey-failed', address);
    throw new ApiError(401, m.loginFailed);
  }
  if (!(await releaseCheckSlot(deps, user.id))) {
    await refuseUnchecked(deps, user.id, 'sign-in.refused-locked', address);
    throw new ApiError(401, m.loginFailed);
  }
  await writeAudit(db, {
    userId: user.id,
    action: 'sign-in',
    target: `user:${user.id}`,
    detail: { method: 'Passkey', passkeyId: passkey.id },
    address,
  });
  return startSession(deps, request, user, {
    method: 'Passkey',
    resetPassword: false,
    address,
    refusal: m.loginFailed,
  });
}

/**
 * The passkey as the second step of a password sign-in (login-service's verifyLogin): the challenge must be the
 * one issued for this attempt (else 400), the passkey must be the account's own. False when the check fails.
 */
export async function checkPasskeyStep(
  deps: AccountDeps,
  attemptId: number,
  userId: number,
  response: PasskeyAuthenticationResponse,
): Promise<boolean> {
  const challenge = await useChallenge(
    deps,
    SIGN_IN,
    `attempt:${attemptId}`,
    response.response.clientDataJSON,
  );
  const passkey = await findPasskeyByCredentialId(deps.store.db, response.id);
  if (!passkey || passkey.user_id !== userId) return false;
  return checkAssertion(deps, passkey, response, challenge, { userHandleRequired: false });
}
