import { expect, test, type Browser, type Page } from '@playwright/test';
import { accountApiMessages, accountMessages, formMessages, twoFactorMessages } from '#common/messages.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { tickHumanCheck } from './support/human-check.ts';
import { lookAt } from './support/look.ts';
import { signOut } from './support/sign-in.ts';

/*
 * Sign-up and password recovery in a real browser against the built server (spec 001 §2, §4, §5, §7, §8): a newcomer
 * signs up through the form with the real human-check widget, confirms the email with the code from the SMTP sink
 * and lands signed in; then forgets the password, signs in with the emailed code, chooses a new one on the
 * update-password page, and signs in with it (username, new password, human check, code). The steps share one page,
 * in order, as one person's journey.
 */

const newcomer = {
  username: 'newcomer',
  email: 'newcomer@example.com',
  firstName: 'Grace',
  lastName: 'Hopper',
  password: 'Newcomer#2026',
  newPassword: 'Renewed#2027!',
};

let server: AppServer;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 270_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('signup');
  // A context of its own (axe needs one made with newContext), shared by the steps: one person's browser.
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
});

/** An input by its label; Mantine's required marker after the label's text is left out. */
const field = (label: string) => page.getByLabel(new RegExp(`^${label}\\s*\\*?$`));

async function go(path: string): Promise<void> {
  await page.goto(server.origin + path);
}

/** Types the emailed code into the six boxes of the login page's code entry (complete, it submits itself). */
async function enterCode(code: string): Promise<void> {
  await expect(page.getByRole('group', { name: twoFactorMessages.codeLabel })).toBeVisible();
  for (const [index, digit] of [...code].entries()) {
    await page.getByLabel(twoFactorMessages.codeDigit(index + 1, code.length), { exact: true }).fill(digit);
  }
}

test('the sign-up form explains each rule before anything is sent', async () => {
  await go('/account/signup');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' }).last()).toHaveAttribute('href', '/account/login');
  await lookAt(page, 'signup');

  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText(formMessages.invalidForm)).toBeVisible();
  await expect(page.getByText(accountMessages.usernameRequired)).toBeVisible();
  await expect(page.getByText(accountMessages.emailRequired)).toBeVisible();
  await expect(page.getByText(accountMessages.passwordConfirmRequired)).toBeVisible();

  await field('Username').fill('not valid!');
  await field('Email').fill('nobody');
  await field('Password').fill('short');
  await field('Password Confirm').fill('other');
  await expect(page.getByText(accountMessages.invalidCharacters)).toBeVisible();
  await expect(page.getByText(accountMessages.emailInvalid)).toBeVisible();
  await expect(page.getByText(accountMessages.passwordMin)).toBeVisible();
  await expect(page.getByText(accountMessages.passwordsMustMatch)).toBeVisible();
  await lookAt(page, 'signup-errors');
});

test('a newcomer signs up, confirms the email with the code and is signed in', async () => {
  await go('/account/signup');
  await field('Username').fill(newcomer.username);
  await field('Email').fill(newcomer.email);
  await field('First Name').fill(newcomer.firstName);
  await field('Last Name').fill(newcomer.lastName);
  await field('Password').fill(newcomer.password);
  await field('Password Confirm').fill(newcomer.password);
  // The show/hide button is reachable and says what it does.
  const show = page.getByRole('button', { name: 'Show password', exact: true });
  await show.click();
  await expect(field('Password')).toHaveAttribute('type', 'text');
  await show.click();
  await expect(field('Password')).toHaveAttribute('type', 'password');
  await tickHumanCheck(page);
  await lookAt(page, 'signup-filled');

  await page.getByRole('button', { name: 'Sign Up' }).click();
  // The login page reads pu and takes it out of the address; it opens on the code entry.
  await expect(page).toHaveURL(/\/account\/login/);
  await expect(page.getByRole('group', { name: twoFactorMessages.codeLabel })).toBeVisible();
  await expect(page.getByText(accountApiMessages.signupDone)).toBeVisible();
  await lookAt(page, 'signup-code-entry');

  await enterCode(await server.mail.nextCode(newcomer.email, 10_000));
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(newcomer.username).first()).toBeVisible();
  await lookAt(page, 'signup-signed-in');
});

test('the same username cannot sign up twice, and the human check starts over', async () => {
  await signOut(page, server.origin);
  await go('/account/signup');
  await field('Username').fill(newcomer.username);
  await field('Email').fill('someone.else@example.com');
  await field('Password').fill(newcomer.password);
  await field('Password Confirm').fill(newcomer.password);
  await tickHumanCheck(page);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText(accountApiMessages.usernameTaken)).toBeVisible();
  await expect(page).toHaveURL(/\/account\/signup$/);
  await expect(page.getByRole('checkbox', { name: "I'm not a robot" })).not.toBeChecked();
});

test('forgot password: an unknown username gets the same answer as a known one', async () => {
  await go('/account/forgotPassword');
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await lookAt(page, 'forgot-password');
  // By keyboard alone: type, Tab to the human check, Space to tick it, Enter in the field to send.
  await field('Username').focus();
  await page.keyboard.type('nosuchperson');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: "I'm not a robot" })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('human-check')).toContainText('Verified', { timeout: 20_000 });
  await field('Username').press('Enter');
  await expect(page).toHaveURL(/\/account\/login\?(.+&)?r=%2Faccount%2FupdatePassword/);
  await expect(page.getByRole('group', { name: twoFactorMessages.codeLabel })).toBeVisible();
  await expect(page.getByText(accountApiMessages.forgotPasswordSent)).toBeVisible();
});

test('forgot password: the emailed code signs in and the new password is chosen', async () => {
  await go('/account/forgotPassword');
  await field('Username').fill(newcomer.username);
  await tickHumanCheck(page);
  await page.getByRole('button', { name: 'Send Code' }).click();
  await expect(page).toHaveURL(/\/account\/login\?(.+&)?r=%2Faccount%2FupdatePassword/);
  await lookAt(page, 'forgot-password-code-entry');

  await enterCode(await server.mail.nextCode(newcomer.email, 10_000));
  await expect(page).toHaveURL(/\/account\/updatePassword/);
  await expect(page.getByRole('heading', { name: 'Update your password' })).toBeVisible();
  await lookAt(page, 'update-password');

  await field('Password').fill(newcomer.newPassword);
  await field('Password Confirm').fill('Renewed#2027?');
  await expect(page.getByText(accountMessages.passwordsMustMatch)).toBeVisible();
  await field('Password Confirm').fill(newcomer.newPassword);
  await expect(page.getByText(accountMessages.passwordsMustMatch)).toHaveCount(0);
  await lookAt(page, 'update-password-filled');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(accountApiMessages.passwordUpdated)).toBeVisible();
});

test('the old password no longer signs in; the new one does, with the human check and the emailed code', async () => {
  await signOut(page, server.origin);
  await go('/account/login');
  await field('Username').fill(newcomer.username);
  await field('Password').fill(newcomer.password);
  await tickHumanCheck(page);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText(accountMessages.loginFailed)).toBeVisible();

  await go('/account/login');
  await field('Username').fill(newcomer.username);
  await field('Password').fill(newcomer.newPassword);
  await tickHumanCheck(page);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await enterCode(await server.mail.nextCode(newcomer.email, 10_000));
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(newcomer.username).first()).toBeVisible();
});
