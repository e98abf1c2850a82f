import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { MethodVerified, PreSignIn, TotpSetup, User, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { AccountClient, nextSmsCode } from '#server/test/account-client.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * One person's whole journey through the real API in-process: codes come from a real SMTP server and the SMS
 * outbox, app codes from otpauth with the key shown at setup, the human check is solved like the widget does.
 */

const PASSWORD = 'Tr7#kQ2vLm';
const NEW_PASSWORD = 'Vx9$hP4wNe';
const EMAIL = 'ann@example.com';
const PHONE = '+15551234567';

describe('an account from signup to deletion', () => {
  let sink: MailSink;
  let t: TestApp;
  const smsSeen = new Set<string>();

  beforeAll(async () => {
    sink = await startMailSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const decodePu = (pu: string) => JSON.parse(Buffer.from(pu, 'base64').toString('utf8')) as PreSignIn;

  async function passwordStep(browser: AccountClient, password = PASSWORD) {
    const answer = await browser.post<PreSignIn>('/api/account/login', {
      username: 'ann',
      password,
      token: await browser.humanCheck(),
    });
    expect(answer.status, answer.message ?? '').toBe(200);
    return answer.data;
  }

  async function finish(browser: AccountClient, key: string, otp: string, selected2fa: string) {
    const answer = await browser.post<Verification>('/api/account/login/verify', { key, otp, selected2fa });
    if (answer.isSuccess) browser.token = answer.data.token;
    return answer;
  }

  function appCode(secret: string): string {
    t.clock.advance(30_000); // a new time step: each step works once
    return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });
  }

  it('signs up, confirms the email, adds Phone and App, signs in with each, recovers, changes the password and leaves', async () => {
    // Sign up: the answer is pu, and the code mailed to the address confirms it and signs in.
    const browser = new AccountClient(t);
    const signup = await browser.post<string>('/api/account/signup', {
      user: { username: 'ann', user_Details: [{ email: EMAIL, firstName: 'Ann', lastName: 'Lee' }] },
      password: PASSWORD,
      passwordConfirm: PASSWORD,
      token: await browser.humanCheck(),
    });
    expect(signup.status, signup.message ?? '').toBe(200);
    expect(signup.message).toBe(am.signupDone);
    const pu = decodePu(signup.data);
    expect(pu).toEqual({
      key: expect.stringMatching(/^[\w-]{43}$/),
      allowed2fa: ['Email'],
      preferred2fa: 'Email',
      disableSelect2fa: true,
    });
    const confirmed = await finish(browser, pu.key, await sink.nextCode(EMAIL), 'Email');
    expect(confirmed.status, confirmed.message ?? '').toBe(200);
    const first = confirmed.data;
    expect(first.token).toMatch(/^[\w-]{43}$/);
    expect(first.links).toEqual(['/account', '/account/*', '/contact-us']);
    expect(first.user).toMatchObject({
      username: 'ann',
      isAdmin: false,
      allowed2fa: ['Email'],
      preferred2fa: 'Email',
      disableSelect2fa: true,
      passwordExpired: false,
      user_Images: [],
    });
    expect(first.user.user_Details[0]).toMatchObject({
      email: EMAIL,
      emailVerified: true,
      firstName: 'Ann',
      lastName: 'Lee',
      phone: null,
      totp: false,
    });
    expect(Date.parse(first.expiration) - t.clock.now().getTime()).toBeGreaterThan(29 * 60_000);
    const roles = await browser.get<{ Name: string }[]>('/api/account/roles');
    expect(roles.data.map((r) => r.Name)).toEqual(['User']);

    // Sign out, then in again with the email code.
    expect((await browser.get('/api/account/logout')).message).toBe(am.signedOut);
    expect((await browser.get('/api/account/verify')).status).toBe(401);
    browser.token = null;
    const byEmail = await passwordStep(browser);
    expect(byEmail).toMatchObject({ allowed2fa: ['Email'], preferred2fa: 'Email', disableSelect2fa: true });
    expect((await finish(browser, byEmail.key, await sink.nextCode(EMAIL), 'Email')).status).toBe(200);

    // Phone: the code goes to the outbox as a text message; the first method set up issues recovery codes.
    const sent = await browser.get(`/api/account/potp/${encodeURIComponent(PHONE)}`);
    expect(sent.status, sent.message ?? '').toBe(200);
    expect(sent.message).toBe(am.codeSentTo(PHONE));
    const phoneCode = await nextSmsCode(t.config.dataDir, PHONE, smsSeen);
    const phone = await browser.get<MethodVerified>(`/api/account/potp/verify/${phoneCode}`);
    expect(phone.status, phone.message ?? '').toBe(200);
    expect(phone.data.user.user_Details[0]).toMatchObject({ phone: PHONE, phoneVerified: true });
    expect(phone.data.user.allowed2fa).toEqual(['Email', 'Phone', 'Recovery']);
    const recoveryCodes = phone.data.recoveryCodes!;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(recoveryCodes[0]).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    // App: the key is shown once, the QR code is a PNG, and a code of the app confirms it.
    const setup = await browser.get<TotpSetup>('/api/account/totp');
    expect(setup.status, setup.message ?? '').toBe(200);
    expect(setup.data.qr).toMatch(/^data:image\/png;base64,/);
    expect(setup.data.uri).toMatch(/^otpauth:\/\/totp\/DBUI:ann\?/);
    const secret = setup.data.key;
    const app = await browser.get<MethodVerified>(`/api/account/totp/verify/${appCode(secret)}`);
    expect(app.status, app.message ?? '').toBe(200);
    expect(app.data.recoveryCodes).toBeNull();
    expect(app.data.user.user_Details[0]).toMatchObject({ totp: true, totpVerified: true });
    const own = await browser.get<User>('/api/account');
    expect(JSON.stringify(own.data)).not.toContain(secret);
    expect(own.data.allowed2fa).toEqual(['Email', 'Phone', 'Totp', 'Recovery']);
    expect(own.data.disableSelect2fa).toBe(false);

    // Sign in choosing Phone: login sent the email code (still preferred); resend by Phone sends a text.
    browser.token = null;
    const choosePhone = await passwordStep(browser);
    expect(choosePhone.preferred2fa).toBe('Email');
    await sink.nextCode(EMAIL);
    expect(
      (await browser.post('/api/account/login/resend', { key: choosePhone.key, selected2fa: 'Phone' }))
        .status,
    ).toBe(200);
    const viaPhone = await finish(
      browser,
      choosePhone.key,
      await nextSmsCode(t.config.dataDir, PHONE, smsSeen),
      'Phone',
    );
    expect(viaPhone.status, viaPhone.message ?? '').toBe(200);

    // Switch the preferred method to App: the next sign-in sends nothing and takes an app code.
    const preferred = await browser.post<User>('/api/account/preferred2fa', { preferred2fa: 'Totp' });
    expect(preferred.message).toBe(m.preferred2faUpdated);
    expect(preferred.data.preferred2fa).toBe('Totp');
    browser.token = null;
    const mailsBefore = sink.received.length;
    const chooseApp = await passwordStep(browser);
    expect(chooseApp.preferred2fa).toBe('Totp');
    const code = appCode(secret);
    expect((await finish(browser, chooseApp.key, code, 'Totp')).status).toBe(200);
    expect(sink.received.length).toBe(mailsBefore);

    // A recovery code signs in once; the same code again fails.
    browser.token = null;
    const recover = await passwordStep(browser);
    expect(recover.allowed2fa).toContain('Recovery');
    const recoveryCode = recoveryCodes[3]!;
    expect((await finish(browser, recover.key, recoveryCode.toUpperCase(), 'Recovery')).status).toBe(200);
    expect((await browser.get<User>('/api/account')).data.recoveryCodesLeft).toBe(9);
    browser.token = null;
    const again = await passwordStep(browser);
    const replay = await finish(browser, again.key, recoveryCode, 'Recovery');
    expect(replay.status).toBe(401);
    expect(replay.message).toBe(m.otpFailed);
    expect((await finish(browser, again.key, appCode(secret), 'Totp')).status).toBe(200);
    const audit = await t.store.db.selectFrom('audit_log').select('action').execute();
    expect(audit.map((a) => a.action)).toContain('recovery-code.used');

    // Changing the password needs a recent proof: after 10 minutes, reauth first. Other sessions end.
    const other = new AccountClient(t);
    const otherStep = await passwordStep(other);
    expect((await finish(other, otherStep.key, appCode(secret), 'Totp')).status).toBe(200);
    t.clock.advance(11 * 60_000);
    await browser.get('/api/account/verify'); // keeps both sessions alive past the advance
    const stale = await browser.post('/api/account/updatePassword', {
      password: NEW_PASSWORD,
      passwordConfirm: NEW_PASSWORD,
    });
    expect(stale.status).toBe(403);
    expect(stale.message).toBe(am.reauthRequired);
    const wrong = await browser.post('/api/account/reauth', { password: 'Wrong#Pass1' });
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe(am.passwordWrong);
    expect((await browser.post('/api/account/reauth', { password: PASSWORD })).message).toBe(am.reauthDone);
    const changed = await browser.post('/api/account/updatePassword', {
      password: NEW_PASSWORD,
      passwordConfirm: NEW_PASSWORD,
    });
    expect(changed.status, changed.message ?? '').toBe(200);
    expect((await browser.get('/api/account/verify')).status).toBe(200);
    expect((await other.get('/api/account/verify')).status).toBe(401);
    const oldPassword = await browser.post('/api/account/login', {
      username: 'ann',
      password: PASSWORD,
      token: await browser.humanCheck(),
    });
    expect(oldPassword.message).toBe(m.loginFailed);

    // Deleting the account needs a recent proof too; then it and its sessions are gone.
    t.clock.advance(11 * 60_000);
    await browser.get('/api/account/verify');
    expect((await browser.delete('/api/account/delete')).status).toBe(403);
    expect((await browser.post('/api/account/reauth', { password: NEW_PASSWORD })).status).toBe(200);
    const deleted = await browser.delete('/api/account/delete');
    expect(deleted.status, deleted.message ?? '').toBe(200);
    expect(deleted.message).toBe(am.accountDeleted);
    expect((await browser.get('/api/account/verify')).status).toBe(401);
    expect(await t.store.db.selectFrom('users').select('id').where('username', '=', 'ann').execute()).toEqual(
      [],
    );
    for (const table of ['sessions', 'recovery_codes', 'sign_in_attempts', 'user_roles'] as const) {
      const rows = await t.store.db.selectFrom(table).select('id').execute();
      expect(rows, table).toEqual([]);
    }
    const deletions = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'user_id'])
      .where('action', '=', 'account.deleted')
      .execute();
    expect(deletions).toHaveLength(1);
  });
});
