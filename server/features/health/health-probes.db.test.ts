import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { healthMessages as hm } from '#common/messages.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { READY_CACHE_MS } from './readiness.ts';

/** A port nothing listens on: bound, then closed (a stopped Redis answers like this). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('liveness and readiness (issue 18)', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('alive answers 200 whatever is down; ready says 200 with the app store up and no Redis configured', async () => {
    t = await buildTestApp();
    const alive = await t.app.inject({ method: 'GET', url: '/api/health/alive' });
    expect(alive.statusCode).toBe(200);
    expect(alive.json()).toMatchObject({ isSuccess: true, data: { alive: true }, message: null });

    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      isSuccess: true,
      data: { ready: true, appStore: 'up', redis: 'unused' },
      message: null,
    });

    // The app store stops answering: ready says so (after its cached answer ages), alive still answers.
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS + 50));
    const ping = t.store.ping;
    t.store.ping = () => Promise.reject(new Error('connection refused'));
    try {
      const notReady = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({
        isSuccess: false,
        data: { ready: false, appStore: 'down', redis: 'unused' },
        message: `${hm.notReady} ${hm.storeDown}`,
      });
      expect((await t.app.inject({ method: 'GET', url: '/api/health/alive' })).statusCode).toBe(200);
    } finally {
      t.store.ping = ping;
    }
  });

  it('ready answers 503 naming Redis when REDIS_URL points at a closed port, and reuses the answer', async () => {
    t = await buildTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } });
    // Redis's client would retry a closed port for ever: the answer at all is the probe's own limit at work.
    const first = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(first.statusCode).toBe(503);
    expect(first.json()).toMatchObject({
      isSuccess: false,
      data: { ready: false, appStore: 'up', redis: 'down' },
      message: `${hm.notReady} ${hm.redisDown}`,
    });

    // Within the cache window the same answer comes back without asking again (same checkedAt).
    const again = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(again.json().data.checkedAt).toBe(first.json().data.checkedAt);
    // Polls at once share one probe.
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/api/health/ready' })),
    );
    expect(new Set(burst.map((r) => r.json().data.checkedAt)).size).toBeLessThanOrEqual(2);

    expect((await t.app.inject({ method: 'GET', url: '/api/health/alive' })).statusCode).toBe(200);
    // The full health report is unchanged: Redis is not one of its components.
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });

  it('ready answers 200 with Redis up (the Redis on this machine)', async () => {
    t = await buildTestApp({ env: { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' } });
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.json()).toMatchObject({ data: { ready: true, appStore: 'up', redis: 'up' } });
    expect(ready.statusCode).toBe(200);
  });
});
