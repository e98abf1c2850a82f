import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyReply {
    /** The style nonce of a page answer (see styleNonceOf); null on every other answer. */
    styleNonce: string | null;
  }
}

/*
 * Browser security headers on every answer (docs/decisions/0018-browser-security-headers.md). The session token
 * lives in browser storage, so script injection must be impossible: scripts come only from the app's own origin
 * (Vite emits no inline script), with no eval. Styles come from the origin, or from a <style> carrying the page's
 * one-time nonce: the start-up loader in index.html, and the <style> elements Mantine and the ALTCHA widget insert,
 * which read the nonce from <meta name="csp-nonce">. Style attributes need nothing: React sets them through the
 * CSSOM, which a policy does not govern.
 */

/** Where the app's own resources may come from, as the directives of the policy. */
function directives(settings: { https: boolean }, nonce: string | null): [string, ...string[]][] {
  return [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", ...(nonce ? [`'nonce-${nonce}'`] : [])],
    // QR codes of the authenticator setup and profile images are data: URLs.
    ['img-src', "'self'", 'data:'],
    ['font-src', "'self'"],
    ['connect-src', "'self'"],
    // The ALTCHA widget solves its proof of work in a worker made from a blob: URL of its own bundled code; a
    // script able to make such a blob could already run, so this opens no way in for injected markup.
    ['worker-src', "'self'", 'blob:'],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
    ...(settings.https ? [['upgrade-insecure-requests'] as [string]] : []),
  ];
}

/** The Content-Security-Policy header's value; a nonce allows the <style> elements that carry it. */
export function contentSecurityPolicy(settings: { https: boolean }, nonce: string | null = null): string {
  return directives(settings, nonce)
    .map((words) => words.join(' '))
    .join('; ');
}

/** A new nonce for this page answer, put in its policy; the page's <style> elements and meta tag carry it. */
export function styleNonceOf(reply: FastifyReply): string {
  reply.styleNonce ??= randomBytes(18).toString('base64url');
  return reply.styleNonce;
}

/** The policy of every answer without a nonce (all but pages), made once for each of http and https. */
const plainPolicies = new Map<boolean, string>();
function plainPolicy(settings: { https: boolean }): string {
  let policy = plainPolicies.get(settings.https);
  if (policy === undefined) plainPolicies.set(settings.https, (policy = contentSecurityPolicy(settings)));
  return policy;
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** Sets the headers every answer carries (see securityHeaders). */
export function setSecurityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: { https: boolean },
): void {
  const nonce = reply.styleNonce;
  reply.header(
    'content-security-policy',
    nonce ? contentSecurityPolicy(settings, nonce) : plainPolicy(settings),
  );
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  if (settings.https) reply.header('strict-transport-security', 'max-age=31536000');
  if (isApi(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}

/**
 * Sets the headers on every answer, errors and not-found answers included (an onSend hook runs for all of them;
 * Fastify's frameworkErrors answers run no hook and call setSecurityHeaders themselves). API answers are never
 * stored (`no-store` unless the route set its own cache rule); pages and assets keep theirs. HSTS only when
 * PUBLIC_URL is https: over plain http it would lock out a deployment that has no certificate. Register it first,
 * so every route plugin registered after it inherits the hook.
 */
export function securityHeaders(app: FastifyInstance, settings: { https: boolean }): void {
  app.decorateReply('styleNonce', null);
  // A callback hook: no promise and no extra turn on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply, settings);
    done(null, payload);
  });
}
