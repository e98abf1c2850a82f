import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
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
 * envelope with 429 and says how long to wait. With REDIS_URL the counts live in Redis, so instances behind one
 * address share them; when Redis does not answer, calls are let through rather than refused (skipOnError), as
 * signing in matters more than counting while it is down (the per-account lockout, in the app store, still
 * holds). */
export async function rateLimiting(
  app: FastifyInstance,
  settings: { redisUrl: string | null },
): Promise<void> {
  const redis = settings.redisUrl ? await redisCounter(settings.redisUrl, app.log) : null;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'dbui-rate-limit-', skipOnError: true } : {}),
    errorResponseBuilder: (_request, context) =>
      new ApiError(429, am.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000)))),
  });
}

/** A Redis connection that fails fast, as the plugin's authors advise for counting (loaded only with REDIS_URL). */
async function redisCounter(url: string, log: FastifyBaseLogger) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1 });
  // ioredis reconnects by itself; say once that counting is off, and once that it is back.
  let down = false;
  redis.on('error', (error: Error) => {
    if (!down)
      log.warn({ err: error }, 'rate limits: Redis does not answer; calls are not counted until it does');
    down = true;
  });
  redis.on('ready', () => {
    if (down) log.info('rate limits: Redis answers again');
    down = false;
  });
  return redis;
}

/** A route's rate-limit config: at most `max` calls a minute from one address. */
export function perMinute(max: number) {
  return { rateLimit: { max, timeWindow: 60_000 } };
}
