import type http from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { HttpTimeouts } from '#server/config.ts';

/**
 * Fastify's server options that disconnect slow clients (issue 10 finding 4): a request whose headers do not all
 * arrive within `headersMs`, or whose body does not within `requestMs`, is answered 408 and its connection closed;
 * an idle keep-alive connection closes after `keepAliveMs`; a connection on which nothing moves either way for
 * `idleMs` (a client that stopped reading) is destroyed. None of these cut an answer that is still flowing: the
 * request and header limits end once the request is in, and a download that writes is not idle.
 */
export function serverTimeouts(timeouts: HttpTimeouts): FastifyHttpOptions<http.Server> {
  // Node checks the header and request limits on a timer (every 30 s by default, so a 10 s limit could take 40 s);
  // a quarter of the shorter limit, at most a second, keeps the overshoot small at the cost of a cheap list walk.
  const checkEveryMs = Math.max(
    25,
    Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)),
  );
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: checkEveryMs,
    },
  };
}
