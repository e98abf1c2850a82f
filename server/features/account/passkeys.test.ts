import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, User, Verification } from '#common/contract/account.ts';
import type {
  PasskeyLoginOptions,
  PasskeyRegistrationOptions,
  PasskeySummary,
} from '#common/contract/passkeys.ts';
import { accountApiMessages as am, accountMessages as m, passkeyMessages as pm } from '#common/messages.ts';
import { AccountClient, signedInClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { SoftAuthenticator } from '#server/test/soft-authenticator.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/* Passkeys (docs/decisions/0009-passkeys.md) through the real API with a software authenticator: registration
 * and its refusals, challenges bound, expiring and used once, sign-in with a passkey alone and as the second step,
 * counter and lockout, removal. The browser journey with Chromium's virtual authenticator is e2e/passkeys.spec.ts. */

const ORIGIN = 'http://localhost:8080';
const RP_ID = 'localhost';
const MINUTE = 60_000;

describe('passkeys', () => {
  let sink: MailSink;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startMailSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL: ORIGIN } });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const signedInUser = () => signedInClient(t);

  async function registrationOptions(browser: AccountClient) {
    const answer = await browser.post<PasskeyRegistrationOptions>('/api/account/passkeys/register/options');
    expect(answer.status, answer.message ?? '').toBe(200);
    return answer.data;
  }

  /** A signed-in user with one passkey on a software authenticator. */
  async function userWithPasskey() {
    const signedIn = await signedInUser();
    const authenticator = new SoftAuthenticator(ORIGIN, RP_ID);
    const added = await signedIn.browser.post<PasskeySummary>('/api/account/passkeys/register/verify', {
      response: authenticator.register(await registrationOptions(signedIn.browser)),
      name: 'Laptop',
    });
    expect(added.status, added.message ?? '').toBe(200);
    return { ...signedIn, authenticator, passkeyId: added.data.id };
  }

  async function signInOptions(browser: AccountClient, body: { key?: string } = {}) {
    return browser.post<PasskeyLoginOptions>('/api/account/login/passkey/options', body);
  }

  async function auditOf(userId: number) {
    const rows = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.action);
  }

  it('registers a passkey: options for a resident key with user verification, stored, listed and counted', async () => {
    const { user, browser } = await signedInUser();
    const options = await registrationOptions(browser);
    expect(options).toMatchObject({
      rp: { name: 'DBUI', id: RP_ID },
      user: { name: user.username },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    });
    const authenticator = new SoftAuthenticator(ORIGIN, RP_ID);
    const added = await browser.post<PasskeySummary>('/api/account/passkeys/register/verify', {
      response: authenticator.register(options),
    });
    expect(added.status, added.message ?? '').toBe(200);
    expect(added.message).toBe(pm.added);
    expect(added.data).toMatchObject({ name: 'Passkey 1', lastUsedAt: null });

    const listed = await browser.get<PasskeySummary[]>('/api/account/passkeys');
    expect(listed.data).toEqual([added.data]);
    const me = await browser.get<User>('/api/account');
    expect(me.data.passkeys).toBe(1);
    expect(me.data.allowed2fa).toEqual(['Email', 'Passkey']);
    const stored = await t.store.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      credential_id: authenticator.id,
      transports: '["internal"]',
      device_type: 'singleDevice',
      backed_up: 0,
    });
    expect(await auditOf(user.userId)).toContain('passkey.added');

    // The next options exclude it, and the same credential cannot be registered twice.
    const again = await registrationOptions(browser);
    expect(again.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);
    const twice = await browser.post('/api/account/passkeys/register/verify', {
      response: authenticator.register(again),
    });
    expect(twice.status).toBe(409);
    expect(twice.message).toBe(pm.alreadyRegistered);
  });

  it('refuses registration without sign-in (401), without a recent proof (403), and bad answers (400)', async () => {
    const anonymous = new AccountClient(t);
    expect((await anonymous.post('/api/account/passkeys/register/options')).status).toBe(401);
    expect((await anonymous.get('/api/account/passkeys')).status).toBe(401);

    const { browser } = await signedInUser();
    const authenticator = new SoftAuthenticator(ORIGIN, RP_ID);
    const register = (body: unknown) => browser.post('/api/account/passkeys/register/verify', body);
    const expectRefusal = async (body: unknown, status: number, message: unknown) => {
      const answer = await register(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.message).toEqual(message);
    };

    // A challenge this server never issued, or issued to another session (of another user, or the same user).
    await expectRefusal(
      { response: authenticator.register({ challenge: 'bm90LWlzc3VlZC1oZXJl' }) },
      400,
      pm.challengeInvalid,
    );
    const other = await signedInUser();
    const foreign = await registrationOptions(other.browser);
    await expectRefusal({ response: authenticator.register(foreign) }, 400, pm.challengeInvalid);
    // An answer whose clientDataJSON is not JSON.
    const garbled = authenticator.register(await registrationOptions(browser));
    garbled.response.clientDataJSON = 'bm90IGpzb24';
    await expectRefusal({ response: garbled }, 400, pm.responseUnreadable);
    // Signed for another site, another RP ID, or without user verification: verified and refused.
    for (const bend of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { userVerified: false },
    ]) {
      await expectRefusal(
        { response: authenticator.register(await registrationOptions(browser), bend) },
        400,
        pm.registrationFailed,
      );
    }
    // Each challenge works once: the one refused above is gone, so is a good one used twice.
    const options = await registrationOptions(browser);
    const good = authenticator.register(options);
    expect((await register({ response: good, name: 'Phone' })).status).toBe(200);
    await expectRefusal({ response: good }, 400, pm.challengeInvalid);
    // And expires after 5 minutes.
    const late = await registrationOptions(browser);
    t.clock.advance(5 * MINUTE + 1000);
    await expectRefusal(
      { response: new SoftAuthenticator(ORIGIN, RP_ID).register(late) },
      400,
      pm.challengeInvalid,
    );
    // Validation names the field.
    await expectRefusal(
      { response: { ...good, type: 'secret' } },
      400,
      expect.stringContaining('response.type'),
    );

    // Ten minutes after the last proof, registration needs re-authentication.
    t.clock.advance(6 * MINUTE);
    const stale = await browser.post('/api/account/passkeys/register/options');
    expect(stale.status).toBe(403);
    expect(stale.message).toBe(am.reauthRequired);
    expect((await register({ response: good })).status).toBe(403);
    expect((await browser.post('/api/account/reauth', { password: TEST_PASSWORD })).status).toBe(200);
    expect((await browser.post('/api/account/passkeys/register/options')).status).toBe(200);
  });

  it("removes only the account's own passkeys, with a recent proof", async () => {
    const ann = await userWithPasskey();
    const bob = await userWithPasskey();
    const gone = await bob.browser.delete(`/api/account/passkeys/${ann.passkeyId}`);
    expect(gone.status).toBe(404);
    expect(gone.message).toBe(pm.notFound);
    expect((await bob.browser.delete('/api/account/passkeys/999999')).status).toBe(404);
    expect((await new AccountClient(t).delete(`/api/account/passkeys/${ann.passkeyId}`)).status).toBe(401);
    expect((await ann.browser.get<PasskeySummary[]>('/api/account/passkeys')).data).toHaveLength(1);

    t.clock.advance(11 * MINUTE);
    expect((await ann.browser.delete(`/api/account/passkeys/${ann.passkeyId}`)).status).toBe(403);
    await ann.browser.post('/api/account/reauth', { password: TEST_PASSWORD });
    const removed = await ann.browser.delete(`/api/account/passkeys/${ann.passkeyId}`);
    expect(removed.status).toBe(200);
    expect(removed.message).toBe(pm.removed);
    expect((await ann.browser.get<PasskeySummary[]>('/api/account/passkeys')).data).toEqual([]);
    expect((await ann.browser.get<User>('/api/account')).data.allowed2fa).not.toContain('Passkey');
    expect(await auditOf(ann.user.userId)).toContain('passkey.removed');
    // The removed passkey no longer signs in.
    const options = await signInOptions(new AccountClient(t));
    const refused = await new AccountClient(t).post('/api/account/login/passkey/verify', {
      ceremonyId: options.data.ceremonyId,
      response: ann.authenticator.authenticate(options.data.options),
    });
    expect(refused.status).toBe(401);
    expect(refused.message).toBe(pm.unknownPasskey);
  });

  it('signs in with a passkey alone: a session like login/verify answers, counter checked, lockout', async () => {
    const { user, authenticator } = await userWithPasskey();
    const browser = new AccountClient(t);
    const options = await signInOptions(browser);
    expect(options.status, options.message ?? '').toBe(200);
    expect(options.data.options).toMatchObject({
      rpId: RP_ID,
      allowCredentials: [],
      userVerification: 'required',
    });
    expect(options.data.ceremonyId).toEqual(expect.any(String));
    const verify = (body: unknown) => browser.post<Verification>('/api/account/login/passkey/verify', body);
    const good = authenticator.authenticate(options.data.options);
    const signedIn = await verify({ ceremonyId: options.data.ceremonyId, response: good });
    expect(signedIn.status, signedIn.message ?? '').toBe(200);
    expect(signedIn.data.user.username).toBe(user.username);
    browser.token = signedIn.data.token;
    const verified = await browser.get<Verification>('/api/account/verify');
    expect(verified.status).toBe(200);
    expect(verified.data.user.passkeys).toBe(1);
    const session = await t.store.db
      .selectFrom('sessions')
      .select('method')
      .where('user_id', '=', user.userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.method).toBe('Passkey');
    const [listed] = (await browser.get<PasskeySummary[]>('/api/account/passkeys')).data;
    expect(listed?.lastUsedAt).not.toBeNull();
    // Signed out again (the XSRF cookie of a session does not work without it).
    browser.token = null;
    browser.xsrf = null;

    // The same answer again: the ceremony's challenge was used.
    expect((await verify({ ceremonyId: options.data.ceremonyId, response: good })).message).toBe(
      pm.challengeInvalid,
    );
    // Another ceremony's id with this challenge, or a challenge never issued.
    const mine = await signInOptions(browser);
    const theirs = await signInOptions(browser);
    expect(
      (
        await verify({
          ceremonyId: theirs.data.ceremonyId,
          response: authenticator.authenticate(mine.data.options),
        })
      ).status,
    ).toBe(400);
    // Not both key and ceremonyId.
    const both = await verify({ ceremonyId: 'a', key: 'b', response: good });
    expect(both.status).toBe(400);
    expect(both.message).toBe(pm.keyOrCeremony);
    // An expired ceremony.
    const late = await signInOptions(browser);
    t.clock.advance(5 * MINUTE + 1000);
    expect(
      (
        await verify({
          ceremonyId: late.data.ceremonyId,
          response: authenticator.authenticate(late.data.options),
        })
      ).message,
    ).toBe(pm.challengeInvalid);
    // A credential this server does not know.
    const stranger = new SoftAuthenticator(ORIGIN, RP_ID);
    const unknown = await signInOptions(browser);
    const refused = await verify({
      ceremonyId: unknown.data.ceremonyId,
      response: stranger.authenticate(unknown.data.options),
    });
    expect(refused.status).toBe(401);
    expect(refused.message).toBe(pm.unknownPasskey);

    // Failed checks (a counter that did not grow: a cloned authenticator, another origin, no user verification,
    // another account's user handle) count toward the lockout; five lock the account even for a good passkey.
    const stored = await t.store.db
      .selectFrom('passkeys')
      .select('counter')
      .where('credential_id', '=', authenticator.id)
      .executeTakeFirstOrThrow();
    const failing = [
      { counter: Number(stored.counter) },
      { origin: 'https://evil.example' },
      { userVerified: false },
      { userHandle: 'c29tZW9uZS1lbHNl' },
      { userHandle: null },
    ];
    for (const bend of failing) {
      const attempt = await signInOptions(browser);
      const answer = await verify({
        ceremonyId: attempt.data.ceremonyId,
        response: authenticator.authenticate(attempt.data.options, bend),
      });
      expect(answer.status, JSON.stringify(bend)).toBe(401);
      expect(answer.message).toBe(m.loginFailed);
    }
    const locked = await signInOptions(browser);
    const lockedAnswer = await verify({
      ceremonyId: locked.data.ceremonyId,
      response: authenticator.authenticate(locked.data.options),
    });
    expect(lockedAnswer.status).toBe(401);
    const actions = await auditOf(user.userId);
    expect(actions.filter((a) => a === 'sign-in.passkey-failed')).toHaveLength(5);
    expect(actions).toEqual(expect.arrayContaining(['sign-in', 'account.locked', 'sign-in.refused-locked']));
    t.clock.advance(16 * MINUTE);
    const unlocked = await signInOptions(browser);
    const after = await verify({
      ceremonyId: unlocked.data.ceremonyId,
      response: authenticator.authenticate(unlocked.data.options),
    });
    expect(after.status, after.message ?? '').toBe(200);
  });

  it('takes a passkey as the second step after the password', async () => {
    const { user, authenticator } = await userWithPasskey();
    const browser = new AccountClient(t);
    const password = async () => {
      const answer = await browser.post<PreSignIn>('/api/account/login', {
        username: user.username,
        password: TEST_PASSWORD,
        token: await browser.humanCheck(),
      });
      expect(answer.status, answer.message ?? '').toBe(200);
      await sink.nextCode(`${user.username}@example.com`);
      return answer.data;
    };
    const preSignIn = await password();
    expect(preSignIn.allowed2fa).toEqual(['Email', 'Passkey']);
    expect(preSignIn.disableSelect2fa).toBe(false);

    // login/verify points to the passkey route.
    const wrongRoute = await browser.post('/api/account/login/verify', {
      key: preSignIn.key,
      otp: '123456',
      selected2fa: 'Passkey',
    });
    expect(wrongRoute.status).toBe(400);
    expect(wrongRoute.message).toBe(`selected2fa: ${pm.useItsOwnRoute}`);

    const options = await signInOptions(browser, { key: preSignIn.key });
    expect(options.status, options.message ?? '').toBe(200);
    expect(options.data.ceremonyId).toBeNull();
    expect(options.data.options.allowCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);
    // The challenge of this attempt is not a ceremony's, and the other way round.
    const ceremony = await signInOptions(browser);
    const crossed = await browser.post('/api/account/login/passkey/verify', {
      key: preSignIn.key,
      response: authenticator.authenticate(ceremony.data.options),
    });
    expect(crossed.status).toBe(400);
    expect(crossed.message).toBe(pm.challengeInvalid);
    const signedIn = await browser.post<Verification>('/api/account/login/passkey/verify', {
      key: preSignIn.key,
      response: authenticator.authenticate(options.data.options),
    });
    expect(signedIn.status, signedIn.message ?? '').toBe(200);
    browser.token = signedIn.data.token;
    expect((await browser.get('/api/account/verify')).status).toBe(200);
    browser.token = null;
    browser.xsrf = null;
    // The key was used.
    expect((await signInOptions(browser, { key: preSignIn.key })).status).toBe(401);

    // Another account's passkey is not this account's second step (and counts as a failure).
    const other = await userWithPasskey();
    const next = await password();
    const nextOptions = await signInOptions(browser, { key: next.key });
    const foreign = await browser.post('/api/account/login/passkey/verify', {
      key: next.key,
      response: other.authenticator.authenticate(nextOptions.data.options),
    });
    expect(foreign.status).toBe(401);
    expect(foreign.message).toBe(m.otpFailed);
    expect(await auditOf(user.userId)).toContain('sign-in.code-failed');

    // An account without passkeys gets no options for its key.
    const plain = await buildUser(t);
    const plainKey = (
      await browser.post<PreSignIn>('/api/account/login', {
        username: plain.username,
        password: TEST_PASSWORD,
        token: await browser.humanCheck(),
      })
    ).data.key;
    const none = await signInOptions(browser, { key: plainKey });
    expect(none.status).toBe(400);
    expect(none.message).toBe(am.methodNotAllowed);
  });

  it("deletes an account's passkeys with the account", async () => {
    const { user, browser } = await userWithPasskey();
    expect((await browser.delete('/api/account/delete')).status).toBe(200);
    const left = await t.store.db
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(left).toEqual([]);
  });

  it('refuses passkeys when PUBLIC_URL is an IP address (browsers do not allow it)', async () => {
    const ip = await buildTestApp({ env: { PUBLIC_URL: 'http://127.0.0.1:8080' } });
    try {
      const answer = await new AccountClient(ip).post('/api/account/login/passkey/options');
      expect(answer.status).toBe(503);
      expect(answer.message).toBe(pm.needsHostName);
    } finally {
      await ip.close();
    }
  });
});
