import { afterEach, describe, expect, it } from 'vitest';
import { withXsrf } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * TRUST_PROXY: behind a reverse proxy every connection comes from the proxy, so without it all clients share one
 * address for rate limits, lockouts and the audit. Told which proxy to believe, the client's address is the one
 * the proxy forwards; a forwarded address from anyone else is ignored.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Two forgot-password calls (one allowed a minute) from `first`, then one from `second`, all through the proxy
 * at 10.0.0.2; answers the status of the third. */
async function thirdCallStatus(env: Record<string, string>, first: string, second: string) {
  t = await buildTestApp({ env, rateLimits: { forgotPassword: 1 } });
  const headers = await withXsrf(t, {});
  const call = (forwardedFor: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/api/account/forgotPassword',
      remoteAddress: '10.0.0.2',
      headers: { ...headers, 'x-forwarded-for': forwardedFor },
      payload: {},
    });
  expect((await call(first)).statusCode).toBe(400);
  expect((await call(first)).statusCode).toBe(429);
  return (await call(second)).statusCode;
}

describe('the client address behind a proxy', () => {
  it('without TRUST_PROXY, is the connection’s: clients behind one proxy share their limits', async () => {
    expect(await thirdCallStatus({}, '203.0.113.5', '198.51.100.7')).toBe(429);
  });

  it('with the proxy’s address or range trusted, is the forwarded one: each client has its own limits', async () => {
    expect(await thirdCallStatus({ TRUST_PROXY: '10.0.0.0/8' }, '203.0.113.5', '198.51.100.7')).toBe(400);
  });

  it('with a number of proxies trusted, is the forwarded one too', async () => {
    expect(await thirdCallStatus({ TRUST_PROXY: '1' }, '203.0.113.5', '198.51.100.7')).toBe(400);
  });

  it('ignores what a connection from an untrusted address forwards', async () => {
    expect(await thirdCallStatus({ TRUST_PROXY: '127.0.0.1' }, '203.0.113.5', '198.51.100.7')).toBe(429);
  });
});
