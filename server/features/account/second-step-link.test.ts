import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { findUserById } from '#server/store/users.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { SECOND_STEP_LINK_LIFETIME_MS, issueSecondStepLink, secondStepLinkOf } from './second-step-link.ts';

/* The second-step link of `dbui admin reset-2fa` (decision 0057) through the real API: after the password it stands
 * in for the second step once, within 24 hours; the lockout counts a token never issued, not a spent one. */

describe('the second-step link', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function passwordStep(browser: AccountClient, username: string, password = TEST_PASSWORD) {
    const answer = await browser.post<PreSignIn>('/api/account/login', {
      username,
      password,
      token: await browser.humanCheck(),
    });
    expect(answer.status).toBe(200);
    return answer.data.key;
  }

  const useLink = (browser: AccountClient, key: string, link: string) =>
    browser.post<Verification>('/api/account/login/link', { key, link });

  const actionsOf = async (userId: number) =>
    (
      await t.store.db
        .selectFrom('audit_log')
        .select(['action', 'user_id', 'detail'])
        .where('target', '=', `user:${userId}`)
        .orderBy('id')
        .execute()
    ).map((entry) => entry.action);

  const failedChecks = async (userId: number) => (await findUserById(t.store.db, userId))?.failed_logins;

  it('is the login page with the token, landing on the account page', () => {
    expect(secondStepLinkOf('https://dbui.example.com/', 'abc')).toBe(
      'https://dbui.example.com/account/login?r=%2Faccount&reset2fa=abc',
    );
  });

  it('completes a sign-in after the password, once, and both its issue and its use are audited', async () => {
    const user = await buildUser(t);
    const { token, expiresAt } = await issueSecondStepLink(t.store, user.userId, {
      userId: null,
      now: t.clock.now(),
      via: 'dbui on test as tester',
    });
    expect(Date.parse(expiresAt) - t.clock.now().getTime()).toBeLessThanOrEqual(SECOND_STEP_LINK_LIFETIME_MS);

    const browser = new AccountClient(t);
    const signedIn = await useLink(browser, await passwordStep(browser, user.username), token);
    expect(signedIn.status).toBe(200);
    expect(signedIn.data.user.username).toBe(user.username);
    // The session is a fresh sign-in: it may set up a new second factor at once.
    browser.token = signedIn.data.token;
    expect((await browser.get('/api/account/totp')).status).toBe(200);
    expect(await actionsOf(user.userId)).toEqual(
      expect.arrayContaining(['2fa.reset-link-issued', '2fa.reset-link-used', 'sign-in']),
    );
    const issued = await t.store.db
      .selectFrom('audit_log')
      .select(['user_id', 'detail'])
      .where('action', '=', '2fa.reset-link-issued')
      .where('target', '=', `user:${user.userId}`)
      .executeTakeFirstOrThrow();
    expect(issued.user_id).toBeNull();
    expect(JSON.parse(issued.detail ?? '{}')).toEqual({ expiresAt, via: 'dbui on test as tester' });

    // Spent: refused, and no guess.
    const again = new AccountClient(t);
    const refused = await useLink(again, await passwordStep(again, user.username), token);
    expect([refused.status, refused.message]).toEqual([401, am.secondStepLinkInvalid]);
    expect(await failedChecks(user.userId)).toBe(0);
  });

  it('refuses a token never issued to the account as a failed check, and an expired one as none', async () => {
    const user = await buildUser(t);
    const other = await buildUser(t);
    const { token: othersLink } = await issueSecondStepLink(t.store, other.userId, {
      userId: null,
      now: t.clock.now(),
    });
    const browser = new AccountClient(t);
    const key = await passwordStep(browser, user.username);
    const wrong = await useLink(browser, key, othersLink);
    expect([wrong.status, wrong.message]).toEqual([401, am.secondStepLinkInvalid]);
    expect(await failedChecks(user.userId)).toBe(1);
    expect(await actionsOf(user.userId)).toContain('sign-in.link-failed');

    const { token } = await issueSecondStepLink(t.store, user.userId, { userId: null, now: t.clock.now() });
    t.clock.advance(SECOND_STEP_LINK_LIFETIME_MS + 1000);
    const late = new AccountClient(t);
    const expired = await useLink(late, await passwordStep(late, user.username), token);
    expect([expired.status, expired.message]).toEqual([401, am.secondStepLinkInvalid]);
    // The right password cleared nothing yet; the expired link added nothing.
    expect(await failedChecks(user.userId)).toBe(1);
  });

  it('replaces the account’s earlier link, and never stands in for the password', async () => {
    const user = await buildUser(t);
    const first = await issueSecondStepLink(t.store, user.userId, { userId: null, now: t.clock.now() });
    const second = await issueSecondStepLink(t.store, user.userId, { userId: null, now: t.clock.now() });
    const browser = new AccountClient(t);
    const key = await passwordStep(browser, user.username);
    expect((await useLink(browser, key, first.token)).message).toBe(am.secondStepLinkInvalid);

    // A key that no password opened (forgot password's) is refused before the link is looked at.
    const forgot = await browser.post<string>('/api/account/forgotPassword', {
      username: user.username,
      token: await browser.humanCheck(),
    });
    const forgotKey = (JSON.parse(Buffer.from(forgot.data, 'base64').toString('utf8')) as PreSignIn).key;
    const refused = await useLink(browser, forgotKey, second.token);
    expect([refused.status, refused.message]).toEqual([401, m.otpFailed]);
    expect((await useLink(browser, 'no-such-key', second.token)).status).toBe(401);

    const signedIn = await useLink(browser, key, second.token);
    expect(signedIn.status).toBe(200);
  });
});
