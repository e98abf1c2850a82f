import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import {
  accountMessages as m,
  loginMessages,
  passkeyMessages as pm,
  securityMessages as sm,
  twoFactorMessages as tm,
} from '#common/messages.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { tickHumanCheck } from './support/human-check.ts';
import { lookAt } from './support/look.ts';
import { signOut } from './support/sign-in.ts';
import { addVirtualAuthenticator } from './support/virtual-authenticator.ts';

/*
 * The account page's Security section as the administrator uses it (spec 000 §2, §4, §5, §8): set up the
 * authenticator app from the key on the page, keep the recovery codes, make the app preferred and sign in again with
 * an app code; add a passkey with Chromium's virtual authenticator and sign in with it; set up the phone with the
 * code from the SMS outbox; remove the passkey.
 *
 * Every sign-in goes through the login page (the real human check, the emailed code from the SMTP sink, the app's
 * code computed with otpauth from the key the page showed, 'Sign in with a passkey').
 */

let server: AppServer;
const PHONE = '+14155550199';

// Nine looks (an axe scan in two schemes and four screenshots each) on a shared two-core machine take minutes.
test.describe.configure({ mode: 'serial', timeout: 1_800_000 });

test.beforeAll(async () => {
  server = await startAppServer('account-security');
});
test.afterAll(async () => {
  await server?.stop();
});

/** The login page's first step, as a person does it: username, password, the real human check, Login; back to
 * /account afterwards. */
async function submitPassword(page: Page): Promise<void> {
  await page.goto(`${server.origin}/account/login?r=${encodeURIComponent('/account')}`);
  await page.getByLabel(loginMessages.username).fill(server.admin.username);
  await page.getByRole('textbox', { name: loginMessages.password }).fill(server.admin.password);
  await tickHumanCheck(page);
  await page.getByRole('button', { name: loginMessages.login, exact: true }).click();
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
}) => {
  // First sign-in through the login page: password, then the emailed code (Email is the only method so far).
  await submitPassword(page);
  await typeCode(page.locator('body'), await server.mail.nextCode(server.admin.email));
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 2, name: sm.title })).toBeVisible();
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
  // Three cards in a row at this width: the App card grows with its steps, the Email and Phone cards beside it keep
  // their own height (they stretched into tall empty boxes: issue 32).
  const height = async (card: Locator) => (await card.boundingBox())?.height ?? 0;
  await expect.poll(() => height(app)).toBeGreaterThan(400);
  for (const method of ['Email', 'Phone'] as const) {
    expect(await height(methodCard(page, method))).toBeLessThan((await height(app)) - 150);
  }
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

  // Sign in again through the login page: the app is now the preferred second step, answered with its next code.
  await signOut(page, server.origin);
  await submitPassword(page);
  await expect(page.getByRole('radio', { name: tm.methodLabels.Totp })).toBeChecked();
  await page.getByRole('button', { name: loginMessages.continue }).click();
  await expect(page.getByText(loginMessages.codeIntro.Totp)).toBeVisible();
  await expect(page.getByRole('button', { name: /Resend/ })).toHaveCount(0);
  await typeCode(page.locator('body'), (await authenticator.code(setupCode.step)).code);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 2, name: sm.title })).toBeVisible();
  await expect(methodCard(page, 'Totp').getByText(sm.preferred, { exact: true })).toBeVisible();

  // A passkey from Chromium's virtual authenticator, with a name.
  const { client: cdp, authenticatorId } = await addVirtualAuthenticator(page);
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

  // Sign in with the passkey alone: 'Sign in with a passkey' on the login page, no username, password or code.
  await signOut(page, server.origin);
  await page.goto(`${server.origin}/account/login?r=${encodeURIComponent('/account')}`);
  await page.getByRole('button', { name: loginMessages.passkey }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 2, name: sm.title })).toBeVisible();
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

  // New recovery codes, after the question: ten others, shown once again.
  const recovery = page.getByRole('region', { name: sm.recoveryTitle });
  await recovery.getByRole('button', { name: sm.recoveryRegenerate }).click();
  const ask = page.getByRole('dialog', { name: sm.recoveryRegenerateTitle });
  await expect(ask).toContainText(sm.recoveryRegenerateQuestion);
  await ask.getByRole('button', { name: sm.recoveryRegenerate }).click();
  await expect(codesDialog).toBeVisible();
  const fresh = await codesDialog.getByRole('listitem').allTextContents();
  expect(fresh).toHaveLength(10);
  expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(codesDialog).toBeHidden();
  await expect(recovery).toContainText(sm.recoveryLeft(10, 10));
});
