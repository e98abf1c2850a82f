import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ReadyResponse } from '#common/contract/health.ts';
import type { AppStore } from '#server/store/app-store.ts';

/** How long an answer is reused: a balancer polling every second costs one probe, not one per poll. */
export const READY_CACHE_MS = 1_500;
/** A dependency that has not answered by then counts as down (the balancer's own timeout is usually 2–5 s). */
const PROBE_TIMEOUT_MS = 1_000;

/** Rejects after `ms`, so a dependency that does not answer cannot hold the probe. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The readiness probe: asks the app store and, with REDIS_URL, Redis; answers are shared for READY_CACHE_MS. */
export interface Readiness {
  check(): Promise<ReadyResponse>;
  close(): Promise<void>;
}

/**
 * Readiness for a balancer (issue 18). Only what every request needs is asked: the app store (sessions, rights)
 * and Redis when configured (shared rate limits, the job queue); a browsed database being down makes no instance
 * better than another, so it never takes an instance out. Concurrent calls share one probe in flight.
 */
export function readiness(deps: {
  store: AppStore;
  redisUrl: string | null;
  log: FastifyBaseLogger;
  /** Milliseconds now; tests move it. */
  clock?: () => number;
}): Readiness {
  const clock = deps.clock ?? Date.now;
  let redis: Promise<Redis> | null = null;
  let last: { at: number; answer: ReadyResponse } | null = null;
  let inFlight: Promise<ReadyResponse> | null = null;
  let redisWasDown = false;

  /** One connection of its own, opened at the first probe (ioredis loads only with REDIS_URL), reconnecting by
   * itself; a ping waits for the connection at most PROBE_TIMEOUT_MS, and is dropped at the next failed attempt
   * (maxRetriesPerRequest 0), so pings do not pile up while Redis is down. */
  const redisClient = (url: string) =>
    (redis ??= import('ioredis').then(({ Redis: Client }) => {
      const client = new Client(url, {
        lazyConnect: false,
        connectTimeout: PROBE_TIMEOUT_MS,
        maxRetriesPerRequest: 0,
        retryStrategy: (times) => Math.min(times * 200, 2_000),
      });
      client.on('error', () => undefined); // the probe's answer says it; the log line is written below, once
      return client;
    }));

  async function askRedis(url: string): Promise<'up' | 'down'> {
    try {
      const client = await redisClient(url);
      await within(PROBE_TIMEOUT_MS, client.ping());
      if (redisWasDown) deps.log.info('readiness: Redis answers again');
      redisWasDown = false;
      return 'up';
    } catch (error) {
      if (!redisWasDown) deps.log.warn({ err: error }, 'readiness: Redis does not answer');
      redisWasDown = true;
      return 'down';
    }
  }

  async function askStore(): Promise<'up' | 'down'> {
    try {
      await within(PROBE_TIMEOUT_MS, deps.store.ping());
      return 'up';
    } catch (error) {
      deps.log.warn({ err: error }, 'readiness: the app store does not answer');
      return 'down';
    }
  }

  async function probe(): Promise<ReadyResponse> {
    const [appStore, redisStatus] = await Promise.all([
      askStore(),
      deps.redisUrl ? askRedis(deps.redisUrl) : Promise.resolve('unused' as const),
    ]);
    return {
      ready: appStore === 'up' && redisStatus !== 'down',
      appStore,
      redis: redisStatus,
      checkedAt: new Date(clock()).toISOString(),
    };
  }

  return {
    check() {
      if (last && clock() - last.at < READY_CACHE_MS) return Promise.resolve(last.answer);
      inFlight ??= probe()
        .then((answer) => {
          last = { at: clock(), answer };
          return answer;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    async close() {
      if (!redis) return;
      const client = await redis;
      client.disconnect(); // a probe's connection: nothing of ours is pending on it
    },
  };
}
