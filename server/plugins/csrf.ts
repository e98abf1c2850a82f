import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { accountApiMessages as am } from '#common/messages.ts';
import { safeEqual } from '#server/crypto/tokens.ts';
import { ApiError } from './error-envelope.ts';

/** The cookie the web app reads and the header it sends back (spec 000 §7; docs/decisions/0005-accounts.md). */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is opened by a plain link, which carries no bearer (the export download): like a page, it never
     * replaces the browser's anti-forgery cookie. */
    keepsXsrfCookie?: boolean;
  }
  interface FastifyRequest {
    /** Set when a call changes who the caller is (a sign-in or sign-out): the answer carries a token for that. */
    xsrfRebound: string | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sessions whose last valid token is remembered; past this the memory starts again empty. */
const TOKENS_KEPT = 10_000;

/** What an XSRF token is bound to: the caller's session, or `anonymous` before sign-in. */
function bindingOf(request: FastifyRequest): string {
  return request.xsrfRebound ?? (request.account ? `session:${request.account.sessionId}` : 'anonymous');
}

/** Makes the XSRF token of a later request bound to this session (null: signed out). */
export function rebindXsrf(request: FastifyRequest, sessionId: number | null): void {
  request.xsrfRebound = sessionId === null ? 'anonymous' : `session:${sessionId}`;
}

/**
 * Anti-forgery (0005): every GET (and every answer that signs someone in or out) carries an `XSRF-TOKEN` cookie,
 * a random nonce plus an HMAC over the nonce and the session it belongs to; every other call must send the same
 * value in `X-XSRF-TOKEN`, and the HMAC must match the caller's current session, else 403. Runs after the session
 * hook, so it knows the session.
 */
export async function xsrfProtection(
  app: FastifyInstance,
  settings: { key: string; secureCookie: boolean },
): Promise<void> {
  await app.register(fastifyCookie);
  const sign = (nonce: string, binding: string) =>
    createHmac('sha256', settings.key).update(`${nonce}|${binding}`).digest('base64url');
  const issue = (binding: string) => {
    const nonce = randomBytes(18).toString('base64url');
    return `${nonce}.${sign(nonce, binding)}`;
  };
  // The token last found valid for each binding: a session sends the same token on every call, and comparing with
  // it (in constant time, as the MAC is) spares an HMAC a call. Looked up by the binding, which the server decides,
  // never by what the caller sent.
  const lastValid = new Map<string, string>();
  const valid = (token: string | undefined, binding: string): boolean => {
    if (!token) return false;
    const known = lastValid.get(binding);
    if (known !== undefined && safeEqual(token, known)) return true;
    const [nonce, mac, extra] = token.split('.');
    if (!nonce || !mac || extra !== undefined || !safeEqual(mac, sign(nonce, binding))) return false;
    if (known === undefined && lastValid.size >= TOKENS_KEPT) lastValid.clear();
    lastValid.set(binding, token);
    return true;
  };

  app.decorateRequest('xsrfRebound', null);
  // Both hooks are callbacks, not async functions: one promise and microtask turn fewer a call (issue 17).
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    const header = request.headers[XSRF_HEADER];
    const cookie = request.cookies[XSRF_COOKIE];
    if (typeof header === 'string' && header === cookie && valid(header, bindingOf(request))) return done();
    // A token for a session that has since ended: the person has to sign in again, which says more than 403.
    if (request.staleBearer) return done(new ApiError(401, am.signInRequired));
    done(new ApiError(403, am.xsrfMissing));
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'GET' && request.xsrfRebound === null) return done(null, payload);
    const binding = bindingOf(request);
    // cookies is unset when the request failed before the cookie parser ran.
    if (request.xsrfRebound === null && valid(request.cookies?.[XSRF_COOKIE], binding))
      return done(null, payload);
    // Pages and static files never carry the bearer, so a token issued there is bound to nobody: it would replace
    // the session's (a chunk loaded lazily after sign-in broke the next POST). They give one only to a browser that
    // has none; the API's own answers, which carry the bearer, keep it bound to the session.
    // Nor do API links opened without the bearer (an export's download link).
    const withoutBearer =
      !request.url.startsWith('/api/') || request.routeOptions.config?.keepsXsrfCookie === true;
    if (request.xsrfRebound === null && withoutBearer && request.cookies?.[XSRF_COOKIE]) {
      return done(null, payload);
    }
    reply.setCookie(XSRF_COOKIE, issue(binding), {
      path: '/',
      sameSite: 'lax',
      secure: settings.secureCookie,
      httpOnly: false,
    });
    done(null, payload);
  });
}
