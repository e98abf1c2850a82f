import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type {
  MethodVerified,
  PreSignIn,
  RecoveryCodes,
  TotpSetup,
  Verification,
} from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { AccountClient, signedInClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/* Two-factor setup and its codes (docs/decisions/0005-accounts.md): email change by code, setup code expiry and
 * guesses, app codes once per time step, re-authentication with the app, recovery codes. */

const MINUTE = 60_000;

describe('two-factor setup', () => {
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

  const signedInUser = () => signedInClient(t);

  it('confirms a new email address by its code; a setup code expires and dies after five wrong guesses', async () => {
    const { user, browser } = await signedInUser();
    // The same person signed in elsewhere too.
    const elsewhere = new AccountClient(t);
    const login = await elsewhere.post<PreSignIn>('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token: await elsewhere.humanCheck(),
    });
    const signedIn = await elsewhere.post<Verification>('/api/account/login/verify', {
      key: login.data.key,
      otp: await sink.nextCode(`${user.username}@example.com`),
      selected2fa: 'Email',
    });
    elsewhere.token = signedIn.data.token;
    expect((await elsewhere.get('/api/account/verify')).status).toBe(200);

    expect((await browser.get('/api/account/eotp/new@example.com')).message).toBe(
      am.codeSentTo('new@example.com'),
    );
    const code = await sink.nextCode('new@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const guess = await browser.get(`/api/account/eotp/verify/${wrong}`);
      expect(guess.status).toBe(400);
      expect(guess.message).toBe(m.otpFailed);
    }
    expect((await browser.get(`/api/account/eotp/verify/${code}`)).message).toBe(am.codeExpired);

    const early = await browser.get('/api/account/eotp/new@example.com');
    expect(early.status).toBe(429);
    expect(early.message).toMatch(/^Please wait \d+ seconds before resending OTP\.$/);
    t.clock.advance(MINUTE);
    await browser.post('/api/account/reauth', { password: TEST_PASSWORD });
    expect((await browser.get('/api/account/eotp/new@example.com')).status).toBe(200);
    const late = await sink.nextCode('new@example.com');
    t.clock.advance(15 * MINUTE + 1000);
    await browser.post('/api/account/reauth', { password: TEST_PASSWORD });
    expect((await browser.get(`/api/account/eotp/verify/${late}`)).message).toBe(am.codeExpired);

    await browser.get('/api/account/eotp/new@example.com');
    const good = await sink.nextCode('new@example.com');
    const verified = await browser.get<MethodVerified>(`/api/account/eotp/verify/${good}`);
    expect(verified.status, verified.message ?? '').toBe(200);
    expect(verified.message).toBe(am.methodVerified('Email'));
    expect(verified.data.user.user_Details[0]).toMatchObject({
      email: 'new@example.com',
      emailVerified: true,
    });
    expect(verified.data.recoveryCodes).toHaveLength(10);
    // A two-factor change ends the account's other sessions, not this one.
    expect((await browser.get('/api/account/verify')).status).toBe(200);
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.userId)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['2fa.email-verified', 'recovery-codes.issued', 'reauth']),
    );
    expect((await elsewhere.get('/api/account/verify')).status).toBe(401);
  });

  it('needs a recent proof to change a method, and takes an app code as that proof', async () => {
    const { browser } = await signedInUser();
    const setup = await browser.get<TotpSetup>('/api/account/totp');
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.key) });
    const code = () => totp.generate({ timestamp: t.clock.now().getTime() });
    expect(
      (await browser.get(`/api/account/totp/verify/${code() === '000000' ? '111111' : '000000'}`)).message,
    ).toBe(m.otpFailed);
    expect((await browser.get(`/api/account/totp/verify/${code()}`)).status).toBe(200);

    t.clock.advance(11 * MINUTE);
    await browser.get('/api/account/verify');
    for (const url of [
      '/api/account/totp',
      '/api/account/eotp/x@example.com',
      '/api/account/potp/+15551234567',
    ]) {
      const answer = await browser.get(url);
      expect(answer.status, url).toBe(403);
      expect(answer.message, url).toBe(am.reauthRequired);
    }
    expect((await browser.post('/api/account/recovery-codes')).status).toBe(403);
    const nothing = await browser.post('/api/account/reauth', {});
    expect(nothing.status).toBe(400);
    expect(nothing.message).toBe(am.reauthMethod);
    // The code that confirmed the app was used in this time step: it cannot confirm again.
    const reused = await browser.post('/api/account/reauth', { otp: code(), selected2fa: 'Totp' });
    expect(reused.status).toBe(200);
    const replay = await browser.post('/api/account/reauth', { otp: code(), selected2fa: 'Totp' });
    expect(replay.status).toBe(400);
    expect(replay.message).toBe(m.otpFailed);

    const fresh = await browser.post<RecoveryCodes>('/api/account/recovery-codes');
    expect(fresh.status).toBe(200);
    expect(fresh.message).toBe(am.recoveryCodesIssued);
    expect(fresh.data.recoveryCodes).toHaveLength(10);
  });

  it('accepts an app code at sign-in once per time step', async () => {
    const { user, browser } = await signedInUser();
    const setup = await browser.get<TotpSetup>('/api/account/totp');
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.key) });
    expect(
      (await browser.get(`/api/account/totp/verify/${totp.generate({ timestamp: t.clock.now().getTime() })}`))
        .status,
    ).toBe(200);
    await browser.post('/api/account/preferred2fa', { preferred2fa: 'Totp' });
    t.clock.advance(30_000);
    const code = totp.generate({ timestamp: t.clock.now().getTime() });

    const signIn = async () => {
      const client = new AccountClient(t);
      const login = await client.post<PreSignIn>('/api/account/login', {
        username: user.username,
        password: TEST_PASSWORD,
        token: await client.humanCheck(),
      });
      expect(login.data.preferred2fa).toBe('Totp');
      return client.post<Verification>('/api/account/login/verify', {
        key: login.data.key,
        otp: code,
        selected2fa: 'Totp',
      });
    };
    expect((await signIn()).status).toBe(200);
    const replay = await signIn();
    expect(replay.status).toBe(401);
    expect(replay.message).toBe(m.otpFailed);
    // One step of drift either way is accepted, two are not.
    t.clock.advance(30_000);
    const client = new AccountClient(t);
    const login = await client.post<PreSignIn>('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token: await client.humanCheck(),
    });
    const old = totp.generate({ timestamp: t.clock.now().getTime() - 60_000 });
    expect(
      (await client.post('/api/account/login/verify', { key: login.data.key, otp: old, selected2fa: 'Totp' }))
        .status,
    ).toBe(401);
    const drift = totp.generate({ timestamp: t.clock.now().getTime() + 30_000 });
    expect(
      (
        await client.post('/api/account/login/verify', {
          key: login.data.key,
          otp: drift,
          selected2fa: 'Totp',
        })
      ).status,
    ).toBe(200);
  });
});
