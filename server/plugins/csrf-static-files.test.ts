import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XSRF_COOKIE, XSRF_HEADER } from '#server/plugins/csrf.ts';
import { buildUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { tempDir } from '#server/test/temp-dir.ts';

/*
 * The web app loads each page's code lazily, after sign-in, without the bearer (a browser sends no Authorization
 * header for a script). Those answers must not replace the session's anti-forgery cookie with one bound to nobody,
 * or the next POST of the signed-in page is refused ('The request is missing its XSRF token').
 */
describe('the anti-forgery cookie and static files', () => {
  const dir = tempDir();
  let t: TestApp;

  beforeAll(async () => {
    const web = path.join(dir.path, 'web');
    fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>DBUI</title><div id="root"></div>');
    fs.writeFileSync(path.join(web, 'assets', 'page-1234.js'), 'console.log(1)');
    t = await buildTestApp({ webRoot: web });
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  it("keeps the session's cookie when a script or page is loaded, so the next POST passes", async () => {
    const user = await buildUser(t, { links: ['/account/*'] });
    const cookie = user.headers.cookie ?? '';
    for (const url of ['/assets/page-1234.js', '/account/updatePassword']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(answer.statusCode).toBe(200);
      expect(answer.cookies.find((c) => c.name === XSRF_COOKIE)).toBeUndefined();
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/account/preferred2fa',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { preferred2fa: 'Email' },
    });
    expect(post.json<{ message: string | null }>().message).not.toMatch(/XSRF/);
    expect(post.statusCode).toBe(200);
  });

  it('gives a first visitor without a cookie one on the page itself', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/account/signup' });
    const token = answer.cookies.find((c) => c.name === XSRF_COOKIE)?.value;
    expect(token).toBeTruthy();
    // And it is good for the anonymous calls of that page.
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/account/forgotPassword',
      headers: {
        cookie: `${XSRF_COOKIE}=${token}`,
        [XSRF_HEADER]: token ?? '',
        'content-type': 'application/json',
      },
      payload: { username: 'nobody', token: 'not-solved' },
    });
    expect(post.json<{ message: string | null }>().message).not.toMatch(/XSRF/);
  });
});
