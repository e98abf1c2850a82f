import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m, formMessages } from '#common/messages.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/* Sign-in rules of docs/decisions/0005-accounts.md through the real API: validation texts of the spec, the resend
 * lock, code replay and expiry, lockout, enumeration resistance, forgot password. */

describe('sign-in', () => {
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

  async function login(browser: AccountClient, username: string, password = TEST_PASSWORD) {
    return browser.post<PreSignIn>('/api/account/login', {
      username,
      password,
      token: await browser.humanCheck(),
    });
  }

  const verify = (browser: AccountClient, key: string, otp: string, selected2fa = 'Email') =>
    browser.post<Verification>('/api/account/login/verify', { key, otp, selected2fa });

  it('answers the spec texts for every invalid login, code, signup and password field', async () => {
    const browser = new AccountClient(t);
    const token = await browser.humanCheck();
    const expectMessage = async (url: string, body: unknown, message: string) => {
      const answer = await browser.post(url, body);
      expect(answer.status, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.message, `${url} ${JSON.stringify(body)}`).toBe(message);
    };
    await expectMessage('/api/account/login', { password: 'x', token }, `username: ${m.usernameRequired}`);
    await expectMessage(
      '/api/account/login',
      { username: '', password: 'x', token },
      `username: ${m.usernameRequired}`,
    );
    await expectMessage(
      '/api/account/login',
      { username: 'a b', password: 'x', token },
      `username: ${m.invalidCharacters}`,
    );
    await expectMessage(
      '/api/account/login',
      { username: 'ann', password: '', token },
      `password: ${m.passwordRequired}`,
    );
    await expectMessage(
      '/api/account/login',
      { username: 'ann', password: 'x' },
      `token: ${formMessages.invalidForm}`,
    );
    await expectMessage(
      '/api/account/login',
      { username: 'ann', password: 'x', token: '' },
      `token: ${formMessages.invalidForm}`,
    );
    await expectMessage(
      '/api/account/login',
      { username: 'ann', password: 'x', token: 'bm90LWEtc29sdXRpb24=' },
      am.humanCheckFailed,
    );

    await expectMessage(
      '/api/account/login/verify',
      { key: 'k', otp: '', selected2fa: 'Email' },
      `otp: ${m.otpRequired}`,
    );
    await expectMessage(
      '/api/account/login/verify',
      { key: 'k', otp: '12345', selected2fa: 'Email' },
      `otp: ${m.otpSixDigits}`,
    );
    await expectMessage(
      '/api/account/login/verify',
      { key: 'k', otp: '12a456', selected2fa: 'Totp' },
      `otp: ${m.otpSixDigits}`,
    );
    await expectMessage(
      '/api/account/login/verify',
      { key: 'k', otp: '123456', selected2fa: 'Recovery' },
      `otp: ${am.recoveryCodeFormat}`,
    );

    const signup = (user: object, password = 'Tr7#kQ2vLm', extra: object = {}) => ({
      user: { username: 'newbie', user_Details: [{ email: 'newbie@example.com' }], ...user },
      password,
      token,
      ...extra,
    });
    const details = (detail: object) => ({ user_Details: [{ email: 'newbie@example.com', ...detail }] });
    await expectMessage(
      '/api/account/signup',
      signup({ username: '' }),
      `user.username: ${m.usernameRequired}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup({ username: 'new-bie' }),
      `user.username: ${m.invalidCharacters}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup(details({ email: '' })),
      `user.user_Details.0.email: ${m.emailRequired}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup(details({ email: 'nope' })),
      `user.user_Details.0.email: ${m.emailInvalid}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup(details({ email: `${'a'.repeat(245)}@x.com` })),
      `user.user_Details.0.email: ${m.emailMax}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup(details({ firstName: 'a'.repeat(51) })),
      `user.user_Details.0.firstName: ${m.firstNameMax}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup(details({ lastName: 'a'.repeat(51) })),
      `user.user_Details.0.lastName: ${m.lastNameMax}`,
    );
    await expectMessage('/api/account/signup', signup({}, ''), `password: ${m.passwordRequired}`);
    await expectMessage('/api/account/signup', signup({}, 'Tr7#kQ'), `password: ${m.passwordMin}`);
    await expectMessage('/api/account/signup', signup({}, 'Trx#kQzvLm'), `password: ${m.passwordNumber}`);
    await expectMessage('/api/account/signup', signup({}, 'TR7#KQ2VLM'), `password: ${m.passwordLowercase}`);
    await expectMessage('/api/account/signup', signup({}, 'tr7#kq2vlm'), `password: ${m.passwordUppercase}`);
    await expectMessage('/api/account/signup', signup({}, 'Tr7xkQ2vLm'), `password: ${m.passwordSymbol}`);
    await expectMessage(
      '/api/account/signup',
      signup({}, 'Tr7#kQ2vLm', { passwordConfirm: 'other' }),
      `passwordConfirm: ${m.passwordsMustMatch}`,
    );
    await expectMessage(
      '/api/account/signup',
      signup({}, 'Tr7#kQ2vLm', { token: undefined }),
      `token: ${formMessages.invalidForm}`,
    );
    // The rules pass, but the password is on every breach list (the solved check is spent here).
    await expectMessage('/api/account/signup', signup({}, 'Password123!'), am.passwordTooCommon);
    // That solution is spent now: the next form needs a new one.
    await expectMessage('/api/account/signup', signup({}), am.humanCheckFailed);

    await expectMessage(
      '/api/account/forgotPassword',
      { username: '', token },
      `username: ${m.usernameRequired}`,
    );
    await expectMessage(
      '/api/account/forgotPassword',
      { username: 'ann' },
      `token: ${formMessages.invalidForm}`,
    );

    const user = await buildUser(t);
    const signedIn = new AccountClient(t);
    signedIn.token = user.token;
    const expectGet = async (url: string, message: string) => {
      const answer = await signedIn.get(url);
      expect(answer.status, url).toBe(400);
      expect(answer.message, url).toBe(message);
    };
    await expectGet('/api/account/eotp/not-an-address', m.emailInvalid);
    await expectGet('/api/account/eotp/%20', m.emailRequired);
    await expectGet('/api/account/potp/5551234567', m.phoneInvalid);
    await expectGet('/api/account/potp/+4455512345678', m.phoneInvalid);
    await expectGet('/api/account/potp/%20', m.phoneRequired);
    await expectGet('/api/account/eotp/verify/12345', m.otpSixDigits);
    await expectGet('/api/account/potp/verify/abcdef', m.otpSixDigits);
    await expectGet('/api/account/totp/verify/%20', m.otpRequired);
    const update = async (body: object, message: string) => {
      const answer = await signedIn.post('/api/account/updatePassword', body);
      expect(answer.status).toBe(400);
      expect(answer.message).toBe(message);
    };
    await update({ password: 'short' }, `password: ${m.passwordMin}`);
    await update(
      { password: 'Tr7#kQ2vLm', passwordConfirm: 'Tr7#kQ2vLn' },
      `passwordConfirm: ${m.passwordsMustMatch}`,
    );
    await update({ password: 'Welcome2024#' }, am.passwordTooCommon);
    expect((await signedIn.post('/api/account/updatePassword', { password: 'Tr7#kQ2vLm' })).status).toBe(200);
    await update({ password: 'Tr7#kQ2vLm' }, am.passwordUnchanged);
  });

  it('locks resending for 60 seconds per method and says how long is left; a new code replaces the last', async () => {
    // The app's time stands still but for the test's own advances: a loaded machine's second is no part of the lock.
    t.clock.freeze();
    onTestFinished(() => t.clock.thaw());
    const user = await buildUser(t);
    const email = `${user.username}@example.com`;
    const browser = new AccountClient(t);
    const { data } = await login(browser, user.username);
    const first = await sink.nextCode(email);

    const early = await browser.post('/api/account/login/resend', { key: data.key, selected2fa: 'Email' });
    expect(early.status).toBe(429);
    expect(early.message).toBe(m.resendWait(60));
    t.clock.advance(45_000);
    expect(
      (await browser.post('/api/account/login/resend', { key: data.key, selected2fa: 'Email' })).message,
    ).toBe(m.resendWait(15));
    expect(
      (await browser.post('/api/account/login/resend', { key: data.key, selected2fa: 'Totp' })).message,
    ).toBe(am.noCodeForTotp);
    expect(
      (await browser.post('/api/account/login/resend', { key: data.key, selected2fa: 'Phone' })).message,
    ).toBe(am.methodNotAllowed);
    t.clock.advance(15_000);
    const again = await browser.post('/api/account/login/resend', { key: data.key, selected2fa: 'Email' });
    expect(again.status, again.message ?? '').toBe(200);
    const second = await sink.nextCode(email);

    if (first !== second) {
      const stale = await verify(browser, data.key, first);
      expect(stale.status).toBe(401);
      expect(stale.message).toBe(m.otpFailed);
    }
    const ok = await verify(browser, data.key, second);
    expect(ok.status).toBe(200);
    browser.token = ok.data.token;
    // Replay: the key and the code worked once. Within the key's life a second verify says the sign-in is complete
    // (409, not the 401 that a client takes for its session's end: issue 32), and the session it started lives on.
    const replay = await verify(browser, data.key, second);
    expect(replay.status).toBe(409);
    expect(replay.message).toBe(am.signInAlreadyComplete);
    expect((await verify(browser, data.key, '000000')).status).toBe(409);
    expect((await browser.get('/api/account/verify')).status).toBe(200);
    expect(
      (await browser.post('/api/account/login/resend', { key: data.key, selected2fa: 'Email' })).message,
    ).toBe(m.resendFailed);
  });

  it('lets a pre-sign-in key and its code expire', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    const { data } = await login(browser, user.username);
    const code = await sink.nextCode(`${user.username}@example.com`);
    t.clock.advance(10 * 60_000 + 1000);
    const late = await verify(browser, data.key, code);
    expect(late.status).toBe(401);
    expect(late.message).toBe(m.otpFailed);
  });

  it('never takes the pre-sign-in key as a bearer token', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    const { data } = await login(browser, user.username);
    browser.token = data.key;
    const answer = await browser.get('/api/account/verify');
    expect(answer.status).toBe(401);
    expect(answer.message).toBe(am.signInRequired);
    await sink.next(`${user.username}@example.com`);
  });

  it('locks an account for 15 minutes after five failures in a row, tells nobody, and audits it', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    for (let i = 0; i < 5; i++) {
      const wrong = await login(browser, user.username, 'Wrong#Pass1');
      expect(wrong.status).toBe(401);
      expect(wrong.message).toBe(m.loginFailed);
    }
    const locked = await login(browser, user.username);
    expect(locked.status).toBe(401);
    expect(locked.message).toBe(m.loginFailed);
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('user_id', '=', user.userId)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      ...Array(5).fill('sign-in.password-failed'),
      'account.locked',
      'sign-in.refused-locked',
    ]);
    t.clock.advance(15 * 60_000 + 1000);
    const open = await login(browser, user.username);
    expect(open.status).toBe(200);

    // Wrong codes count as well.
    for (let i = 0; i < 5; i++)
      expect((await verify(browser, open.data.key, '000000')).message).toBe(m.otpFailed);
    const code = await sink.nextCode(`${user.username}@example.com`);
    expect((await verify(browser, open.data.key, code)).status).toBe(401);
    const locks = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.userId)
      .where('action', '=', 'account.locked')
      .execute();
    expect(locks).toHaveLength(2);
    t.clock.advance(15 * 60_000 + 1000);
  });

  it('answers an unknown username exactly like a wrong password', async () => {
    // The time (a password hash either way) is measured in test/security/enumeration.test.ts, by processor time,
    // which two busy cores do not stretch the way they stretch wall time.
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    const attempt = async (username: string) => {
      const answer = await login(browser, username, 'Wrong#Pass1');
      return { status: answer.status, body: answer.response.json() };
    };
    for (let i = 0; i < 3; i++) expect(await attempt(`nobody${i}`)).toEqual(await attempt(user.username));
    // Three failures are below the lockout; clear them for other tests.
    await t.store.db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', user.userId).execute();

    // Forgot password: the same answer for an unknown username, a key that never verifies.
    const forgot = async (username: string) =>
      browser.post<string>('/api/account/forgotPassword', { username, token: await browser.humanCheck() });
    const real = await forgot(user.username);
    const fake = await forgot('nobodyatall');
    expect(fake.status).toBe(real.status);
    expect(fake.message).toBe(real.message);
    const decode = (pu: string) => JSON.parse(Buffer.from(pu, 'base64').toString()) as PreSignIn;
    const realPu = decode(real.data);
    const fakePu = decode(fake.data);
    expect({ ...fakePu, key: 'k' }).toEqual({ ...realPu, key: 'k' });
    expect(fakePu.key).toMatch(/^[\w-]{43}$/);
    expect(
      (await browser.post('/api/account/login/resend', { key: fakePu.key, selected2fa: 'Email' })).message,
    ).toBe(m.resendWait(60));
    expect((await verify(browser, fakePu.key, '123456')).message).toBe(m.otpFailed);
    await sink.next(`${user.username}@example.com`);
  });

  it('refuses a solved human check the second time', async () => {
    const user = await buildUser(t);
    const browser = new AccountClient(t);
    const token = await browser.humanCheck();
    const first = await browser.post('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token,
    });
    expect(first.status).toBe(200);
    const second = await browser.post('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token,
    });
    expect(second.status).toBe(400);
    expect(second.message).toBe(am.humanCheckFailed);
    await sink.next(`${user.username}@example.com`);
  });

  it('signs in through forgot password straight to a password change that needs no old password', async () => {
    const user = await buildUser(t);
    const email = `${user.username}@example.com`;
    const elsewhere = new AccountClient(t);
    elsewhere.token = user.token;
    const browser = new AccountClient(t);
    const forgot = await browser.post<string>('/api/account/forgotPassword', {
      username: user.username,
      token: await browser.humanCheck(),
    });
    expect(forgot.status).toBe(200);
    expect(forgot.message).toBe(am.forgotPasswordSent);
    const pu = JSON.parse(Buffer.from(forgot.data, 'base64').toString()) as PreSignIn;
    const mail = await sink.next(email);
    expect(mail.raw).toContain('password reset code');
    const signedIn = await verify(browser, pu.key, /^ {4}(\d{6})\s*$/m.exec(mail.raw)![1]!);
    expect(signedIn.status).toBe(200);
    expect(signedIn.data.user.passwordExpired).toBe(true);
    browser.token = signedIn.data.token;
    const changed = await browser.post('/api/account/updatePassword', { password: 'Nq4%tZ8cWr' });
    expect(changed.status, changed.message ?? '').toBe(200);
    expect(changed.message).toBe(am.passwordUpdated);
    const after = await browser.get<Verification>('/api/account/verify');
    expect(after.data.user.passwordExpired).toBe(false);
    expect((await elsewhere.get('/api/account/verify')).status).toBe(401);
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.userId)
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'password.reset-requested',
      'sign-in.password-reset',
      'password.changed',
    ]);
  });

  it('marks the password expired after PASSWORD_MAX_AGE_DAYS', async () => {
    const aged = await buildTestApp({ env: { SMTP_URL: sink.url, PASSWORD_MAX_AGE_DAYS: '90' } });
    try {
      const user = await buildUser(aged);
      const browser = new AccountClient(aged);
      browser.token = user.token;
      expect((await browser.get<Verification>('/api/account/verify')).data.user.passwordExpired).toBe(false);
      await aged.store.db
        .updateTable('users')
        .set({ password_changed_at: new Date(Date.now() - 91 * 86_400_000).toISOString() })
        .where('id', '=', user.userId)
        .execute();
      const verification = await browser.get<Verification>('/api/account/verify');
      expect(verification.data.user.passwordExpired).toBe(true);
    } finally {
      await aged.close();
    }
  });
});
