import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { loginMessages } from '#common/messages.ts';
import { distFolder, startAppServer, type AppServer } from './support/app-server.ts';
import { tickHumanCheck } from './support/human-check.ts';
import { lookAt } from './support/look.ts';

/*
 * `dbui admin reset-2fa` (decision 0057) as the person it helps meets it: the operator runs the built command line
 * on the server's data folder, and the link it prints, opened in a browser, signs the administrator in after their
 * password alone and lands on the account page, where a new second factor is set up.
 */

let server: AppServer;
let context: BrowserContext;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('command-line');
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

test("dbui admin reset-2fa prints a link that stands in for the administrator's second step once", async () => {
  const run = spawnSync(
    process.execPath,
    [path.resolve(distFolder, 'server', 'dbui.js'), 'admin', 'reset-2fa', server.admin.username],
    {
      cwd: server.dataDir,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: server.dataDir, PUBLIC_URL: server.origin },
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stderr).toBe(0);
  const link = /^ {2}(http\S+)$/m.exec(run.stdout)?.[1];
  expect(link, run.stdout).toBeDefined();

  await page.goto(link!);
  await expect(page.getByText(loginMessages.secondStepLinkIntro)).toBeVisible();
  // The token leaves the address at once, as pu does.
  await expect(page).toHaveURL(/\/account\/login\?r=%2Faccount$/);
  await lookAt(page, 'login-second-step-link');
  await page.getByLabel(loginMessages.username).fill(server.admin.username);
  await page.getByRole('textbox', { name: loginMessages.password }).fill(server.admin.password);
  await tickHumanCheck(page);
  await page.getByRole('button', { name: loginMessages.login, exact: true }).click();
  // No code asked: the link was the second step, and the account page is where a new one is set up.
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: loginMessages.codeTitle })).toHaveCount(0);
});
