import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { shellMessages } from '#common/messages.ts';
import { apiClient, type ApiCall } from './support/api.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { axeViolations } from './support/axe.ts';
import { lookAt, screenshotsWanted } from './support/look.ts';
import { signInThroughApi, signUpThroughApi, storedToken, storeSession } from './support/sign-in.ts';

/*
 * The shell with a session (spec 001 §2, §4, §9): a verification signed in through the API is put where the web app
 * keeps it (localStorage UTOKEN, base64 of the JSON, as web/session/storage.ts writes it) and the page reloaded, so
 * start-up verifies it. Then the header shows the username and the account menu (Admin only for an administrator),
 * the mobile drawer the same, Logout ends the session; the light/dark switch flips and is remembered; the 401 and
 * 404 pages. One server for this file.
 */

const member = {
  username: 'member',
  email: 'member@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'Member#2026!',
};
const desktop = { width: 1366, height: 900 };
const phone = { width: 375, height: 812 };

let server: AppServer;
let context: BrowserContext;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 270_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('shell-session');
  // A context of its own (axe needs one made with newContext), shared by the steps: one person's browser.
  context = await browser.newContext({ viewport: desktop });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

/** Runs a set-up step through the API as a client of its own (its own cookies, so its own XSRF token). */
async function throughApi<T>(step: (call: ApiCall) => Promise<T>): Promise<T> {
  const client = await apiClient(server.origin);
  try {
    return await step(client.call);
  } finally {
    await client.dispose();
  }
}

/** Puts the verification where the web app keeps it and reloads, so the app starts signed in. */
async function startSignedIn(verification: Verification, path = '/home'): Promise<void> {
  await page.goto(server.origin + path);
  await storeSession(page, verification);
  await page.reload();
}

const header = () => page.getByRole('banner');
const accountButton = (username: string) => header().getByRole('button', { name: username });
/** The account menu is named by its button: the username. */
const accountMenu = (username: string) => page.getByRole('menu', { name: username });
const shownScheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');

test('an administrator sees the username, and the account menu with Admin, My Account and Logout', async () => {
  await page.setViewportSize(desktop);
  await startSignedIn(await throughApi((call) => signInThroughApi(call, server, server.admin)));
  await expect(accountButton(server.admin.username)).toBeVisible();
  await expect(header().getByRole('link', { name: 'Login' })).toHaveCount(0);

  await accountButton(server.admin.username).click();
  const menu = accountMenu(server.admin.username);
  await expect(menu.getByRole('menuitem')).toHaveText(['Admin', 'Databases', 'My Account', 'Logout']);
  // Spec 001 §9: 10rem wide.
  expect(await menu.evaluate((element) => element.getBoundingClientRect().width)).toBe(160);
  await lookAt(page, 'account-menu');

  // A click outside closes it; the keyboard opens it and Escape closes it.
  await page.getByRole('heading', { level: 1 }).click();
  await expect(menu).toBeHidden();
  await accountButton(server.admin.username).focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Admin' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Databases' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(accountButton(server.admin.username)).toBeFocused();

  // Each entry closes the menu and goes to its page.
  await accountButton(server.admin.username).click();
  await menu.getByRole('menuitem', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/home$/);
  await expect(menu).toBeHidden();
  await accountButton(server.admin.username).click();
  await menu.getByRole('menuitem', { name: 'My Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(menu).toBeHidden();
});

test('on a phone the drawer shows the username and the same entries instead of Login', async () => {
  await page.setViewportSize(phone);
  await page.goto(server.origin + '/home');
  await expect(header().getByRole('button', { name: server.admin.username })).toBeHidden();
  await header().getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Login' })).toHaveCount(0);
  const account = drawer.getByRole('group', { name: 'Account' });
  await expect(account.getByText(server.admin.username, { exact: true })).toBeVisible();
  await expect(account.getByRole('link')).toHaveText(['Admin', 'Databases', 'My Account', 'Logout']);
  await lookAt(page, 'account-drawer');

  await account.getByRole('link', { name: 'My Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(drawer).toBeHidden();
  await page.setViewportSize(desktop);
});

test('Logout ends the session, here and on the server, and shows Login again', async () => {
  await page.goto(server.origin + '/home');
  const stored = await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY);
  expect(stored).not.toBeNull();
  const token = await storedToken(page);

  await accountButton(server.admin.username).click();
  await accountMenu(server.admin.username).getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(header().getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(accountButton(server.admin.username)).toHaveCount(0);
  expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY)).toBeNull();

  expect((await throughApi((call) => call('GET', '/api/account/verify', { token }))).status).toBe(401);
});

test('a person who is not an administrator has no Admin entry', async () => {
  await throughApi((call) => signUpThroughApi(call, server, member));
  await startSignedIn(await throughApi((call) => signInThroughApi(call, server, member)));
  await accountButton(member.username).click();
  await expect(accountMenu(member.username).getByRole('menuitem')).toHaveText(['My Account', 'Logout']);
  await page.keyboard.press('Escape');

  // An administrator's page turns them away to the 401 page, whose Login comes back to it.
  await page.goto(server.origin + '/admin/users');
  await expect(page).toHaveURL(/\/error\/unauthorized$/);
  await expect(page.getByRole('main').getByRole('link', { name: 'Login' })).toHaveAttribute(
    'href',
    `/account/login?r=${encodeURIComponent('/admin/users')}`,
  );
  // Still signed in: a missing link is not a sign-out.
  await expect(accountButton(member.username)).toBeVisible();

  // Between the mobile breakpoint and a laptop the header still fits: menu, switch and username on one line.
  for (const width of [600, 768, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(server.origin + '/home');
    const button = accountButton(member.username);
    await expect(button).toBeVisible();
    const box = await button.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0), `the account button at ${width} px`).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Below 992 px only the icon shows; the open menu's first line names who is signed in.
    await button.click();
    const menu = accountMenu(member.username);
    await expect(menu).toBeVisible();
    await expect(menu.getByText(member.username, { exact: true })).toBeVisible({ visible: width < 992 });
    const violations = await axeViolations(page, { include: '[role="menu"]' });
    expect(violations.map((v) => v.id)).toEqual([]);
    if (screenshotsWanted)
      await page.screenshot({
        path: `test-results/screenshots/header-signed-in-${width}.png`,
        clip: { x: 0, y: 0, width, height: 260 },
      });
    await page.keyboard.press('Escape');
  }
  await page.setViewportSize(desktop);
});

test('the light/dark switch follows the system until used, then flips and survives a reload', async () => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(server.origin + '/home');
  expect(await shownScheme()).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(shownScheme).toBe('light');

  const toggle = header().getByRole('button', { name: 'Dark theme' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect.poll(shownScheme).toBe('dark');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await shownScheme()).toBe('dark');

  // The drawer's switch is the same choice.
  await page.setViewportSize(phone);
  await header().getByRole('button', { name: 'Open menu' }).click();
  const drawerSwitch = page.getByRole('dialog', { name: 'Menu' }).getByRole('switch', { name: 'Dark theme' });
  await expect(drawerSwitch).toBeChecked();
  // The keyboard works it (Mantine's switch is a visually hidden checkbox under its track).
  await drawerSwitch.focus();
  await page.keyboard.press('Space');
  await expect.poll(shownScheme).toBe('light');
  await page.reload();
  expect(await shownScheme()).toBe('light');
  await page.setViewportSize(desktop);

  // Back to following the system, so the pictures below show both schemes.
  await page.evaluate(() => localStorage.removeItem('dbui-color-scheme'));
  await page.emulateMedia({ colorScheme: null });
});

test('the home and setup pages in both schemes, signed in', async () => {
  await page.goto(server.origin + '/home');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await lookAt(page, 'home-signed-in');
  // The administrator exists already: the setup page says so and points to the login page.
  await page.goto(server.origin + '/setup');
  await expect(page.getByRole('link', { name: 'login page' })).toHaveAttribute('href', '/account/login');
  await lookAt(page, 'setup-complete');
});

test('the 401 and 404 pages', async () => {
  await page.goto(server.origin + '/error/unauthorized');
  await expect(page.getByRole('heading', { name: shellMessages.unauthorized })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Go Back' })).toBeVisible();
  await lookAt(page, 'unauthorized');

  await page.goto(server.origin + '/no/such/page');
  await expect(page.getByRole('heading', { name: shellMessages.notFound })).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Go Back' })).toBeVisible();
  await lookAt(page, 'not-found');
});
