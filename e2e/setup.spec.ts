import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { accountMessages } from '#common/messages.ts';
import { saveScreenshot, screenshotAtBothSizes, viewports } from './screenshots.ts';

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });
const passwordField = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}\\s*\\*?$`));

test('with an administrator configured, the setup page says setup is complete', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/setup?token=anything');
  await expect(page.getByText('The administrator already exists.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'login page' })).toHaveAttribute('href', '/account/login');
  await expect(page.getByRole('button', { name: 'Create administrator' })).toHaveCount(0);

  await screenshotAtBothSizes(page, '/setup?token=anything', 'setup-complete', async (p) => {
    await expect(p.getByText('The administrator already exists.')).toBeVisible();
  });
});

// The real server has its administrator from ADMIN_*, so the form is shown with the status answer replaced.
test('the setup form checks its fields and posts them with the token', async ({ page }) => {
  let posted: unknown = null;
  await page.route('**/api/setup', async (route) => {
    if (route.request().method() === 'GET') {
      await route.fulfill({ json: { isSuccess: true, data: { required: true }, message: null } });
      return;
    }
    posted = route.request().postDataJSON();
    await route.fulfill({
      status: 403,
      json: { isSuccess: false, data: null, message: 'This setup link has expired.' },
    });
  });

  await screenshotAtBothSizes(page, '/setup?token=one-time', 'setup-form', async (p) => {
    await expect(p.getByRole('button', { name: 'Create administrator' })).toBeVisible();
  });

  await page.setViewportSize(viewports.desktop);
  await page.goto('/setup?token=one-time');
  await page.getByRole('button', { name: 'Create administrator' }).click();
  await expect(page.getByText(accountMessages.usernameRequired)).toBeVisible();
  await expect(page.getByText(accountMessages.emailRequired)).toBeVisible();
  expect(posted).toBeNull();

  await field(page, 'Username').fill('admin');
  await field(page, 'Email').fill('admin@example.com');
  await passwordField(page, 'Password').fill('Admin#12345');
  await passwordField(page, 'Password Confirm').fill('Admin#1234');
  await expect(page.getByText(accountMessages.passwordsMustMatch)).toBeVisible();
  await saveScreenshot(page, 'setup-form-errors', 'desktop');

  await passwordField(page, 'Password Confirm').fill('Admin#12345');
  await page.getByRole('button', { name: 'Create administrator' }).click();
  await expect(
    page.getByRole('main').getByRole('alert').filter({ hasText: 'This setup link has expired.' }),
  ).toBeVisible();
  expect(posted).toEqual({
    token: 'one-time',
    username: 'admin',
    email: 'admin@example.com',
    password: 'Admin#12345',
    passwordConfirm: 'Admin#12345',
  });
  await page.setViewportSize(viewports.phone);
  await saveScreenshot(page, 'setup-form-refused', 'phone');
});
