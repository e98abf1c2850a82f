import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import * as OTPAuth from 'otpauth';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import type { PasskeyLoginOptions } from '#common/contract/passkeys.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import {
  accountMessages as m,
  passkeyMessages as pm,
  securityMessages as sm,
  twoFactorMessages as tm,
} from '#common/messages.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { solveHumanCheck } from './support/human-check.ts';
import { lookAt } from './support/look.ts';

/*
 * The account page's Security section as the administrator uses it (spec 000 §2, §4, §5, §8): set up the
 * authenticator app from the key on the page, keep the recovery codes, make the app preferred and sign in again with
 * an app code; add a passkey with Chromium's virtual authenticator and sign in with it; set up the phone with the
 * code from the SMS outbox; remove the passkey.
 *
 * The login page is still a placeholder while this is written, so signing in goes through the API as the web app
 * does (login, then login/verify, then the verification stored under UTOKEN the way web/session/storage.ts stores
 * it); everything on the account page goes through the page.
 */

let server: AppServer;
const require = createRequire(import.meta.url);
/** The UMD build of @simplewebauthn/browser, for the passkey sign-in through the API (see e2e/passkeys.spec.ts). */
const WEBAUTHN_BUNDLE = path.join(
  path.dirname(require.resolve('@simplewebauthn/browser')),
  '..',
  'dist',
  'bundle',
  'index.umd.min.js',
);
const PHONE = '+14155550199';

interface Envelope<T> {
  status: number;
  isSuccess: boolean;
  data: T;
  message: string | null;
}

// Eight looks (an axe scan in two schemes and four screenshots each) on a shared two-core machine take minutes.
test.describe.configure({ mode: 'serial', timeout: 600_000 });

test.beforeAll(async () => {
  server = await startAppServer('account-security');
});
test.afterAll(async () => {
  await server?.stop();
});

/** Calls the API from the page as the web app does: the XSRF cookie echoed in X-XSRF-TOKEN, the bearer token. */
async function api<T>(
  page: Page,
  method: 'GET' | 'POST',
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

/** Stores the session as web/session/storage.ts does (base64 of the UTF-8 JSON under UTOKEN). */
async function storeSession(page: Page, verification: Verification): Promise<void> {
  await page.evaluate(
    ({ key, value }) => {
      let binary = '';
      for (const byte of new TextEncoder().encode(JSON.stringify(value))) binary += String.fromCharCode(byte);
      localStorage.setItem(key, btoa(binary));
    },
    { key: SESSION_STORAGE_KEY, value: verification },
  );
}

/** The password step of a sign-in (human check solved in Node). */
async function passwordStep(page: Page): Promise<PreSignIn> {
  await page.goto(`${server.origin}/home`);
  await api(page, 'GET', '/api/health'); // the first GET sets the XSRF cookie
  const answer = await api<PreSignIn>(page, 'POST', '/api/account/login', {
    body: {
      username: server.admin.username,
      password: server.admin.password,
      token: await solveHumanCheck(server.origin),
    },
  });
  expect(answer.status, answer.message ?? '').toBe(200);
  return answer.data;
}

async function secondStep(
  page: Page,
  pre: PreSignIn,
  otp: string,
  selected2fa: string,
): Promise<Verification> {
  const answer = await api<Verification>(page, 'POST', '/api/account/login/verify', {
    body: { key: pre.key, otp, selected2fa },
  });
  expect(answer.status, answer.message ?? '').toBe(200);
  return answer.data;
}

/** Opens /account signed in with this verification. */
async function openAccount(page: Page, verification: Verification): Promise<void> {
  await storeSession(page, verification);
  await page.goto(`${server.origin}/account`);
  await expect(page.getByRole('heading', { level: 2, name: sm.title })).toBeVisible();
}

const methodCard = (page: Page, method: 'Email' | 'Phone' | 'Totp') =>
  page.getByRole('region', { name: sm.cardTitles[method], exact: true });

/** Types a code into the six boxes one key at a time, as a person does (the boxes move on by themselves). */
async function typeCode(scope: Locator, code: string): Promise<void> {
  await scope.getByLabel(tm.codeDigit(1, 6)).click();
  await scope.page().keyboard.type(code, { delay: 30 });
}

/** The authenticator app: its code for now, or, when `after` is given, for the first 30-second step after that
 * one (the server takes each step's code once). */
function appCodes(secretBase32: string) {
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
  const step = () => Math.floor(Date.now() / 30_000);
  return {
    async code(after?: number): Promise<{ code: string; step: number }> {
      while (after !== undefined && step() <= after) await new Promise((r) => setTimeout(r, 500));
      const now = step();
      return { code: totp.generate({ timestamp: now * 30_000 + 1000 }), step: now };
    },
  };
}

test('the administrator secures the account: app, recovery codes, preferred, passkey, phone', async ({
  page,
  context,
}) => {
  // First sign-in: password and the emailed code (Email is the only method so far).
  const first = await passwordStep(page);
  expect(first.preferred2fa).toBe('Email');
  const session = await secondStep(page, first, await server.mail.nextCode(server.admin.email), 'Email');
  await openAccount(page, session);
  const app = methodCard(page, 'Totp');
  await expect(app.getByText(sm.notSetUp)).toBeVisible();
  await expect(app.getByRole('switch', { name: sm.makePreferred })).toBeDisabled();
  await lookAt(page, 'account-security-start');

  // App: the QR code and the key; the key typed into the "app" (otpauth) gives the code.
  await app.getByRole('button', { name: sm.setUp }).click();
  await expect(app.getByRole('img', { name: sm.appQrAlt })).toBeVisible();
  const shownKey = (await app.getByTestId('totp-key').textContent()) ?? '';
  expect(shownKey).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const secret = shownKey.replace(/\s/g, '');
  await lookAt(page, 'account-security-app-qr');
  const authenticator = appCodes(secret);
  const setupCode = await authenticator.code();
  await typeCode(app, setupCode.code);

  // The first verified method brings ten recovery codes, shown once.
  const codesDialog = page.getByRole('dialog', { name: sm.recoveryModalTitle });
  await expect(codesDialog).toBeVisible();
  await expect(codesDialog.getByRole('alert')).toContainText(sm.recoveryOnlyOnce);
  const codes = await codesDialog.getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await lookAt(page, 'account-security-recovery-codes');
  const downloading = page.waitForEvent('download');
  await codesDialog.getByRole('button', { name: sm.recoveryDownload }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(sm.recoveryFileName);
  const saved = fs.readFileSync(await download.path(), 'utf8');
  for (const code of codes) expect(saved).toContain(code);
  await codesDialog.getByRole('button', { name: sm.recoverySaved }).click();
  await expect(codesDialog).toBeHidden();
  await expect(app.getByText(sm.verified)).toBeVisible();
  await expect(app.getByText(/^Added /)).toBeVisible();
  await expect(page.getByRole('region', { name: sm.recoveryTitle })).toContainText(sm.recoveryLeft(10, 10));

  // Make the app preferred: the switch turns on and is then disabled; Email's can be chosen again.
  await app.getByRole('switch', { name: sm.makePreferred }).check({ force: true });
  await expect(page.getByText(m.preferred2faUpdated)).toBeVisible();
  await expect(app.getByRole('switch', { name: sm.makePreferred })).toBeChecked();
  await expect(app.getByRole('switch', { name: sm.makePreferred })).toBeDisabled();
  await expect(app.getByText(sm.preferred, { exact: true })).toBeVisible();
  await expect(methodCard(page, 'Email').getByRole('switch', { name: sm.makePreferred })).toBeEnabled();
  await lookAt(page, 'account-security-app-preferred');

  // Sign in again: the app is now the second step (no code is mailed), answered with the app's next code.
  await api(page, 'GET', '/api/account/logout', { token: session.token });
  const again = await passwordStep(page);
  expect(again.preferred2fa).toBe('Totp');
  expect(again.allowed2fa).toEqual(expect.arrayContaining(['Email', 'Totp', 'Recovery']));
  const appSession = await secondStep(page, again, (await authenticator.code(setupCode.step)).code, 'Totp');
  await openAccount(page, appSession);
  await expect(methodCard(page, 'Totp').getByText(sm.preferred, { exact: true })).toBeVisible();

  // A passkey from Chromium's virtual authenticator, with a name.
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const passkeys = page.getByRole('region', { name: sm.passkeysTitle });
  await expect(passkeys.getByText(sm.passkeysNone)).toBeVisible();
  await passkeys.getByLabel(sm.passkeyNameLabel).fill('Journey laptop');
  await passkeys.getByRole('button', { name: sm.passkeyAdd }).click();
  await expect(page.getByText(pm.added)).toBeVisible();
  await expect(passkeys.getByRole('listitem')).toHaveCount(1);
  await expect(passkeys.getByRole('listitem')).toContainText('Journey laptop');
  await expect(passkeys.getByRole('listitem')).toContainText(sm.passkeyNeverUsed);
  const stored = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(stored.credentials).toHaveLength(1);
  await lookAt(page, 'account-security-passkey-added');

  // Sign in with the passkey alone (the login page's button is not built yet: the same calls, from the page).
  await api(page, 'GET', '/api/account/logout', { token: appSession.token });
  await page.route(`${server.origin}/e2e/simplewebauthn-browser.js`, (route) =>
    route.fulfill({ path: WEBAUTHN_BUNDLE, contentType: 'text/javascript' }),
  );
  await page.addScriptTag({ url: '/e2e/simplewebauthn-browser.js' });
  const ceremony = await api<PasskeyLoginOptions>(page, 'POST', '/api/account/login/passkey/options');
  expect(ceremony.status, ceremony.message ?? '').toBe(200);
  const assertion = await page.evaluate(async (options) => {
    const browser = (window as unknown as { SimpleWebAuthnBrowser: typeof WebAuthnBrowser })
      .SimpleWebAuthnBrowser;
    return browser.startAuthentication({
      optionsJSON: options as unknown as Parameters<typeof browser.startAuthentication>[0]['optionsJSON'],
    });
  }, ceremony.data.options);
  const passkeySignIn = await api<Verification>(page, 'POST', '/api/account/login/passkey/verify', {
    body: { ceremonyId: ceremony.data.ceremonyId, response: assertion },
  });
  expect(passkeySignIn.status, passkeySignIn.message ?? '').toBe(200);
  await openAccount(page, passkeySignIn.data);
  await expect(passkeys.getByRole('listitem')).toContainText(/Last used /);

  // Phone: +1 and the three boxes, typed in one go (each full box moves on), the code from the SMS outbox.
  const phone = methodCard(page, 'Phone');
  await phone.getByRole('button', { name: sm.setUp }).click();
  await phone.getByRole('button', { name: sm.sendCode }).click();
  await expect(phone.getByText(m.phoneRequired)).toBeVisible();
  await phone.getByLabel(tm.phoneAreaCode).click();
  await page.keyboard.type('41555', { delay: 30 });
  await phone.getByRole('button', { name: sm.sendCode }).click();
  await expect(phone.getByText(m.phoneInvalid)).toBeVisible();
  await lookAt(page, 'account-security-phone-invalid');
  await phone.getByLabel(tm.phonePrefix).click();
  await page.keyboard.type('50199', { delay: 30 });
  await expect(phone.getByLabel(tm.phoneLine)).toHaveValue('0199');
  await phone.getByRole('button', { name: sm.sendCode }).click();
  await expect(phone.getByText(sm.codeSentTo('+1 (415) 555-0199'))).toBeVisible();
  await expect(phone.getByRole('button', { name: /^Resend in / })).toBeDisabled();
  await lookAt(page, 'account-security-phone-code');
  await typeCode(phone, await server.smsCode(PHONE));
  await expect(phone.getByText(sm.verified)).toBeVisible();
  await expect(phone.getByText('+1 (415) 555-0199')).toBeVisible();
  await expect(phone.getByRole('switch', { name: sm.makePreferred })).toBeEnabled();
  // Not the first method: no recovery codes this time.
  await expect(page.getByRole('dialog', { name: sm.recoveryModalTitle })).toBeHidden();
  await lookAt(page, 'account-security-phone-verified');

  // Remove the passkey, after the question.
  await passkeys.getByRole('button', { name: sm.passkeyRemoveLabel('Journey laptop') }).click();
  const question = page.getByRole('dialog', { name: sm.passkeyRemoveTitle });
  await expect(question).toContainText('Journey laptop');
  await lookAt(page, 'account-security-passkey-remove');
  await question.getByRole('button', { name: sm.passkeyRemove }).click();
  await expect(page.getByText(pm.removed)).toBeVisible();
  await expect(passkeys.getByText(sm.passkeysNone)).toBeVisible();
});
