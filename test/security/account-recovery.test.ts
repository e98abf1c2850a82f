import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, RecoveryCodes, TotpSetup, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { AccountClient, nextSmsCode, signedInClient } from '#server/test/account-client.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import type { TestApp } from '#server/test/test-app.ts';
import { appStoreKinds, buildAppOnStore } from './app-stores.ts';
import { expectNoLeak } from './harness.ts';

/*
 * Forgot password is a way in, so it asks what a sign-in asks: the emailed code replaces the password, and the
 * account's own second step (authenticator app, text message, passkey, or a recovery code) is still needed after
 * it. Until the new password is set, the session it opens may do nothing but set it. On both app stores.
 */

const NEW_PASSWORD = 'Nq4%tZ8cWr';

describe.each(appStoreKinds)('account recovery on the %s app store', (store) => {
  let sink: MailSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startMailSink();
    t = await buildAppOnStore(store, { env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  /** Forgot password for `username`: the pu it answers, decoded. */
  async function forgot(browser: AccountClient, username: string): Promise<PreSignIn> {
    const answer = await browser.post<string>('/api/account/forgotPassword', {
      username,
      token: await browser.humanCheck(),
    });
    expect(answer.status, answer.message ?? '').toBe(200);
    return JSON.parse(Buffer.from(answer.data, 'base64').toString()) as PreSignIn;
  }
  const verify = (browser: AccountClient, key: string, otp: string, selected2fa: string) =>
    browser.post<Verification | PreSignIn>('/api/account/login/verify', { key, otp, selected2fa });

  /** An account with an authenticator app set up (and its preferred method), and its code generator. */
  async function accountWithApp() {
    const { user, browser } = await signedInClient(t);
    const setup = await browser.get<TotpSetup>('/api/account/totp');
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.key) });
    const code = () => totp.generate({ timestamp: t.clock.now().getTime() });
    expect((await browser.get(`/api/account/totp/verify/${code()}`)).status).toBe(200);
    expect((await browser.post('/api/account/preferred2fa', { preferred2fa: 'Totp' })).status).toBe(200);
    // The next step of the same time step would be refused as a replay: move on to a fresh one.
    t.clock.advance(30_000);
    return { user, browser, code };
  }

  /** Every call a recovery session must not make yet, and what it may. */
  async function expectOnlyPasswordChange(browser: AccountClient) {
    for (const [method, url] of [
      ['GET', '/api/sql'],
      ['GET', '/api/account/totp'],
      ['POST', '/api/account/recovery-codes'],
      ['GET', '/api/account/roles'],
      ['GET', '/api/account/eotp/other@example.com'],
      ['GET', '/api/admin/users'],
    ] as const) {
      const answer = method === 'GET' ? await browser.get(url) : await browser.post(url);
      expect(answer.status, `${method} ${url}: ${answer.message}`).toBe(403);
      expect(answer.message, url).toBe(am.passwordChangeFirst);
      expectNoLeak(answer.response);
    }
    const verification = await browser.get<Verification>('/api/account/verify');
    expect(verification.status).toBe(200);
    expect(verification.data.user.passwordExpired).toBe(true);
  }

  it('an emailed code alone never opens an account that has an authenticator app', async () => {
    const { user, code } = await accountWithApp();
    const browser = new AccountClient(t);
    const pu = await forgot(browser, user.username);
    // The same answer an unknown username gets: the methods are told only to whoever reads the mailbox.
    expect(pu).toMatchObject({ allowed2fa: ['Email'], preferred2fa: 'Email', disableSelect2fa: true });
    // The app's code cannot stand in for the mailbox.
    expect((await verify(browser, pu.key, code(), 'Totp')).message).toBe(am.methodNotAllowed);

    const emailed = await verify(
      browser,
      pu.key,
      await sink.nextCode(`${user.username}@example.com`),
      'Email',
    );
    expect(emailed.status, emailed.message ?? '').toBe(200);
    expect(emailed.message).toBe(am.recoveryNextStep);
    const next = emailed.data as PreSignIn;
    expect(next).not.toHaveProperty('token');
    // Setting up the app issued recovery codes: one of them may stand in for the app.
    expect(next).toEqual({
      key: pu.key,
      allowed2fa: ['Totp', 'Recovery'],
      preferred2fa: 'Totp',
      disableSelect2fa: false,
    });
    expect(await sessionsOf(user.userId)).toBe(1);

    // The emailed code again is no second step.
    const again = await verify(browser, pu.key, '123456', 'Email');
    expect(again.status).toBe(400);
    expect(again.message).toBe(am.methodNotAllowed);
    const signedIn = await verify(browser, pu.key, code(), 'Totp');
    expect(signedIn.status, signedIn.message ?? '').toBe(200);
    browser.token = (signedIn.data as Verification).token;
    await expectOnlyPasswordChange(browser);

    const changed = await browser.post('/api/account/updatePassword', { password: NEW_PASSWORD });
    expect(changed.status, changed.message ?? '').toBe(200);
    expect((await browser.get('/api/sql')).status).toBe(200);
  });

  it('takes a text message code or a recovery code as the second step', async () => {
    const { user, browser: owner } = await accountWithApp();
    const codes = await owner.post<RecoveryCodes>('/api/account/recovery-codes');
    expect(codes.status, codes.message ?? '').toBe(200);
    const phone = '+15551230000';
    await t.store.db
      .updateTable('users')
      .set({ phone, phone_verified_at: new Date().toISOString(), preferred_2fa: 'Phone' })
      .where('id', '=', user.userId)
      .execute();

    const byPhone = new AccountClient(t);
    const pu = await forgot(byPhone, user.username);
    const next = await verify(byPhone, pu.key, await sink.nextCode(`${user.username}@example.com`), 'Email');
    expect(next.data).toMatchObject({
      allowed2fa: ['Phone', 'Totp', 'Recovery'],
      preferred2fa: 'Phone',
    });
    const seen = new Set<string>();
    const sms = await nextSmsCode(t.config.dataDir, phone, seen);
    const signedIn = await verify(byPhone, pu.key, sms, 'Phone');
    expect(signedIn.status, signedIn.message ?? '').toBe(200);
    expect((signedIn.data as Verification).user.passwordExpired).toBe(true);

    const byCode = new AccountClient(t);
    const second = await forgot(byCode, user.username);
    await verify(byCode, second.key, await sink.nextCode(`${user.username}@example.com`), 'Email');
    const recovered = await verify(byCode, second.key, codes.data.recoveryCodes[0]!, 'Recovery');
    expect(recovered.status, recovered.message ?? '').toBe(200);
  });

  it('a recovery session counts as no fresh proof and does nothing but set the password', async () => {
    const { user } = await signedInClient(t);
    const browser = new AccountClient(t);
    const pu = await forgot(browser, user.username);
    // An account whose only second step is email: the emailed code is what a sign-in would ask too.
    const signedIn = await verify(
      browser,
      pu.key,
      await sink.nextCode(`${user.username}@example.com`),
      'Email',
    );
    expect(signedIn.status, signedIn.message ?? '').toBe(200);
    browser.token = (signedIn.data as Verification).token;
    await expectOnlyPasswordChange(browser);
    const secrets = await t.store.db
      .selectFrom('users')
      .select(['totp_secret'])
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(secrets.totp_secret).toBeNull();
    expect((await browser.post('/api/account/updatePassword', { password: NEW_PASSWORD })).status).toBe(200);
    expect((await browser.get('/api/account/roles')).status).toBe(200);
  });

  it('a wrong second step after the emailed code counts as a failed guess', async () => {
    const { user } = await accountWithApp();
    const browser = new AccountClient(t);
    const pu = await forgot(browser, user.username);
    await verify(browser, pu.key, await sink.nextCode(`${user.username}@example.com`), 'Email');
    const wrong = await verify(browser, pu.key, '000000', 'Totp');
    expect(wrong.status).toBe(401);
    expect(wrong.message).toBe(m.otpFailed);
    const failures = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.userId)
      .where('action', '=', 'sign-in.code-failed')
      .execute();
    expect(failures).toHaveLength(1);
  });

  async function sessionsOf(userId: number): Promise<number> {
    const rows = await t.store.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    return rows.length;
  }
});
