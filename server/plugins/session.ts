import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TableRights } from '#common/contract/sql.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { findLiveSession, touchSession } from '#server/store/sessions.ts';
import { accessCache } from '#server/access/access-cache.ts';
import { sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from './error-envelope.ts';

/** The signed-in person behind a request (docs/decisions/0005-accounts.md). Rights are as of the request: cached
 * per user and read again once they changed (0034), so a role change takes effect at the next call. */
export interface SignedInAccount {
  userId: number;
  username: string;
  isAdmin: boolean;
  sessionId: number;
  links: string[];
  /** The write permissions of the user's roles by TableId, when known (else the policy reads them). */
  permissions?: ReadonlyMap<string, TableRights>;
  reauthenticatedAt: string | null;
  passwordExpired: boolean;
}

/** The session behind a request: the bearer token as presented and the sliding expiry after this request. */
export interface CurrentSession {
  id: number;
  token: string;
  expiresAt: string;
}

/** What a session needs to know: its limits, the password age rule, and the time (tests move it). */
export interface SessionSettings {
  idleMinutes: number;
  maxHours: number;
  passwordMaxAgeDays: number | null;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, or null. */
    account: SignedInAccount | null;
    /** The live session behind `account`, or null. */
    session: CurrentSession | null;
    /** True when a bearer token was sent but no live session has it (expired, revoked or made up). */
    staleBearer: boolean;
    /** When the request arrived (epoch ms), by the app's clock (tests move it). */
    receivedAt: number;
  }
}

/** Re-authentication counts for this long (0005). */
export const REAUTH_WINDOW_MS = 10 * 60 * 1000;

/** A session's last use is written at most this often (0013): reading needs no write to the app store. */
export const SESSION_USE_WRITTEN_EVERY_MS = 60 * 1000;

/** The bearer token of an Authorization header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** The sliding expiry after activity at `now`: the idle limit, never past the absolute lifetime. */
export function slidingExpiry(now: Date, absoluteExpiresAt: string, idleMinutes: number): string {
  const idle = new Date(now.getTime() + idleMinutes * 60_000).toISOString();
  return idle < absoluteExpiresAt ? idle : absoluteExpiresAt;
}

/** Whether the password must be changed: forced by an administrator, past the maximum age, or a forgot-password
 * sign-in. */
export function passwordIsExpired(
  fields: { password_expired: number; password_changed_at: string | null; reset_password: number },
  passwordMaxAgeDays: number | null,
  now: Date,
): boolean {
  if (fields.password_expired === 1 || fields.reset_password === 1) return true;
  if (passwordMaxAgeDays === null || !fields.password_changed_at) return false;
  return now.getTime() - Date.parse(fields.password_changed_at) > passwordMaxAgeDays * 86_400_000;
}

/**
 * Reads `Authorization: Bearer <token>` on every request, finds the live session (not revoked, within its sliding
 * expiry and absolute lifetime: one indexed read on every call, so a sign-out or a lock ends it at once on every
 * instance; an SQLite store, which one process owns, answers from what it found while nothing was written: 0040),
 * records the activity at most once a minute, and sets `request.account` (null when signed out) with the user's
 * rights from the access cache (0034). Recording the activity never fails a call: with the app store
 * unwritable (a full disk) reads go on.
 */
export function sessionHooks(app: FastifyInstance, store: AppStore, settings: SessionSettings): void {
  app.decorateRequest('account', null);
  app.decorateRequest('session', null);
  app.decorateRequest('staleBearer', false);
  app.decorateRequest('receivedAt', 0);
  const rights = accessCache(store);
  app.addHook('onRequest', async (request) => {
    const now = settings.now();
    request.receivedAt = now.getTime();
    const token = bearerToken(request.headers.authorization);
    if (!token) {
      request.staleBearer = request.headers.authorization !== undefined;
      return;
    }
    const found = await findLiveSession(store.db, sha256Hex(token), now.toISOString());
    if (!found) {
      request.staleBearer = true;
      return;
    }
    const cached = rights.of(found.user_id, found.access_version ?? '');
    const access = cached instanceof Promise ? await cached : cached;
    const expiresAt = useIsRecorded(found, now)
      ? found.expires_at
      : await recordUse(store, found, now, settings.idleMinutes, request);
    request.session = { id: found.id, token, expiresAt };
    request.account = {
      userId: found.user_id,
      username: found.username,
      isAdmin: access.isAdmin,
      sessionId: found.id,
      links: access.links,
      permissions: access.permissions,
      reauthenticatedAt: found.reauthenticated_at,
      passwordExpired: passwordIsExpired(found, settings.passwordMaxAgeDays, now),
    };
  });
}

/** Whether a use was recorded less than a minute ago: then this call writes nothing (0013). */
function useIsRecorded(session: { last_seen_at: string }, now: Date): boolean {
  return session.last_seen_at > new Date(now.getTime() - SESSION_USE_WRITTEN_EVERY_MS).toISOString();
}

/** Moves the sliding expiry when the last recorded use is a minute old; answers the expiry the store holds after. A
 * write that fails is logged, and the session keeps the expiry it had. */
async function recordUse(
  store: AppStore,
  session: { id: number; last_seen_at: string; expires_at: string; absolute_expires_at: string },
  now: Date,
  idleMinutes: number,
  request: FastifyRequest,
): Promise<string> {
  const lastBefore = new Date(now.getTime() - SESSION_USE_WRITTEN_EVERY_MS).toISOString();
  if (useIsRecorded(session, now)) return session.expires_at;
  const expiresAt = slidingExpiry(now, session.absolute_expires_at, idleMinutes);
  try {
    const recorded = await touchSession(store.db, session.id, {
      now: now.toISOString(),
      lastBefore,
      expiresAt,
    });
    return recorded ? expiresAt : session.expires_at;
  } catch (error) {
    request.log.warn({ err: error }, 'the session’s last use could not be recorded; the call goes on');
    return session.expires_at;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route serves a person whose password must change (verify, the own account, the change itself); every
     * other signed-in route refuses them until it is changed. */
    whilePasswordMustChange?: boolean;
  }
}

/** The signed-in account behind a request: 401 without one, 403 while its password must change (an expired or
 * forced one, or a forgot-password recovery: until the new password is set, the recovery can do nothing else). */
function signedInAccount(request: FastifyRequest): SignedInAccount {
  const account = request.account;
  if (!account) throw new ApiError(401, am.signInRequired);
  if (account.passwordExpired && !request.routeOptions.config.whilePasswordMustChange)
    throw new ApiError(403, am.passwordChangeFirst);
  return account;
}

/** A hook that refuses a request by throwing `check`'s error or lets it on, as a callback: an async hook costs a
 * promise and a turn of the microtask queue on every call (issue 17). Fits onRequest, preValidation and
 * preHandler. */
function guardHook(check: (request: FastifyRequest) => void) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    try {
      check(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}

/** preHandler: 401 'Sign in to continue.' without a live session (403 while the password must change). */
export const requireSignedIn = guardHook(signedInAccount);

/** preHandler: 401 when signed out, 403 'Only administrators can do that.' for everyone but administrators. */
export const requireAdmin = guardHook((request) => {
  if (!signedInAccount(request).isAdmin) throw new ApiError(403, am.adminRequired);
});

/**
 * preHandler for changes that need a recent proof (password, email, phone, authenticator, recovery codes, account
 * deletion): 401 when signed out, 403 'Confirm your password to continue.' when the last sign-in or
 * re-authentication is older than 10 minutes.
 */
export const requireRecentAuth = guardHook((request) => {
  const account = signedInAccount(request);
  if (!hasRecentAuth(account, new Date(request.receivedAt))) throw new ApiError(403, am.reauthRequired);
});

/** Whether the account proved its password or a code within the last 10 minutes. */
export function hasRecentAuth(account: SignedInAccount, now: Date): boolean {
  const at = account.reauthenticatedAt ? Date.parse(account.reauthenticatedAt) : Number.NaN;
  return Number.isFinite(at) && now.getTime() - at <= REAUTH_WINDOW_MS;
}
