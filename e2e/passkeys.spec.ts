import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import type { PasskeyLoginOptions, PasskeySummary } from '#common/contract/passkeys.ts';
import { passkeyMessages } from '#common/messages.ts';
import { freePort } from './support/free-port.ts';

/*
 * Passkeys in a real browser (docs/decisions/0009-passkeys.md): Chromium's virtual WebAuthn authenticator (CDP),
 * driven through @simplewebauthn/browser in the page, against the built server. Register a passkey after a
 * password-and-code sign-in, then sign in with the passkey alone, then use it as the second step after the password.
 *
 * WebAuthn refuses IP addresses as RP ID ("This is an invalid domain"), so this journey cannot use the shared server
 * at http://127.0.0.1:PORT: it starts its own from the same build, on a free port, with PUBLIC_URL
 * http://localhost:PORT (localhost is a secure context and a valid RP ID), a fresh data folder and a cheap human check.
 */

/** http://localhost:PORT, PORT free when the journey starts (chosen in beforeAll). */
let origin = '';
const DATA_DIR = path.resolve('test-results/e2e-passkeys-data');
const ADMIN = { username: 'admin', password: 'Admin#12345', email: 'admin@example.com' };
const require = createRequire(import.meta.url);
/** The UMD build of @simplewebauthn/browser (the package exports only its entry, so found beside it). */
const BROWSER_BUNDLE = path.join(
  path.dirname(require.resolve('@simplewebauthn/browser')),
  '..',
  'dist',
  'bundle',
  'index.umd.min.js',
);

interface Envelope<T> {
  status: number;
  isSuccess: boolean;
  data: T;
  message: string | null;
}

let server: ChildProcess | null = null;

test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  const port = await freePort();
  origin = `http://localhost:${port}`;
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const started = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      DATA_DIR,
      LOG_LEVEL: 'warn',
      CAPTCHA_COST: '10',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_EMAIL: ADMIN.email,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server = started;
  const until = Date.now() + 60_000;
  for (;;) {
    if (started.exitCode !== null) throw new Error(`the server stopped with code ${started.exitCode}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > until) throw new Error('the server did not answer /api/health within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(async () => {
  const running = server;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  await exited;
});

/** Calls the API from the page as the web app does: the XSRF cookie echoed in X-XSRF-TOKEN, the bearer token. */
async function api<T>(
  page: Page,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { body?: unknown; token?: string | null } = {},
): Promise<Envelope<T>> {
  return page.evaluate(
    async ({ method, url, body, token }) => {
      const cookie = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='));
      const xsrf = cookie ? decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) : null;
      const response = await fetch(url, {
        method,
        headers: {
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
          ...(xsrf ? { 'x-xsrf-token': xsrf } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      });
      const answer = (await response.json()) as { isSuccess: boolean; data: unknown; message: string | null };
      return { status: response.status, ...answer };
    },
    { method, url, body: options.body, token: options.token ?? null },
  ) as Promise<Envelope<T>>;
}

/** Solves the human check in Node the way the ALTCHA widget does in the page. */
async function humanCheck(page: Page): Promise<string> {
  const challenge = await page.evaluate(async () => (await fetch('/api/captcha')).json());
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the human check could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

const seenMail = new Set<string>();
/** The code of the next sign-in mail in the server's outbox (no SMTP_URL, so mail is written there). */
async function nextMailCode(): Promise<string> {
  const outbox = path.join(DATA_DIR, 'outbox');
  const until = Date.now() + 10_000;
  for (;;) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')) : [];
    const fresh = files.filter((f) => !seenMail.has(f)).sort();
    const newest = fresh.at(-1);
    if (newest) {
      fresh.forEach((f) => seenMail.add(f));
      const code = /^ {4}(\d{6})\s*$/m.exec(fs.readFileSync(path.join(outbox, newest), 'utf8'))?.[1];
      if (!code) throw new Error(`no code in ${newest}`);
      return code;
    }
    if (Date.now() > until) throw new Error('no mail arrived in the outbox within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function passwordStep(page: Page): Promise<PreSignIn> {
  const answer = await api<PreSignIn>(page, 'POST', '/api/account/login', {
    body: { username: ADMIN.username, password: ADMIN.password, token: await humanCheck(page) },
  });
  expect(answer.status, answer.message ?? '').toBe(200);
  return answer.data;
}

/** Runs navigator.credentials.get in the page through startAuthentication. */
function authenticate(page: Page, optionsJSON: PasskeyLoginOptions['options']) {
  return page.evaluate(async (options) => {
    const browser = (window as unknown as { SimpleWebAuthnBrowser: typeof WebAuthnBrowser })
      .SimpleWebAuthnBrowser;
    return browser.startAuthentication({
      optionsJSON: options as unknown as Parameters<typeof browser.startAuthentication>[0]['optionsJSON'],
    });
  }, optionsJSON);
}

async function virtualAuthenticator(page: Page): Promise<{ client: CDPSession; authenticatorId: string }> {
  const client = await page.context().newCDPSession(page);
  await client.send('WebAuthn.enable');
  const { authenticatorId } = await client.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { client, authenticatorId };
}

test('a passkey in Chromium: registered, then signing in alone and as the second step', async ({ page }) => {
  await page.goto(`${origin}/`);
  expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
  // The page runs under the server's Content-Security-Policy (scripts from its own origin only), so the bundle is
  // served as a script file of that origin rather than injected inline.
  await page.route(`${origin}/e2e/simplewebauthn-browser.js`, (route) =>
    route.fulfill({ path: BROWSER_BUNDLE, contentType: 'text/javascript' }),
  );
  await page.addScriptTag({ url: '/e2e/simplewebauthn-browser.js' });
  const { client, authenticatorId } = await virtualAuthenticator(page);

  // Password and emailed code, as the web app signs in; the sign-in is a recent proof, and reauth renews it.
  await api(page, 'GET', '/api/health'); // a first GET gets the XSRF cookie
  const first = await passwordStep(page);
  const signedIn = await api<Verification>(page, 'POST', '/api/account/login/verify', {
    body: { key: first.key, otp: await nextMailCode(), selected2fa: first.preferred2fa },
  });
  expect(signedIn.status, signedIn.message ?? '').toBe(200);
  let token = signedIn.data.token;
  expect(
    (await api(page, 'POST', '/api/account/reauth', { token, body: { password: ADMIN.password } })).status,
  ).toBe(200);

  // Register: options from the server, navigator.credentials.create in the page, verified and stored.
  const options = await api<Record<string, unknown>>(page, 'POST', '/api/account/passkeys/register/options', {
    token,
  });
  expect(options.status, options.message ?? '').toBe(200);
  expect(options.data.rp).toEqual({ name: 'DBUI', id: 'localhost' });
  const registration = await page.evaluate(async (optionsJSON) => {
    const browser = (window as unknown as { SimpleWebAuthnBrowser: typeof WebAuthnBrowser })
      .SimpleWebAuthnBrowser;
    return browser.startRegistration({
      optionsJSON: optionsJSON as unknown as Parameters<typeof browser.startRegistration>[0]['optionsJSON'],
    });
  }, options.data);
  const added = await api<PasskeySummary>(page, 'POST', '/api/account/passkeys/register/verify', {
    token,
    body: { response: registration, name: 'Chromium virtual authenticator' },
  });
  expect(added.status, added.message ?? '').toBe(200);
  expect(added.data.name).toBe('Chromium virtual authenticator');
  const stored = await client.send('WebAuthn.getCredentials', { authenticatorId });
  expect(stored.credentials).toHaveLength(1);
  expect(stored.credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  // Signed out, the old token no longer works.
  expect((await api(page, 'GET', '/api/account/logout', { token })).status).toBe(200);
  expect((await api(page, 'GET', '/api/account/verify', { token })).status).toBe(401);

  // A passkey alone: discoverable credential, no username, no password, no code.
  const ceremony = await api<PasskeyLoginOptions>(page, 'POST', '/api/account/login/passkey/options');
  expect(ceremony.status, ceremony.message ?? '').toBe(200);
  expect(ceremony.data.options.allowCredentials).toEqual([]);
  const assertion = await authenticate(page, ceremony.data.options);
  const passkeyOnly = await api<Verification>(page, 'POST', '/api/account/login/passkey/verify', {
    body: { ceremonyId: ceremony.data.ceremonyId, response: assertion },
  });
  expect(passkeyOnly.status, passkeyOnly.message ?? '').toBe(200);
  token = passkeyOnly.data.token;
  const verified = await api<Verification>(page, 'GET', '/api/account/verify', { token });
  expect(verified.status).toBe(200);
  expect(verified.data.user).toMatchObject({ username: ADMIN.username, isAdmin: true, passkeys: 1 });
  expect(verified.data.links).toEqual(['*']);
  // The same assertion again is refused: its challenge was used. (With the token: the XSRF cookie is now this
  // session's.)
  const replay = await api(page, 'POST', '/api/account/login/passkey/verify', {
    token,
    body: { ceremonyId: ceremony.data.ceremonyId, response: assertion },
  });
  expect(replay.status).toBe(400);
  expect(replay.message).toBe(passkeyMessages.challengeInvalid);
  expect((await api(page, 'GET', '/api/account/logout', { token })).status).toBe(200);

  // The password, then the passkey as the second step.
  const second = await passwordStep(page);
  expect(second.allowed2fa).toEqual(expect.arrayContaining(['Email', 'Passkey']));
  await nextMailCode(); // the preferred method (Email) got its code anyway; the passkey is chosen instead
  const forKey = await api<PasskeyLoginOptions>(page, 'POST', '/api/account/login/passkey/options', {
    body: { key: second.key },
  });
  expect(forKey.status, forKey.message ?? '').toBe(200);
  expect(forKey.data.ceremonyId).toBeNull();
  expect(forKey.data.options.allowCredentials).toEqual([
    expect.objectContaining({ id: registration.id, type: 'public-key' }),
  ]);
  const secondStep = await api<Verification>(page, 'POST', '/api/account/login/passkey/verify', {
    body: { key: second.key, response: await authenticate(page, forKey.data.options) },
  });
  expect(secondStep.status, secondStep.message ?? '').toBe(200);
  token = secondStep.data.token;
  expect((await api(page, 'GET', '/api/account/verify', { token })).status).toBe(200);

  // The authenticator counted its two assertions, and the server recorded the use.
  const after = await client.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]?.signCount).toBeGreaterThanOrEqual(2);
  const listed = await api<PasskeySummary[]>(page, 'GET', '/api/account/passkeys', { token });
  expect(listed.data).toHaveLength(1);
  expect(listed.data[0]?.lastUsedAt).not.toBeNull();
});
