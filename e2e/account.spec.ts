import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import {
  accountApiMessages as am,
  accountMessages as m,
  accountPageMessages as pm,
  adminMessages,
} from '#common/messages.ts';
import { api, pageApi } from './support/api.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { solveHumanCheck } from './support/human-check.ts';
import { lookAt } from './support/look.ts';
import { signInThroughApi, signUpThroughApi, storeSession } from './support/sign-in.ts';

/*
 * The account page (spec 000 §2, §4, §5, §6, §8) apart from its Security section (e2e/account-security.spec.ts):
 * edit the names and save, upload a profile image and see it, be held on the page with pending changes, delete a
 * second account after confirming the password, and the only administrator's deletion refused with the server's
 * reason.
 *
 * Signing in goes through the API as the web app does (login, login/verify with the emailed code, the verification
 * stored under UTOKEN as web/session/storage.ts stores it), so this journey does not depend on the login page.
 */

let server: AppServer;

// Each step looks at its screens (axe in two schemes, four screenshots): slow on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 1_260_000 });

test.beforeAll(async () => {
  server = await startAppServer('account');
});
test.afterAll(async () => {
  await server?.stop();
});

/** Opens a page of the app once, so API calls from it carry the XSRF cookie. */
async function openApp(page: Page): Promise<void> {
  await page.goto(`${server.origin}/home`);
  await api(page, 'GET', '/api/health'); // the first GET sets the XSRF cookie
}

/** Signs the administrator in through the API from a page of the app, with the password and the emailed code. */
async function signInAsAdmin(page: Page): Promise<Verification> {
  await openApp(page);
  return signInThroughApi(pageApi(page), server, server.admin);
}

/** Opens /account signed in with this verification. */
async function openAccount(page: Page, verification: Verification): Promise<void> {
  await storeSession(page, verification);
  await page.goto(`${server.origin}/account`);
  await expect(page.getByRole('heading', { level: 2, name: pm.detailsTitle })).toBeVisible();
}

/**
 * Makes the account's sessions look older than the 10 minutes a sign-in counts as a recent proof, as if the person
 * had signed in long ago: the server then asks for the password again (requireRecentAuth). Written straight into the
 * server's own SQLite store, the only way to age a session without waiting ten minutes.
 */
function ageSessions(username: string): void {
  const store = new Database(path.join(server.dataDir, 'app.db'));
  try {
    store.pragma('busy_timeout = 5000');
    store
      .prepare(
        'update sessions set reauthenticated_at = null where user_id = (select id from users where username = ?)',
      )
      .run(username);
  } finally {
    store.close();
  }
}

/** A text field of Account Details by its label (the Security section has regions named like some of them). */
const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

const toast = (page: Page, text: string) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).first();

test('the administrator edits the names and saves them; a reload shows them', async ({ page }) => {
  const admin = await signInAsAdmin(page);
  await openAccount(page, admin);
  await expect(field(page, pm.username)).toHaveValue(server.admin.username);
  await expect(field(page, pm.email)).toHaveValue(server.admin.email);
  await expect(field(page, pm.email)).not.toBeEditable();
  await expect(page.getByRole('list', { name: pm.roles }).getByRole('listitem').first()).toBeVisible();
  await expect(page.getByText(pm.socialNone)).toBeVisible();
  await lookAt(page, 'account');

  await field(page, pm.firstName).fill('x'.repeat(51));
  await expect(page.getByText(m.firstNameMax)).toBeVisible();
  await lookAt(page, 'account-name-too-long');

  await field(page, pm.firstName).fill('Grace');
  await field(page, pm.lastName).fill('Hopper');
  await expect(page.getByText(pm.pendingChanges)).toBeVisible();
  await page.getByRole('button', { name: pm.save }).click();
  await expect(toast(page, m.userUpdated)).toBeVisible();
  await lookAt(page, 'account-saved');

  await page.reload();
  await expect(field(page, pm.firstName)).toHaveValue('Grace');
  await expect(field(page, pm.lastName)).toHaveValue('Hopper');
});

test('the administrator uploads a profile image and sees it; a wrong file is refused with a reason', async ({
  page,
}) => {
  const admin = await signInAsAdmin(page);
  await openAccount(page, admin);

  const input = page.getByLabel(pm.chooseImage);
  await input.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not an image'),
  });
  await expect(page.getByRole('alert').filter({ hasText: am.imageType })).toBeVisible();
  await lookAt(page, 'account-image-refused');

  const png = await sharp({
    create: { width: 96, height: 96, channels: 3, background: { r: 59, g: 91, b: 219 } },
  })
    .png()
    .toBuffer();
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  const preview = page.getByRole('img', { name: pm.profileImage });
  await expect(preview).toHaveAttribute('src', `data:image/png;base64,${png.toString('base64')}`);
  await expect(page.getByText(pm.imageNotSaved)).toBeVisible();
  await lookAt(page, 'account-image-chosen');

  await page.getByRole('button', { name: pm.save }).click();
  await expect(toast(page, m.userUpdated)).toBeVisible();
  await page.reload();
  // The server keeps its own re-encoding of the pixels: a PNG image, shown after the reload.
  await expect(page.getByRole('img', { name: pm.profileImage })).toHaveAttribute(
    'src',
    /^data:image\/png;base64,/,
  );
  await lookAt(page, 'account-image-saved');
});

test("pending changes hold the person on the page with 'Cannot switch pages with pending changes.'", async ({
  page,
}) => {
  const admin = await signInAsAdmin(page);
  await openAccount(page, admin);
  await page.setViewportSize({ width: 1366, height: 900 });
  await field(page, pm.lastName).fill('Changed');
  await page.getByRole('link', { name: pm.changePassword }).click();
  await expect(toast(page, adminMessages.cannotSwitchPages)).toBeVisible();
  await expect(page).toHaveURL(`${server.origin}/account`);
  await page.getByRole('link', { name: 'DBUI' }).first().click();
  await expect(page).toHaveURL(`${server.origin}/account`);
  await lookAt(page, 'account-pending-changes');

  await page.getByRole('button', { name: pm.discard }).click();
  await expect(field(page, pm.lastName)).toHaveValue('Hopper');
  await page.getByRole('link', { name: pm.changePassword }).click();
  await expect(page).toHaveURL(`${server.origin}/account/updatePassword`);
});

test("the only administrator's deletion is refused with the server's reason", async ({ page }) => {
  const admin = await signInAsAdmin(page);
  await openAccount(page, admin);
  await expect(page.getByText(pm.deleteWarning)).toBeVisible();
  await page.getByRole('button', { name: pm.deleteButton }).click();
  const dialog = page.getByRole('dialog', { name: pm.deleteConfirmTitle });
  await expect(dialog.getByText(pm.deleteConfirmMessage)).toBeVisible();
  await lookAt(page, 'account-delete-confirm');
  await dialog.getByRole('button', { name: pm.deleteConfirm }).click();
  await expect(toast(page, m.userDeleteFailed)).toBeVisible();
  await expect(toast(page, am.lastAdministrator)).toBeVisible();
  await expect(page).toHaveURL(`${server.origin}/account`);
  await lookAt(page, 'account-delete-refused');
});

test('a second account is deleted after confirming its password, then signed out at /home', async ({
  page,
}) => {
  const person = {
    username: 'ada',
    password: 'Analytic#1843',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'King',
  };
  await openApp(page);
  const confirmed = await signUpThroughApi(pageApi(page), server, person);

  await openAccount(page, confirmed);
  await expect(field(page, pm.firstName)).toHaveValue('Ada');
  ageSessions(person.username);

  await page.getByRole('button', { name: pm.deleteButton }).click();
  await page
    .getByRole('dialog', { name: pm.deleteConfirmTitle })
    .getByRole('button', { name: pm.deleteConfirm })
    .click();
  const reauth = page.getByRole('dialog', { name: pm.reauthTitle });
  await expect(reauth).toBeVisible();
  await reauth.getByLabel(pm.reauthPassword, { exact: true }).fill('Not#therightone1');
  await reauth.getByRole('button', { name: pm.reauthConfirm }).click();
  await expect(reauth.getByRole('alert')).toHaveText(am.passwordWrong);
  await lookAt(page, 'account-reauth');

  await reauth.getByLabel(pm.reauthPassword, { exact: true }).fill(person.password);
  await reauth.getByRole('button', { name: pm.reauthConfirm }).click();
  await expect(page).toHaveURL(`${server.origin}/home`);
  await expect(toast(page, am.accountDeleted)).toBeVisible();
  expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY)).toBeNull();
  await lookAt(page, 'account-deleted');

  const again = await api(page, 'POST', '/api/account/login', {
    body: {
      username: person.username,
      password: person.password,
      token: await solveHumanCheck(server.origin),
    },
  });
  expect(again.isSuccess).toBe(false);
});
