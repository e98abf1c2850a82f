import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { withXsrf } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { perMinute, rateLimiting } from './rate-limits.ts';

/*
 * With REDIS_URL, rate limits are counted in Redis: two instances behind one load balancer share them, so a
 * client cannot multiply its allowance by the number of instances. Runs against the local Redis.
 */

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function instance(env: Record<string, string>) {
  const t = await buildTestApp({ env, rateLimits: { forgotPassword: 2 } });
  apps.push(t);
  const headers = await withXsrf(t, {});
  // A fresh address each run: Redis keeps counts for a minute, across test runs too.
  return (address: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/account/forgotPassword',
      remoteAddress: address,
      headers,
      payload: {},
    });
}

describe('rate limits across instances', () => {
  it('with REDIS_URL, are shared: the second instance counts the first one’s calls', async () => {
    // IPv6 addresses are counted by their /64, so it is the prefix that must be new.
    const prefix = randomBytes(6).toString('hex').match(/..../g)?.join(':');
    const address = `fd00:${prefix}::1`;
    const first = await instance({ REDIS_URL });
    const second = await instance({ REDIS_URL });
    expect((await first(address)).statusCode).toBe(400);
    expect((await second(address)).statusCode).toBe(400);
    const third = await first(address);
    expect(third.statusCode).toBe(429);
    expect((await second(address)).statusCode).toBe(429);
  });

  it('without it, are each instance’s own', async () => {
    const first = await instance({});
    const second = await instance({});
    expect((await first('2001:db8::1')).statusCode).toBe(400);
    expect((await first('2001:db8::1')).statusCode).toBe(400);
    expect((await first('2001:db8::1')).statusCode).toBe(429);
    expect((await second('2001:db8::1')).statusCode).toBe(400);
  });
});

describe('rate limits when Redis is down', () => {
  it('let calls through (counting waits for Redis; signing in does not)', async () => {
    const app = Fastify();
    await rateLimiting(app, { redisUrl: 'redis://127.0.0.1:1' });
    app.get('/limited', { config: perMinute(1) }, async () => 'ok');
    try {
      const started = Date.now();
      expect((await app.inject('/limited')).statusCode).toBe(200);
      expect((await app.inject('/limited')).statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await app.close();
    }
  });
});
