import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { accountApiMessages as am } from '#common/messages.ts';
import { ApiError } from './error-envelope.ts';

/** Calls per minute from one address, per route (docs/decisions/0005-accounts.md). */
export interface RateLimits {
  /** login and signup */
  signIn: number;
  /** login/verify, the setup code checks and reauth */
  codeCheck: number;
  forgotPassword: number;
  /** login/resend and the setup code sends */
  resend: number;
}

export const defaultRateLimits: RateLimits = { signIn: 10, codeCheck: 10, forgotPassword: 5, resend: 5 };

/** Registers @fastify/rate-limit for the routes that opt in (keyed by the caller's address); a refusal is the
 * envelope with 429 and says how long to wait. */
export async function rateLimiting(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, am.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000)))),
  });
}

/** A route's rate-limit config: at most `max` calls a minute from one address. */
export function perMinute(max: number) {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
