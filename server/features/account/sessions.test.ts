import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, User, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { sha256Hex } from '#server/crypto/tokens.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildAdmin, buildUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/* Sessions, anti-forgery, rate limits and the profile through the real API (docs/decisions/0005-accounts.md). */

const MINUTE = 60_000;

describe('sessions and protections', () => {
  let sink: MailSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startMailSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  /** Signs a factory user in through the API (password, then the mailed code). */
  async function signIn(username: string): Promise<AccountClient> {
    const browser = new AccountClient(t);
    const login = await browser.post<PreSignIn>('/api/account/login', {
      username,
      password: TEST_PASSWORD,
      token: await browser.humanCheck(),
    });
    const otp = await sink.nextCode(`${username}@example.com`);
    const verified = await browser.post<Verification>('/api/account/login/verify', {
      key: login.data.key,
      otp,
      selected2fa: 'Email',
    });
    expect(verified.status, verified.message ?? '').toBe(200);
    browser.token = verified.data.token;
    return browser;
  }

  it('ends a session at logout', async () => {
    const user = await buildUser(t);
    const browser = await signIn(user.username);
    expect((await browser.get('/api/account/verify')).status).toBe(200);
    const out = await browser.get('/api/account/logout');
    expect(out.message).toBe(am.signedOut);
    const after = await browser.get('/api/account/verify');
    expect(after.status).toBe(401);
    expect(after.message).toBe(am.signInRequired);
  });

  it('slides the expiration with use, ends an idle session, and never outlives the absolute lifetime', async () => {
    const user = await buildUser(t);
    const idle = await signIn(user.username);
    const active = await signIn(user.username);

    t.clock.advance(20 * MINUTE);
    const refreshed = await active.get<Verification>('/api/account/verify');
    expect(refreshed.status).toBe(200);
    expect(
      Math.abs(Date.parse(refreshed.data.expiration) - (t.clock.now().getTime() + 30 * MINUTE)),
    ).toBeLessThan(1000);
    t.clock.advance(11 * MINUTE);
    expect((await idle.get('/api/account/verify')).status).toBe(401);
    expect((await active.get('/api/account/verify')).status).toBe(200);

    // Kept busy every 25 minutes, the session still ends 12 hours after sign-in.
    let last = await active.get<Verification>('/api/account/verify');
    for (let elapsed = 31; elapsed + 25 < 12 * 60; elapsed += 25) {
      t.clock.advance(25 * MINUTE);
      last = await active.get<Verification>('/api/account/verify');
      expect(last.status).toBe(200);
    }
    const absoluteEnd = Date.parse(last.data.expiration);
    expect(absoluteEnd).toBeLessThan(t.clock.now().getTime() + 30 * MINUTE);
    t.clock.advance(absoluteEnd - t.clock.now().getTime() + 1000);
    expect((await active.get('/api/account/verify')).status).toBe(401);
  });

  it('writes a session’s use at most once a minute, and answers the expiration it stored', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    browser.token = user.token;
    const stored = () =>
      t.store.db
        .selectFrom('sessions')
        .select(['last_seen_at', 'expires_at'])
        .where('token_hash', '=', sha256Hex(user.token))
        .executeTakeFirstOrThrow();

    t.clock.advance(2 * MINUTE);
    const first = await browser.get<Verification>('/api/account/verify');
    const written = await stored();
    const justNow = (at: string) => Math.abs(Date.parse(at) - t.clock.now().getTime()) < 1000;
    expect(justNow(written.last_seen_at)).toBe(true);
    expect(first.data.expiration).toBe(written.expires_at);

    // Calls within the minute read the session and write nothing.
    for (let i = 0; i < 3; i++) {
      t.clock.advance(15_000);
      const again = await browser.get<Verification>('/api/account/verify');
      expect(again.status).toBe(200);
      expect(again.data.expiration).toBe(written.expires_at);
    }
    expect(await stored()).toEqual(written);

    t.clock.advance(16_000);
    const later = await browser.get<Verification>('/api/account/verify');
    const rewritten = await stored();
    expect(justNow(rewritten.last_seen_at)).toBe(true);
    expect(later.data.expiration).toBe(rewritten.expires_at);
  });

  it('refuses a call without the XSRF header, with another session’s, or one that does not match the cookie', async () => {
    const ann = await buildUser(t);
    const bob = await buildUser(t);
    const annBrowser = new AccountClient(t);
    annBrowser.token = ann.token;
    await annBrowser.get('/api/account');
    const bobBrowser = new AccountClient(t);
    bobBrowser.token = bob.token;
    await bobBrowser.get('/api/account');
    const body = { user_Details: [{ firstName: 'Changed' }] };
    const post = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/account', headers, payload: body });

    const none = await post({ authorization: `Bearer ${ann.token}` });
    expect(none.statusCode).toBe(403);
    expect(none.json()).toEqual({ isSuccess: false, data: null, message: am.xsrfMissing });
    const stolen = await post({
      authorization: `Bearer ${ann.token}`,
      cookie: `XSRF-TOKEN=${bobBrowser.xsrf}`,
      'x-xsrf-token': bobBrowser.xsrf!,
    });
    expect(stolen.statusCode).toBe(403);
    const anonymous = new AccountClient(t);
    await anonymous.get('/api/captcha');
    const signedOutToken = await post({
      authorization: `Bearer ${ann.token}`,
      cookie: `XSRF-TOKEN=${anonymous.xsrf}`,
      'x-xsrf-token': anonymous.xsrf!,
    });
    expect(signedOutToken.statusCode).toBe(403);
    const mismatch = await post({
      authorization: `Bearer ${ann.token}`,
      cookie: `XSRF-TOKEN=${annBrowser.xsrf}`,
      'x-xsrf-token': `${annBrowser.xsrf}x`,
    });
    expect(mismatch.statusCode).toBe(403);
    expect((await annBrowser.post('/api/account', body)).status).toBe(200);
    // Each session's last valid token is remembered (no HMAC for it again): the same refusals still hold.
    expect((await bobBrowser.post('/api/account', body)).status).toBe(200);
    const again = async (headers: Record<string, string>) => (await post(headers)).statusCode;
    expect(
      await again({
        authorization: `Bearer ${ann.token}`,
        cookie: `XSRF-TOKEN=${bobBrowser.xsrf}`,
        'x-xsrf-token': bobBrowser.xsrf!,
      }),
    ).toBe(403);
    expect(
      await again({
        authorization: `Bearer ${ann.token}`,
        cookie: `XSRF-TOKEN=${annBrowser.xsrf}x`,
        'x-xsrf-token': `${annBrowser.xsrf}x`,
      }),
    ).toBe(403);
    expect((await annBrowser.post('/api/account', body)).status).toBe(200);
    // The cookie is readable by the web app and not sent cross-site on posts.
    const cookie = (await annBrowser.get('/api/captcha')).response.cookies;
    expect(cookie).toEqual([]); // a valid cookie is not replaced
    const fresh = await t.app.inject({ method: 'GET', url: '/api/captcha' });
    expect(fresh.cookies[0]).toMatchObject({ name: 'XSRF-TOKEN', path: '/', sameSite: 'Lax' });
    expect(fresh.cookies[0]?.httpOnly).toBeUndefined();
  });

  it('ignores isAdmin, roles, username, email, phone and verification flags in a user upsert', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    browser.token = user.token;
    const answer = await browser.post<User>('/api/account', {
      username: 'mallory',
      isAdmin: true,
      roles: [{ Id: 1 }],
      User_Roles: [{ Id: 0, UserId: user.userId, RoleId: 1 }],
      user_Details: [
        {
          email: 'mallory@evil.test',
          emailVerified: true,
          phone: '+15550000000',
          phoneVerified: true,
          totpVerified: true,
          firstName: 'Ann',
          lastName: 'Lee',
        },
      ],
    });
    expect(answer.status, answer.message ?? '').toBe(200);
    expect(answer.message).toBe(m.userUpdated);
    expect(answer.data).toMatchObject({ username: user.username, isAdmin: false });
    expect(answer.data.user_Details[0]).toMatchObject({
      email: `${user.username}@example.com`,
      phone: null,
      phoneVerified: false,
      totpVerified: false,
      firstName: 'Ann',
      lastName: 'Lee',
    });
    const verification = await browser.get<Verification>('/api/account/verify');
    expect(verification.data.links).toEqual([]);
    expect(verification.data.user.isAdmin).toBe(false);
    expect(
      await t.store.db
        .selectFrom('user_roles')
        .select('role_id')
        .where('user_id', '=', user.userId)
        .execute(),
    ).toEqual([]);

    const unverified = await browser.post('/api/account/preferred2fa', { preferred2fa: 'Totp' });
    expect(unverified.status).toBe(400);
    expect(unverified.message).toBe(am.methodNotVerified);
    expect((await browser.post('/api/account', { preferred2fa: 'Phone' })).message).toBe(
      am.methodNotVerified,
    );
    expect((await browser.post('/api/account/preferred2fa', { preferred2fa: 'Email' })).message).toBe(
      m.preferred2faUpdated,
    );
  });

  it('keeps a profile image of an image type, and refuses anything else', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    browser.token = user.token;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ).toString('base64');
    const saved = await browser.post<User>('/api/account', {
      user_Images: [{ image: png, fileName: 'me.png', fileType: 'image/png' }],
    });
    expect(saved.status, saved.message ?? '').toBe(200);
    // Kept as the app's own encoding of the pixels, under its own name (test/security/crafted-images.test.ts).
    expect(saved.data.user_Images).toMatchObject([{ fileName: 'profile.png', fileType: 'image/png' }]);
    const html = Buffer.from('<script>alert(1)</script>').toString('base64');
    const refused = await browser.post('/api/account', {
      user_Images: [{ image: html, fileName: 'me.png', fileType: 'image/png' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.message).toBe(am.imageUnreadable);
    const removed = await browser.post<User>('/api/account', { user_Images: [] });
    expect(removed.data.user_Images).toEqual([]);
  });

  it('limits calls per address and answers 429 with the wait', async () => {
    const limited = await buildTestApp({ env: { SMTP_URL: sink.url }, rateLimits: { signIn: 2 } });
    try {
      const browser = new AccountClient(limited);
      const body = async () => ({ username: 'nobody', password: 'x', token: await browser.humanCheck() });
      expect((await browser.post('/api/account/login', await body())).status).toBe(401);
      expect((await browser.post('/api/account/login', await body())).status).toBe(401);
      const third = await browser.post('/api/account/login', await body());
      expect(third.status).toBe(429);
      expect(third.message).toMatch(
        /^Too many attempts from your address\. Please wait \d+ seconds and try again\.$/,
      );
    } finally {
      await limited.close();
    }
  });

  it('keeps the last administrator from deleting their account', async () => {
    const onlyAdmin = await buildTestApp({ env: { SMTP_URL: sink.url } });
    try {
      const admin = await buildAdmin(onlyAdmin);
      const browser = new AccountClient(onlyAdmin);
      browser.token = admin.token;
      const refused = await browser.delete('/api/account/delete');
      expect(refused.status).toBe(409);
      expect(refused.message).toBe(am.lastAdministrator);
      expect((await browser.get('/api/account/verify')).status).toBe(200);
    } finally {
      await onlyAdmin.close();
    }
  });

  it('asks for sign-in when a call carries an ended session', async () => {
    const user = await buildUser(t);
    const browser = await signIn(user.username);
    await browser.get('/api/account/logout');
    const answer = await browser.post('/api/account/preferred2fa', { preferred2fa: 'Email' });
    expect(answer.status).toBe(401);
    expect(answer.message).toBe(am.signInRequired);
  });

  it('documents every account call in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/account/verify',
        '/api/account',
        '/api/account/roles',
        '/api/account/delete',
        '/api/account/signup',
        '/api/account/login',
        '/api/account/login/verify',
        '/api/account/login/resend',
        '/api/account/forgotPassword',
        '/api/account/updatePassword',
        '/api/account/logout',
        '/api/account/reauth',
        '/api/account/eotp/{email}',
        '/api/account/eotp/verify/{code}',
        '/api/account/potp/{phone}',
        '/api/account/potp/verify/{code}',
        '/api/account/totp',
        '/api/account/totp/verify/{code}',
        '/api/account/preferred2fa',
        '/api/account/recovery-codes',
        '/api/captcha',
      ]),
    );
  });
});
