import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, TotpSetup } from '#common/contract/account.ts';
import { AccountClient, signedInClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser, type TestUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import type { TestApp } from '#server/test/test-app.ts';
import { appStoreKinds, buildAppOnStore } from './app-stores.ts';
import { expectNoLeak } from './harness.ts';

/*
 * Parallel replay of one valid code (issue 11 finding 3): a double click, or a client that retries, sends the same
 * right code many times at once. Exactly one verification may become a session, and the others are no guesses: they
 * must not count toward the lockout, let alone lock the account that has just signed in.
 */

const PARALLEL = 20;

describe.each(appStoreKinds)('parallel submits of one valid code, on the %s app store', (kind) => {
  let sink: MailSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startMailSink();
    t = await buildAppOnStore(kind, { env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  async function signInKey(user: TestUser): Promise<{ browser: AccountClient; key: string }> {
    const browser = new AccountClient(t);
    const login = await browser.post<PreSignIn>('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token: await browser.humanCheck(),
    });
    expect(login.status).toBe(200);
    return { browser, key: login.data.key };
  }

  /** Sends the same verification PARALLEL times at once; answers the statuses. */
  async function submitAtOnce(browser: AccountClient, body: object): Promise<number[]> {
    const headers = browser.headers();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        t.app.inject({ method: 'POST', url: '/api/account/login/verify', headers, payload: body }),
      ),
    );
    for (const answer of answers) expectNoLeak(answer);
    return answers.map((a) => a.statusCode);
  }

  /** One new session, no failure counted or audited, the account open. */
  async function expectOneSessionNoFailure(user: TestUser, sessionsBefore: number, statuses: number[]) {
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others: 401 while the winner was still at work, 409 once it had completed the sign-in (issue 32).
    expect(statuses.filter((s) => s !== 200 && s !== 401 && s !== 409)).toEqual([]);
    const sessions = await t.store.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(sessions.length - sessionsBefore).toBe(1);
    const account = await t.store.db
      .selectFrom('users')
      .select(['failed_logins', 'locked_until'])
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ failed_logins: 0, locked_until: null });
    const failures = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.userId)
      .where('action', 'in', ['sign-in.code-failed', 'account.locked'])
      .execute();
    expect(failures).toEqual([]);
  }

  it('makes one session of twenty parallel verifications of an emailed code, and counts no failure', async () => {
    const user = await buildUser(t);
    const { browser, key } = await signInKey(user);
    const code = await sink.nextCode(`${user.username}@example.com`);
    const statuses = await submitAtOnce(browser, { key, otp: code, selected2fa: 'Email' });
    // The factory made one session.
    await expectOneSessionNoFailure(user, 1, statuses);
  });

  it('makes one session of twenty parallel verifications of an authenticator code, and counts no failure', async () => {
    const { user, browser: owner } = await signedInClient(t);
    const setup = await owner.get<TotpSetup>('/api/account/totp');
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.key) });
    const code = () => totp.generate({ timestamp: t.clock.now().getTime() });
    expect((await owner.get(`/api/account/totp/verify/${code()}`)).status).toBe(200);
    expect((await owner.post('/api/account/preferred2fa', { preferred2fa: 'Totp' })).status).toBe(200);
    // The next time step: the code used to set the authenticator up cannot sign in.
    t.clock.advance(30_000);

    const { browser, key } = await signInKey(user);
    const statuses = await submitAtOnce(browser, { key, otp: code(), selected2fa: 'Totp' });
    await expectOneSessionNoFailure(user, 1, statuses);
  });
});
