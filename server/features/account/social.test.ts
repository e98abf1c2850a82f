import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import type { SocialLinkStart, SocialProviders } from '#common/contract/social.ts';
import { accountApiMessages as am, accountMessages as m, socialMessages as sm } from '#common/messages.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { buildUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '#server/test/openid-provider.ts';
import { RedirectBrowser } from '#server/test/redirect-browser.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * Social sign-in (docs/decisions/0005-accounts.md, "Social sign-in") against a real OpenID provider (oidc-provider
 * on 127.0.0.1), configured as Google (and as Microsoft, for the cross-provider state check). A browser made of
 * plain requests and a cookie jar walks the redirects: DBUI in-process, the provider over HTTP.
 */

const PUBLIC_URL = 'http://dbui.test';
/** A browser at DBUI's PUBLIC_URL (server/test/redirect-browser.ts). */
class Browser extends RedirectBrowser {
  constructor(t: TestApp) {
    super(t, PUBLIC_URL);
  }
}
const callbackOf = (provider: string) => `${PUBLIC_URL}/api/account/login/${provider}/callback`;
/** The cookie DBUI sets at the start, which the callback must see. */
const stateCookie = (provider: string, state: string) => ({
  origin: PUBLIC_URL,
  name: `dbui-oauth-${provider}`,
  value: state,
  path: `/api/account/login/${provider}/callback`,
});

describe('social sign-in', () => {
  let sink: MailSink;
  let op: TestOpenIdProvider;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startMailSink();
    op = await startOpenIdProvider([callbackOf('google'), callbackOf('microsoft')]);
    t = await buildTestApp({
      env: {
        SMTP_URL: sink.url,
        PUBLIC_URL,
        OAUTH_GOOGLE_CLIENT_ID: op.clientId,
        OAUTH_GOOGLE_CLIENT_SECRET: op.clientSecret,
        OAUTH_GOOGLE_ISSUER: op.issuer,
        OAUTH_MICROSOFT_CLIENT_ID: op.clientId,
        OAUTH_MICROSOFT_CLIENT_SECRET: op.clientSecret,
        OAUTH_MICROSOFT_ISSUER: op.issuer,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
    await sink?.close();
  });

  /** A person at the provider, with a fresh subject. */
  function person(email: string, emailVerified = true): string {
    const subject = `sub-${randomBytes(6).toString('hex')}`;
    op.people.set(subject, { email, email_verified: emailVerified, name: 'Ann Example' });
    return subject;
  }

  /** Starts sign-in in `browser` as `subject` and answers the callback URL the provider redirects to. */
  async function toCallback(
    browser: Browser,
    subject: string,
    options: { provider?: string; r?: string; tamper?: (authorizationUrl: URL) => void } = {},
  ): Promise<string> {
    const provider = options.provider ?? 'google';
    op.nextSubject = subject;
    const start = await browser.request(
      'GET',
      `${PUBLIC_URL}/api/account/login/${provider}${options.r ? `?r=${encodeURIComponent(options.r)}` : ''}`,
    );
    expect(start.status).toBe(302);
    const authorization = new URL(start.location ?? '');
    options.tamper?.(authorization);
    return browser.follow(authorization.href, (url) => url.startsWith(callbackOf(provider)));
  }

  /** Walks the callback and answers where DBUI sends the browser. */
  async function callback(browser: Browser, url: string): Promise<URL> {
    const hop = await browser.request('GET', url);
    expect(hop.status).toBe(302);
    return new URL(hop.location ?? '');
  }

  /** The pre-sign-in answer in a login page's pu. */
  function preSignInOf(page: URL): PreSignIn {
    expect(page.pathname).toBe('/account/login');
    const pu = page.searchParams.get('pu');
    expect(pu).toBeTruthy();
    return JSON.parse(Buffer.from(pu ?? '', 'base64').toString('utf8')) as PreSignIn;
  }

  /** Finishes sign-in with the emailed code: the session. */
  async function verifyByEmail(browser: Browser, preSignIn: PreSignIn, email: string): Promise<Verification> {
    const otp = await sink.nextCode(email);
    const answer = await browser.api<Verification>('POST', '/api/account/login/verify', {
      key: preSignIn.key,
      otp,
      selected2fa: 'Email',
    });
    expect(answer.status, answer.message ?? '').toBe(200);
    browser.token = answer.data.token;
    return answer.data;
  }

  async function auditActions(userId: number): Promise<string[]> {
    const rows = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return rows.map((r) => r.action);
  }

  async function lastFailure(): Promise<Record<string, unknown>> {
    const row = await t.store.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'social.failed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return JSON.parse(row.detail ?? '{}') as Record<string, unknown>;
  }

  it('lists the configured providers, and says clearly when one is not set up', async () => {
    const browser = new Browser(t);
    const providers = await browser.api<SocialProviders>('GET', '/api/account/providers');
    expect(providers.data).toEqual({
      configured: ['google', 'microsoft'],
      labels: { google: 'Google', microsoft: 'Microsoft' },
      linked: [],
      hasPassword: null,
    });

    for (const [name, label] of [
      ['facebook', 'Facebook'],
      ['myspace', 'myspace'],
    ]) {
      const answer = await browser.request('GET', `${PUBLIC_URL}/api/account/login/${name}`);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({
        isSuccess: false,
        data: null,
        message: sm.notConfigured(label ?? ''),
      });
    }
    const callbackAnswer = await browser.request('GET', `${callbackOf('facebook')}?code=x&state=y`);
    expect(callbackAnswer.status).toBe(404);
  });

  it('creates an account on first sign-in, asks for its email code, and signs in', async () => {
    const email = `ann.${randomBytes(3).toString('hex')}@example.com`;
    const subject = person(email);
    const browser = new Browser(t);

    const start = await browser.request('GET', `${PUBLIC_URL}/api/account/login/google?r=%2Fbrowse%2Fdemo`);
    expect(start.status).toBe(302);
    const authorization = new URL(start.location ?? '');
    expect(authorization.origin).toBe(op.issuer);
    const parameters = Object.fromEntries(authorization.searchParams);
    expect(parameters).toMatchObject({
      client_id: op.clientId,
      response_type: 'code',
      redirect_uri: callbackOf('google'),
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(parameters.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parameters.nonce?.length).toBeGreaterThan(20);
    expect(parameters.state?.length).toBeGreaterThan(20);
    // The state is bound to this browser by an httpOnly cookie that only the callback sees.
    expect(browser.cookies.find((c) => c.name === 'dbui-oauth-google')).toEqual(
      stateCookie('google', parameters.state ?? ''),
    );

    op.nextSubject = subject;
    const callbackUrl = await browser.follow(authorization.href, (url) =>
      url.startsWith(callbackOf('google')),
    );
    const page = await callback(browser, callbackUrl);
    expect(page.searchParams.get('r')).toBe('/browse/demo');
    expect(browser.cookie('dbui-oauth-google')).toBeUndefined();
    const preSignIn = preSignInOf(page);
    expect(preSignIn).toMatchObject({ allowed2fa: ['Email'], preferred2fa: 'Email', disableSelect2fa: true });

    const verification = await verifyByEmail(browser, preSignIn, email);
    const username = email.split('@')[0]?.replace(/[^A-Za-z0-9]/g, '');
    expect(verification.user).toMatchObject({ username, isAdmin: false, passwordExpired: false });
    expect(verification.user.user_Details[0]).toMatchObject({ email, emailVerified: true, firstName: null });

    const user = await t.store.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', verification.user.id)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
    const roles = await t.store.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(roles).toEqual([{ role_id: 2 }]);
    const identities = await t.store.db
      .selectFrom('user_identities')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(identities).toMatchObject([{ provider: 'google', subject, email }]);
    expect(await auditActions(user.id)).toEqual(
      expect.arrayContaining(['social.account-created', 'social.sign-in', 'sign-in']),
    );

    // No password: password sign-in is refused like any wrong password.
    const client = new AccountClient(t);
    const login = await client.post('/api/account/login', {
      username: user.username,
      password: 'Any#Pass123',
      token: await client.humanCheck(),
    });
    expect(login.status).toBe(401);
    expect(login.message).toBe(m.loginFailed);

    const providers = await browser.api<SocialProviders>('GET', '/api/account/providers');
    expect(providers.data.hasPassword).toBe(false);
    expect(providers.data.linked).toMatchObject([{ provider: 'google', email }]);
  });

  it('finds the same account by subject even after the provider changes the email', async () => {
    const email = `bea.${randomBytes(3).toString('hex')}@example.com`;
    const subject = person(email);
    const first = new Browser(t);
    const firstPage = await callback(first, await toCallback(first, subject));
    const firstUser = (await verifyByEmail(first, preSignInOf(firstPage), email)).user;

    const changed = `changed.${randomBytes(3).toString('hex')}@example.org`;
    op.people.set(subject, { email: changed, email_verified: true });
    const again = new Browser(t);
    const page = await callback(again, await toCallback(again, subject));
    // The code goes to the account's address, not to the one the provider now claims.
    const secondUser = (await verifyByEmail(again, preSignInOf(page), email)).user;
    expect(secondUser.id).toBe(firstUser.id);
    expect(secondUser.user_Details[0]?.email).toBe(email);
    const users = await t.store.db.selectFrom('users').select('id').where('email', '=', changed).execute();
    expect(users).toEqual([]);
    const identity = await t.store.db
      .selectFrom('user_identities')
      .select(['email', 'user_id'])
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
    expect(identity).toEqual({ email: changed, user_id: firstUser.id });
  });

  it('never merges by email: another subject with the same email gets another account', async () => {
    const email = `cy.${randomBytes(3).toString('hex')}@example.com`;
    const one = new Browser(t);
    const onePage = await callback(one, await toCallback(one, person(email)));
    const oneUser = (await verifyByEmail(one, preSignInOf(onePage), email)).user;

    const other = new Browser(t);
    const otherPage = await callback(other, await toCallback(other, person(email)));
    const otherUser = (await verifyByEmail(other, preSignInOf(otherPage), email)).user;
    expect(otherUser.id).not.toBe(oneUser.id);
    expect(otherUser.username).not.toBe(oneUser.username);
    expect(otherUser.username).toMatch(new RegExp(`^${oneUser.username}\\d+$`));
  });

  it('takes an email the provider does not vouch for as unconfirmed until the code confirms it', async () => {
    const email = `dee.${randomBytes(3).toString('hex')}@example.com`;
    const subject = person(email, false);
    const browser = new Browser(t);
    const page = await callback(browser, await toCallback(browser, subject));
    const identity = await t.store.db
      .selectFrom('user_identities')
      .innerJoin('users', 'users.id', 'user_identities.user_id')
      .select(['users.email_verified_at'])
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();
    expect(identity.email_verified_at).toBeNull();
    const user = (await verifyByEmail(browser, preSignInOf(page), email)).user;
    expect(user.user_Details[0]?.emailVerified).toBe(true);
  });

  it('refuses a tampered, replayed, expired, foreign or cross-provider state', async () => {
    const subject = person(`eve.${randomBytes(3).toString('hex')}@example.com`);
    const expectRefused = async (browser: Browser, url: string, reason: string) => {
      const page = await callback(browser, url);
      expect(page.pathname).toBe('/account/login');
      expect(page.searchParams.get('error')).toBe(sm.stateInvalid);
      expect(page.searchParams.get('pu')).toBeNull();
      expect(await lastFailure()).toMatchObject({ reason });
    };
    const withState = (url: string, state: string) => {
      const changed = new URL(url);
      changed.searchParams.set('state', state);
      return changed.href;
    };

    // Tampered: a state DBUI never issued.
    const browser = new Browser(t);
    const url = await toCallback(browser, subject);
    await expectRefused(browser, withState(url, 'x'.repeat(43)), 'state-unknown-or-used');

    // Replayed: the first use works, the second is refused.
    const good = new Browser(t);
    const goodUrl = await toCallback(good, subject);
    preSignInOf(await callback(good, goodUrl));
    // Even with the state cookie put back.
    good.cookies.push(stateCookie('google', new URL(goodUrl).searchParams.get('state') ?? ''));
    await expectRefused(good, goodUrl, 'state-unknown-or-used');

    // Another browser: the callback without the state cookie of the browser that started (login CSRF).
    const victim = new Browser(t);
    const attacker = new Browser(t);
    await expectRefused(victim, await toCallback(attacker, subject), 'state-other-browser');

    // Expired: ten minutes to come back.
    const slow = new Browser(t);
    const slowUrl = await toCallback(slow, subject);
    t.clock.advance(11 * 60 * 1000);
    await expectRefused(slow, slowUrl, 'state-expired');

    // A Google state at the Microsoft callback.
    const cross = new Browser(t);
    const googleUrl = new URL(await toCallback(cross, subject));
    cross.cookies.push(stateCookie('microsoft', googleUrl.searchParams.get('state') ?? ''));
    await expectRefused(cross, `${callbackOf('microsoft')}${googleUrl.search}`, 'state-other-provider');
  });

  it('refuses a code issued for another PKCE challenge, a request without PKCE, and a wrong nonce', async () => {
    const subject = person(`fay.${randomBytes(3).toString('hex')}@example.com`);
    const expectNotConfirmed = async (browser: Browser, url: string) => {
      const page = await callback(browser, url);
      expect(page.searchParams.get('error')).toBe(sm.notConfirmed('Google'));
      expect(page.searchParams.get('pu')).toBeNull();
    };

    // Code injection: the attacker's code (bound to the attacker's challenge) with the victim's own state.
    const victim = new Browser(t);
    const victimUrl = new URL(await toCallback(victim, subject));
    const attacker = new Browser(t);
    const attackerUrl = new URL(await toCallback(attacker, subject));
    victimUrl.searchParams.set('code', attackerUrl.searchParams.get('code') ?? '');
    await expectNotConfirmed(victim, victimUrl.href);
    expect(await lastFailure()).toMatchObject({ reason: 'not-confirmed' });
    // Refused by the provider's token endpoint: the verifier does not match the code's challenge.
    expect(String((await lastFailure()).error)).toMatch(/invalid_grant|PKCE/i);

    // The code_challenge stripped from the request: the provider requires PKCE and answers an error.
    const stripped = new Browser(t);
    const strippedUrl = await toCallback(stripped, subject, {
      tamper: (authorization) => {
        authorization.searchParams.delete('code_challenge');
        authorization.searchParams.delete('code_challenge_method');
      },
    });
    expect(new URL(strippedUrl).searchParams.get('error')).toBe('invalid_request');
    await expectNotConfirmed(stripped, strippedUrl);
    expect(await lastFailure()).toMatchObject({ reason: 'provider-error', error: 'invalid_request' });

    // A nonce other than the one DBUI stored: the ID token is refused.
    const replayed = new Browser(t);
    const nonceUrl = await toCallback(replayed, subject, {
      tamper: (authorization) => authorization.searchParams.set('nonce', 'n'.repeat(43)),
    });
    await expectNotConfirmed(replayed, nonceUrl);
    expect(await lastFailure()).toMatchObject({ reason: 'not-confirmed' });
    expect(String((await lastFailure()).error)).toMatch(/nonce/i);
  });

  it('ends a cancelled sign-in on the login page with a message', async () => {
    const browser = new Browser(t);
    op.denyNext = true;
    const url = await toCallback(browser, person(`gus.${randomBytes(3).toString('hex')}@example.com`));
    expect(new URL(url).searchParams.get('error')).toBe('access_denied');
    const page = await callback(browser, url);
    expect(page.href).toBe(
      `${PUBLIC_URL}/account/login?error=${encodeURIComponent(sm.cancelled('Google')).replace(/%20/g, '+')}`,
    );
    expect(await lastFailure()).toMatchObject({ reason: 'denied', mode: 'sign-in' });
  });

  it('links and unlinks with a recent sign-in; an identity linked elsewhere cannot be linked again', async () => {
    const owner = await buildUser(t);
    const browser = new Browser(t);
    browser.token = owner.token;
    const email = `${owner.username}@example.com`;
    const subject = person(`hal.${randomBytes(3).toString('hex')}@example.com`);

    const started = await browser.api<SocialLinkStart>('POST', '/api/account/providers/google/link');
    expect(started.status).toBe(200);
    op.nextSubject = subject;
    const callbackUrl = await browser.follow(started.data.url, (url) => url.startsWith(callbackOf('google')));
    const page = await callback(browser, callbackUrl);
    expect(page.href).toBe(`${PUBLIC_URL}/account?linked=google`);
    const providers = await browser.api<SocialProviders>('GET', '/api/account/providers');
    expect(providers.data).toMatchObject({ hasPassword: true, linked: [{ provider: 'google' }] });
    expect(await auditActions(owner.userId)).toContain('social.linked');

    // Signing in with the linked identity reaches this account, with its second factor.
    const signIn = new Browser(t);
    const signInPage = await callback(signIn, await toCallback(signIn, subject));
    expect((await verifyByEmail(signIn, preSignInOf(signInPage), email)).user.id).toBe(owner.userId);

    // Another account cannot take the same identity.
    const other = await buildUser(t);
    const otherBrowser = new Browser(t);
    otherBrowser.token = other.token;
    const otherStart = await otherBrowser.api<SocialLinkStart>('POST', '/api/account/providers/google/link');
    op.nextSubject = subject;
    const otherPage = await callback(
      otherBrowser,
      await otherBrowser.follow(otherStart.data.url, (url) => url.startsWith(callbackOf('google'))),
    );
    expect(otherPage.pathname).toBe('/account');
    expect(otherPage.searchParams.get('error')).toBe(sm.linkedElsewhere('Google'));
    expect(await lastFailure()).toMatchObject({ reason: 'linked-elsewhere', mode: 'link' });
    const stillOwner = await t.store.db
      .selectFrom('user_identities')
      .select('user_id')
      .where('subject', '=', subject)
      .execute();
    expect(stillOwner).toEqual([{ user_id: owner.userId }]);

    // Unlinking needs a recent proof.
    await t.store.db
      .updateTable('sessions')
      .set({ reauthenticated_at: new Date(t.clock.now().getTime() - 11 * 60_000).toISOString() })
      .where('user_id', '=', owner.userId)
      .execute();
    const stale = await browser.api('DELETE', '/api/account/providers/google');
    expect(stale.status).toBe(403);
    expect(stale.message).toBe(am.reauthRequired);
    const staleLink = await browser.api('POST', '/api/account/providers/google/link');
    expect(staleLink.status).toBe(403);
    await t.store.db
      .updateTable('sessions')
      .set({ reauthenticated_at: t.clock.now().toISOString() })
      .where('user_id', '=', owner.userId)
      .execute();
    const unlinked = await browser.api('DELETE', '/api/account/providers/google');
    expect(unlinked.status).toBe(200);
    expect(unlinked.message).toBe(sm.unlinked('Google'));
    expect(await auditActions(owner.userId)).toContain('social.unlinked');
    const again = await browser.api('DELETE', '/api/account/providers/google');
    expect(again.status).toBe(404);
    expect(again.message).toBe(sm.notLinked('Google'));
  });

  it('keeps the last provider of an account without a password', async () => {
    const email = `ida.${randomBytes(3).toString('hex')}@example.com`;
    const browser = new Browser(t);
    const page = await callback(browser, await toCallback(browser, person(email)));
    await verifyByEmail(browser, preSignInOf(page), email);
    const refused = await browser.api('DELETE', '/api/account/providers/google');
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(sm.lastWayIn('Google'));
  });
});
