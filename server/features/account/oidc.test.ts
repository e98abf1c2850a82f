import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import type { SocialLinkStart, SocialProviders } from '#common/contract/social.ts';
import { socialMessages as sm } from '#common/messages.ts';
import { buildUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '#server/test/openid-provider.ts';
import { RedirectBrowser } from '#server/test/redirect-browser.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { issuerBoundSubject } from './social-providers.ts';

/*
 * Sign-in with any OpenID Connect provider (docs/decisions/0060-generic-openid-connect.md): OIDC_ISSUER,
 * OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_LABEL against a real OpenID provider (oidc-provider on 127.0.0.1),
 * walked by a browser of plain requests and a cookie jar; then issuers that do not answer discovery.
 */

const PUBLIC_URL = 'http://dbui.test';
const CALLBACK = `${PUBLIC_URL}/api/account/login/oidc/callback`;
const LABEL = 'Acme SSO';

/** A log stream that keeps the lines, parsed. */
function logLines(): { stream: Writable; entries: Record<string, unknown>[] } {
  const entries: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        entries.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { stream, entries };
}

/** The pre-sign-in answer in a login page's pu. */
function preSignInOf(page: URL): PreSignIn {
  expect(page.pathname).toBe('/account/login');
  const pu = page.searchParams.get('pu');
  expect(pu, page.href).toBeTruthy();
  return JSON.parse(Buffer.from(pu ?? '', 'base64').toString('utf8')) as PreSignIn;
}

describe('sign-in with the OpenID Connect provider of OIDC_ISSUER', () => {
  let sink: MailSink;
  let op: TestOpenIdProvider;
  let t: TestApp;

  beforeAll(async () => {
    sink = await startMailSink();
    op = await startOpenIdProvider([CALLBACK]);
    t = await buildTestApp({
      env: {
        SMTP_URL: sink.url,
        PUBLIC_URL,
        OIDC_ISSUER: op.issuer,
        OIDC_CLIENT_ID: op.clientId,
        OIDC_CLIENT_SECRET: op.clientSecret,
        OIDC_LABEL: LABEL,
        OIDC_SCOPES: 'openid, email profile',
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

  /** Starts sign-in in `browser` as `subject`; answers the callback URL the provider redirects to. */
  async function toCallback(
    browser: RedirectBrowser,
    subject: string,
    tamper?: (authorizationUrl: URL) => void,
  ): Promise<string> {
    op.nextSubject = subject;
    const start = await browser.request('GET', `${PUBLIC_URL}/api/account/login/oidc`);
    expect(start.status).toBe(302);
    const authorization = new URL(start.location ?? '');
    tamper?.(authorization);
    return browser.follow(authorization.href, (url) => url.startsWith(CALLBACK));
  }

  /** Walks the callback: where DBUI sends the browser. */
  async function callback(browser: RedirectBrowser, url: string): Promise<URL> {
    const hop = await browser.request('GET', url);
    expect(hop.status).toBe(302);
    return new URL(hop.location ?? '');
  }

  async function verifyByEmail(browser: RedirectBrowser, preSignIn: PreSignIn, email: string) {
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

  async function lastFailure(): Promise<Record<string, unknown>> {
    const row = await t.store.db
      .selectFrom('audit_log')
      .select(['detail', 'target'])
      .where('action', '=', 'social.failed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.target).toBe('provider:oidc');
    return JSON.parse(row.detail ?? '{}') as Record<string, unknown>;
  }

  it('lists the provider with its label', async () => {
    const browser = new RedirectBrowser(t, PUBLIC_URL);
    const providers = await browser.api<SocialProviders>('GET', '/api/account/providers');
    expect(providers.data).toEqual({
      configured: ['oidc'],
      labels: { oidc: LABEL },
      linked: [],
      hasPassword: null,
    });
  });

  it('goes start → provider → callback → email code → signed in, creating the account on first use', async () => {
    const email = `ann.${randomBytes(3).toString('hex')}@example.com`;
    const subject = person(email);
    const browser = new RedirectBrowser(t, PUBLIC_URL);

    const start = await browser.request('GET', `${PUBLIC_URL}/api/account/login/oidc?r=%2Fbrowse%2Fdemo`);
    expect(start.status).toBe(302);
    const authorization = new URL(start.location ?? '');
    // The endpoint comes from the issuer's discovery document.
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${op.issuer}/auth`);
    const parameters = Object.fromEntries(authorization.searchParams);
    expect(parameters).toMatchObject({
      client_id: op.clientId,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(parameters.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parameters.nonce?.length).toBeGreaterThan(20);
    expect(browser.cookie('dbui-oauth-oidc')).toBe(parameters.state);

    op.nextSubject = subject;
    const page = await callback(
      browser,
      await browser.follow(authorization.href, (url) => url.startsWith(CALLBACK)),
    );
    expect(page.searchParams.get('r')).toBe('/browse/demo');
    expect(browser.cookie('dbui-oauth-oidc')).toBeUndefined();
    const preSignIn = preSignInOf(page);
    expect(preSignIn).toMatchObject({ allowed2fa: ['Email'], preferred2fa: 'Email' });

    const verification = await verifyByEmail(browser, preSignIn, email);
    expect(verification.user).toMatchObject({ isAdmin: false });
    // The provider vouched for the address (email_verified), as the operator's directory does.
    expect(verification.user.user_Details[0]).toMatchObject({ email, emailVerified: true });
    const identity = await t.store.db
      .selectFrom('user_identities')
      .select(['user_id', 'provider', 'subject', 'email'])
      .where('user_id', '=', verification.user.id)
      .executeTakeFirstOrThrow();
    // The subject is tied to the issuer, so another directory's person with the same sub is someone else.
    expect(identity).toEqual({
      user_id: verification.user.id,
      provider: 'oidc',
      subject: issuerBoundSubject(op.issuer, subject),
      email,
    });

    // The same person again reaches the same account.
    const again = new RedirectBrowser(t, PUBLIC_URL);
    const secondPage = await callback(again, await toCallback(again, subject));
    expect((await verifyByEmail(again, preSignInOf(secondPage), email)).user.id).toBe(verification.user.id);
  });

  it('never takes over an existing account by its email, verified or not', async () => {
    const existing = await buildUser(t);
    const email = `${existing.username}@example.com`;

    // An address the provider does not vouch for: a new account, its address unconfirmed until the code.
    const unverified = person(email, false);
    const browser = new RedirectBrowser(t, PUBLIC_URL);
    const page = await callback(browser, await toCallback(browser, unverified));
    const created = await t.store.db
      .selectFrom('user_identities')
      .innerJoin('users', 'users.id', 'user_identities.user_id')
      .select(['users.id', 'users.email_verified_at'])
      .where('subject', '=', issuerBoundSubject(op.issuer, unverified))
      .executeTakeFirstOrThrow();
    expect(created.id).not.toBe(existing.userId);
    expect(created.email_verified_at).toBeNull();
    // The code goes to the address, and finishing signs in to the new account, not the existing one.
    expect((await verifyByEmail(browser, preSignInOf(page), email)).user.id).toBe(created.id);

    // Even an address it vouches for finds no account: only (provider, subject) does (0010).
    const verified = person(email, true);
    const other = new RedirectBrowser(t, PUBLIC_URL);
    const otherPage = await callback(other, await toCallback(other, verified));
    const otherUser = (await verifyByEmail(other, preSignInOf(otherPage), email)).user;
    expect([existing.userId, created.id]).not.toContain(otherUser.id);

    const linkedToExisting = await t.store.db
      .selectFrom('user_identities')
      .select('id')
      .where('user_id', '=', existing.userId)
      .execute();
    expect(linkedToExisting).toEqual([]);
  });

  it('links to an existing account on request, then signs in there with that account’s second factor', async () => {
    const owner = await buildUser(t);
    // The owner has an authenticator app (only its presence matters for the methods offered).
    await t.store.db
      .updateTable('users')
      .set({
        totp_secret: 'sealed-elsewhere',
        totp_verified_at: t.clock.now().toISOString(),
        preferred_2fa: 'Totp',
      })
      .where('id', '=', owner.userId)
      .execute();
    const subject = person(`someone.${randomBytes(3).toString('hex')}@example.org`);
    const browser = new RedirectBrowser(t, PUBLIC_URL);
    browser.token = owner.token;
    const started = await browser.api<SocialLinkStart>('POST', '/api/account/providers/oidc/link');
    expect(started.status).toBe(200);
    op.nextSubject = subject;
    const linkedPage = await callback(
      browser,
      await browser.follow(started.data.url, (url) => url.startsWith(CALLBACK)),
    );
    expect(linkedPage.href).toBe(`${PUBLIC_URL}/account?linked=oidc`);

    const signIn = new RedirectBrowser(t, PUBLIC_URL);
    const preSignIn = preSignInOf(await callback(signIn, await toCallback(signIn, subject)));
    expect(preSignIn).toMatchObject({
      allowed2fa: ['Email', 'Totp'],
      preferred2fa: 'Totp',
      disableSelect2fa: false,
    });
    // No code went out for the app; choosing Email sends one.
    const resent = await signIn.api('POST', '/api/account/login/resend', {
      key: preSignIn.key,
      selected2fa: 'Email',
    });
    expect(resent.status, resent.message ?? '').toBe(200);
    const verification = await verifyByEmail(signIn, preSignIn, `${owner.username}@example.com`);
    expect(verification.user.id).toBe(owner.userId);

    // The account page names the provider by its label.
    const providers = await signIn.api<SocialProviders>('GET', '/api/account/providers');
    expect(providers.data).toMatchObject({ labels: { oidc: LABEL }, linked: [{ provider: 'oidc' }] });
  });

  it('refuses a foreign, replayed or other-browser state, and a wrong nonce, with the label in the message', async () => {
    const subject = person(`eve.${randomBytes(3).toString('hex')}@example.com`);
    const expectRefused = async (browser: RedirectBrowser, url: string, error: string, reason: string) => {
      const page = await callback(browser, url);
      expect(page.pathname).toBe('/account/login');
      expect(page.searchParams.get('error')).toBe(error);
      expect(page.searchParams.get('pu')).toBeNull();
      expect(await lastFailure()).toMatchObject({ reason });
    };

    const tampered = new RedirectBrowser(t, PUBLIC_URL);
    const url = new URL(await toCallback(tampered, subject));
    url.searchParams.set('state', 'x'.repeat(43));
    await expectRefused(tampered, url.href, sm.stateInvalid, 'state-unknown-or-used');

    const good = new RedirectBrowser(t, PUBLIC_URL);
    const goodUrl = await toCallback(good, subject);
    preSignInOf(await callback(good, goodUrl));
    good.cookies.push({
      origin: PUBLIC_URL,
      name: 'dbui-oauth-oidc',
      value: new URL(goodUrl).searchParams.get('state') ?? '',
      path: '/api/account/login/oidc/callback',
    });
    await expectRefused(good, goodUrl, sm.stateInvalid, 'state-unknown-or-used');

    const victim = new RedirectBrowser(t, PUBLIC_URL);
    const attacker = new RedirectBrowser(t, PUBLIC_URL);
    await expectRefused(victim, await toCallback(attacker, subject), sm.stateInvalid, 'state-other-browser');

    const replayedNonce = new RedirectBrowser(t, PUBLIC_URL);
    const nonceUrl = await toCallback(replayedNonce, subject, (authorization) =>
      authorization.searchParams.set('nonce', 'n'.repeat(43)),
    );
    await expectRefused(replayedNonce, nonceUrl, sm.notConfirmed(LABEL), 'not-confirmed');
    expect(String((await lastFailure()).error)).toMatch(/nonce/i);

    op.denyNext = true;
    const cancelled = new RedirectBrowser(t, PUBLIC_URL);
    await expectRefused(cancelled, await toCallback(cancelled, subject), sm.cancelled(LABEL), 'denied');
  });
});

describe('an OIDC_ISSUER that does not answer discovery', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A server that answers every request with `answer` and counts them. */
  async function standIn(answer: (response: http.ServerResponse, issuer: string) => void) {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/realms/staff`;
    const seen: string[] = [];
    server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
      seen.push(request.url ?? '');
      answer(response, issuer);
    });
    return { issuer, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  /** An app with the issuer; its log lines, and the sign-in start's answer. */
  async function appWith(issuer: string) {
    const log = logLines();
    const app = await buildTestApp({
      env: {
        PUBLIC_URL,
        LOG_LEVEL: 'info',
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'dbui',
        OIDC_CLIENT_SECRET: 'secret-that-is-never-logged',
      },
      logStream: log.stream,
    });
    return { app, log };
  }

  /** GET /api/account/login/oidc: the login page it sends the browser to. */
  async function start(app: TestApp): Promise<URL> {
    const answer = await app.app.inject({ method: 'GET', url: '/api/account/login/oidc' });
    expect(answer.statusCode).toBe(302);
    return new URL(String(answer.headers.location));
  }

  /** The warnings about the provider, checked to be one line each with no stack trace and no secret. */
  function warnings(entries: Record<string, unknown>[]): string[] {
    const found = entries.filter(
      (entry) => entry.level === 40 && String(entry.msg).includes('Single sign-on'),
    );
    for (const entry of found) {
      expect(entry).not.toHaveProperty('err');
      expect(JSON.stringify(entry)).not.toMatch(/secret-that-is-never-logged|\n\s+at /);
    }
    return found.map((entry) => String(entry.msg));
  }

  it('says at start and at each use what the issuer answered, sends people back with a sentence, and retries', async () => {
    const notFound = await standIn((response) => {
      response.statusCode = 404;
      response.end('Not found');
    });
    const built = await appWith(notFound.issuer);
    t = built.app;
    // Discovery began at start, in the background: its line comes (the test waits for it, not for a time).
    await vi.waitFor(() => expect(warnings(built.log.entries)).toHaveLength(1), {
      timeout: 60_000,
      interval: 20,
    });
    // The start is not held up, and the button stays: discovery is asked again at each use.
    const providers = await t.app.inject({ method: 'GET', url: '/api/account/providers' });
    expect(providers.json()).toMatchObject({
      data: { configured: ['oidc'], labels: { oidc: 'Single sign-on' } },
    });

    const page = await start(t);
    expect(`${page.origin}${page.pathname}`).toBe(`${PUBLIC_URL}/account/login`);
    expect(page.searchParams.get('error')).toBe(sm.unavailable('Single sign-on'));
    await start(t);
    const expected =
      `Sign-in with Single sign-on is unavailable: OIDC_ISSUER ${notFound.issuer}/.well-known/openid-configuration ` +
      'answered HTTP 404, not a discovery document: is the issuer right?';
    // At start (its line says DBUI tries again), then one line at each of the two uses.
    const lines = warnings(built.log.entries);
    expect(lines).toEqual([`${expected} DBUI tries again when someone uses the button.`, expected, expected]);
    expect(notFound.seen).toEqual(Array(3).fill('/realms/staff/.well-known/openid-configuration'));
    await notFound.close();
  });

  it('names an issuer the discovery document disagrees with, and an address nobody answers', async () => {
    const other = await standIn((response, issuer) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ issuer: `${issuer}/`, authorization_endpoint: `${issuer}/auth` }));
    });
    const mismatch = await appWith(other.issuer);
    t = mismatch.app;
    expect((await start(t)).searchParams.get('error')).toBe(sm.unavailable('Single sign-on'));
    expect(warnings(mismatch.log.entries)).toContain(
      `Sign-in with Single sign-on is unavailable: OIDC_ISSUER is "${other.issuer}", but ` +
        `${other.issuer}/.well-known/openid-configuration names the issuer "${other.issuer}/": set it to exactly that.`,
    );
    await t.close();
    t = undefined;
    await other.close();

    // A port nobody listens on.
    const closed = await standIn(() => undefined);
    await closed.close();
    const refused = await appWith(closed.issuer);
    t = refused.app;
    expect((await start(t)).searchParams.get('error')).toBe(sm.unavailable('Single sign-on'));
    expect(warnings(refused.log.entries)).toContain(
      `Sign-in with Single sign-on is unavailable: OIDC_ISSUER ${closed.issuer}/.well-known/openid-configuration ` +
        'could not be reached (ECONNREFUSED).',
    );
  });

  it('leaves a plain-http issuer off the loopback out, saying why', async () => {
    const { app, log } = await appWith('http://sso.example.com/realms/staff');
    t = app;
    const providers = await t.app.inject({ method: 'GET', url: '/api/account/providers' });
    expect(providers.json()).toMatchObject({ data: { configured: [] } });
    const answer = await t.app.inject({ method: 'GET', url: '/api/account/login/oidc' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toMatchObject({ message: sm.notConfigured('Single sign-on') });
    expect(warnings(log.entries)).toEqual([
      'Sign-in with Single sign-on is off: http://sso.example.com/realms/staff must be https:// (plain http is allowed only on 127.0.0.1 or localhost).',
    ]);
  });
});
