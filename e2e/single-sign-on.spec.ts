import { expect, test, type Page } from '@playwright/test';
import { accountPageMessages, loginMessages, twoFactorMessages } from '#common/messages.ts';
import { startOpenIdProvider, type TestOpenIdProvider } from '#server/test/openid-provider.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { lookAt } from './support/look.ts';

/*
 * Sign-in with the operator's OpenID Connect provider (docs/decisions/0060-generic-openid-connect.md) in a real
 * browser: the built server with OIDC_ISSUER pointing at a real OpenID provider (oidc-provider on 127.0.0.1, which
 * signs the person in without a form), the "Continue with Acme account" button, the provider's redirects, the
 * emailed code of the new account, and the account page naming the linked provider by its label.
 */

const LABEL = 'Acme account';
const EMAIL = 'grace@acme.example';
let op: TestOpenIdProvider | undefined;
let server: AppServer;

test.describe.configure({ timeout: 270_000 });

test.beforeAll(async () => {
  server = await startAppServer('single-sign-on', async (origin) => {
    op = await startOpenIdProvider([`${origin}/api/account/login/oidc/callback`]);
    return {
      OIDC_ISSUER: op.issuer,
      OIDC_CLIENT_ID: op.clientId,
      OIDC_CLIENT_SECRET: op.clientSecret,
      OIDC_LABEL: LABEL,
    };
  });
});

test.afterAll(async () => {
  await server?.stop();
  await op?.close();
});

/** Types a six-digit code into the code entry (it submits itself once complete). */
async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel(twoFactorMessages.codeDigit(1, 6)).click();
  await page.keyboard.type(code);
}

test('a first sign-in through the OpenID Connect provider makes the account and signs in with its code', async ({
  page,
}) => {
  if (!op) throw new Error('the OpenID provider did not start');
  op.people.set('grace-1', {
    email: EMAIL,
    email_verified: true,
    given_name: 'Grace',
    family_name: 'Hopper',
  });
  op.nextSubject = 'grace-1';

  await page.goto(`${server.origin}/account/login?r=%2Faccount`);
  const button = page.getByRole('link', { name: loginMessages.social(LABEL) });
  await expect(button).toBeVisible();
  await expect(page.getByRole('link', { name: /Continue with/ })).toHaveCount(1);
  await lookAt(page, 'login-single-sign-on');

  // To the provider and back: DBUI asks for the new account's code, as after any first step.
  await button.click();
  await expect(page.getByRole('heading', { name: loginMessages.codeTitle })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/account/login');
  await typeCode(page, await server.mail.nextCode(EMAIL));
  await expect(page).toHaveURL(/\/account$/);

  // The account page lists the provider under its label, linked with the provider's address.
  const card = page.getByRole('region', { name: accountPageMessages.socialTitle });
  await expect(card.getByText(LABEL, { exact: true })).toBeVisible();
  await expect(card.getByText(EMAIL)).toBeVisible();
  await expect(card.getByRole('button', { name: accountPageMessages.socialUnlink(LABEL) })).toBeVisible();
});
