import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { AccountClient, type Answer } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser, type TestUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { expectHealthy, expectNoLeak, openSecurityTarget, type SecurityTarget } from './harness.ts';

/*
 * Guessing passwords, one after another (parallel bursts: lockout-races.test.ts). Already covered in
 * server/features/account/sign-in.test.ts and not repeated: five wrong passwords lock an account for 15 minutes with
 * the words of a wrong password, audited, and a lock that runs out; five wrong codes lock it too; an unknown
 * username answers like a wrong password. And in sessions.test.ts: the per-address limit (429). Here: failures of
 * every kind add up to one lock; every way in is shut while it lasts (a code or recovery code of a sign-in begun
 * before, forgot password, re-authentication); guesses during the lock do not stretch it; the count starts again
 * after an unlock and after a complete sign-in; a lock is one account's. The browsed engine does not matter: the
 * app runs with a SQLite target for the canary and health oracles.
 */

const MINUTE = 60_000;
const WRONG = 'Wrong#Pass1';

describe('guessing passwords', () => {
  let sink: MailSink;
  let target: SecurityTarget;

  const t = () => target.t;
  let advanced = 0;
  /** Moves the app's time; it is moved back at the end, so the administrator's session holds for the oracles. */
  const advance = (ms: number) => {
    advanced += ms;
    t().clock.advance(ms);
  };
  const state = async (userId: number) =>
    t()
      .store.db.selectFrom('users')
      .select(['failed_logins', 'locked_until'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();

  async function login(browser: AccountClient, username: string, password = TEST_PASSWORD) {
    const answer = await browser.post<PreSignIn>('/api/account/login', {
      username,
      password,
      token: await browser.humanCheck(),
    });
    expectNoLeak(answer.response);
    return answer;
  }
  async function verify(browser: AccountClient, key: string, otp: string, selected2fa = 'Email') {
    const answer = await browser.post<Verification>('/api/account/login/verify', { key, otp, selected2fa });
    expectNoLeak(answer.response);
    return answer;
  }
  const emailOf = (user: TestUser) => `${user.username}@example.com`;
  /** A complete sign-in: password, then the mailed code. */
  async function signIn(user: TestUser): Promise<Answer<Verification>> {
    const browser = new AccountClient(t());
    const first = await login(browser, user.username);
    expect(first.status, first.message ?? '').toBe(200);
    return verify(browser, first.data.key, await sink.nextCode(emailOf(user)));
  }
  const expectLoginRefused = (answer: Answer) => {
    expect(answer.status).toBe(401);
    expect(answer.response.json()).toEqual({ isSuccess: false, data: null, message: m.loginFailed });
  };
  const expectCodeRefused = (answer: Answer) => {
    expect(answer.status).toBe(401);
    expect(answer.response.json()).toEqual({ isSuccess: false, data: null, message: m.otpFailed });
  };

  beforeAll(async () => {
    sink = await startMailSink();
    target = await openSecurityTarget('sqlite', { env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    if (target) {
      target.t.clock.advance(-advanced);
      await target.expectCanaryIntact();
      await expectHealthy(target);
      await target.close();
    }
    await sink?.close();
  });

  it('adds wrong passwords, wrong codes and a wrong re-authentication up to one lock', async () => {
    const user = await buildUser(t());
    const session = new AccountClient(t());
    session.token = user.token;
    const browser = new AccountClient(t());
    for (let i = 0; i < 2; i++) expectLoginRefused(await login(browser, user.username, WRONG));
    // A right password alone does not clear the count: the sign-in is not complete.
    const open = await login(browser, user.username);
    expect(open.status).toBe(200);
    const code = await sink.nextCode(emailOf(user));
    for (let i = 0; i < 2; i++)
      expectCodeRefused(await verify(browser, open.data.key, code === '000000' ? '111111' : '000000'));
    expect((await state(user.userId)).failed_logins).toBe(4);
    const reauth = await session.post('/api/account/reauth', { password: WRONG });
    expectNoLeak(reauth.response);
    expect(reauth.status).toBe(400);
    expect(reauth.message).toBe(am.passwordWrong);
    expect((await state(user.userId)).locked_until).not.toBeNull();
    // Locked: the right code of the sign-in begun before, and the right password, are refused alike.
    expectCodeRefused(await verify(browser, open.data.key, code));
    expectLoginRefused(await login(browser, user.username));
    advance(15 * MINUTE + 1000);
  });

  it('shuts every way in while locked, with the words of a wrong guess, and guesses meanwhile do not stretch it', async () => {
    const user = await buildUser(t());
    const session = new AccountClient(t());
    session.token = user.token;
    const issued = await session.post<{ recoveryCodes: string[] }>('/api/account/recovery-codes');
    expect(issued.status, issued.message ?? '').toBe(200);
    const recovery = issued.data.recoveryCodes[0] ?? '';

    // A sign-in begun before the lock, its code on the way.
    const browser = new AccountClient(t());
    const before = await login(browser, user.username);
    expect(before.data.allowed2fa).toContain('Recovery');
    const code = await sink.nextCode(emailOf(user));
    for (let i = 0; i < 5; i++) expectLoginRefused(await login(browser, user.username, WRONG));
    const lockedUntil = (await state(user.userId)).locked_until;
    expect(lockedUntil).not.toBeNull();

    const wrongAnswer = (await login(browser, user.username, WRONG)).response.json();
    expect((await login(browser, user.username)).response.json()).toEqual(wrongAnswer);
    expectCodeRefused(await verify(browser, before.data.key, code));
    expectCodeRefused(await verify(browser, before.data.key, recovery, 'Recovery'));
    // Forgot password opens a sign-in as always (its answer tells nothing), but its code does not sign in.
    const forgot = await browser.post<string>('/api/account/forgotPassword', {
      username: user.username,
      token: await browser.humanCheck(),
    });
    expect(forgot.status).toBe(200);
    const resetKey = (JSON.parse(Buffer.from(forgot.data, 'base64').toString()) as PreSignIn).key;
    expectCodeRefused(await verify(browser, resetKey, await sink.nextCode(emailOf(user))));
    // Re-authentication too (refused unchecked: this session did not cause the lock, so it is kept).
    const reauth = await session.post('/api/account/reauth', { password: TEST_PASSWORD });
    expect(reauth.status).toBe(400);
    expect(reauth.message).toBe(am.passwordWrong);

    // Guesses up to the last second of the lock change nothing about its end.
    advance(14 * MINUTE);
    for (let i = 0; i < 3; i++) expectLoginRefused(await login(browser, user.username, WRONG));
    expect((await state(user.userId)).locked_until).toBe(lockedUntil);
    advance(MINUTE + 1000);
    const after = await signIn(user);
    expect(after.status, after.message ?? '').toBe(200);
    // The recovery code tried during the lock was not spent.
    const left = await session.get<{ recoveryCodesLeft: number }>('/api/account');
    expect(left.data.recoveryCodesLeft).toBe(10);
  });

  it('starts counting again after a complete sign-in and after a lock runs out', async () => {
    const user = await buildUser(t());
    const browser = new AccountClient(t());
    for (let i = 0; i < 4; i++) expectLoginRefused(await login(browser, user.username, WRONG));
    expect((await signIn(user)).status).toBe(200);
    expect(await state(user.userId)).toEqual({ failed_logins: 0, locked_until: null });
    for (let i = 0; i < 4; i++) expectLoginRefused(await login(browser, user.username, WRONG));
    expect((await state(user.userId)).locked_until).toBeNull();

    expectLoginRefused(await login(browser, user.username, WRONG)); // the fifth in a row: locked
    advance(15 * MINUTE + 1000);
    for (let i = 0; i < 4; i++) expectLoginRefused(await login(browser, user.username, WRONG));
    expect((await state(user.userId)).failed_logins).toBe(4);
    expect((await signIn(user)).status).toBe(200);
  });

  it("locks one account, not its neighbours', and nothing for names nobody has", async () => {
    const locked = await buildUser(t());
    const neighbour = await buildUser(t());
    const browser = new AccountClient(t());
    for (let i = 0; i < 5; i++) expectLoginRefused(await login(browser, locked.username, WRONG));
    for (let i = 0; i < 6; i++) expectLoginRefused(await login(browser, `nobody${i % 2}`, WRONG));
    expect((await signIn(neighbour)).status).toBe(200);
    expect((await state(neighbour.userId)).failed_logins).toBe(0);
    advance(15 * MINUTE + 1000);
  });
});
