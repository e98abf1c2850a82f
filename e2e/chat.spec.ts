import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { chatMessages } from '#common/contract/chat.ts';
import { CHAT_MESSAGE_LIMIT } from '#common/limits.ts';
import { lookAtSoftly } from './support/admin.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { openSignedIn, signInAdmin } from './support/chinook-roles.ts';

/*
 * Titan, the support chat (issue 16; spec 001 §2, §4, §5, §9), with no language model configured (the built-in
 * answers from the site's own pages): a visitor on the home page opens 'Chat with Titan', reads the introduction,
 * asks about data migration and about DBUI's exports and gets answers with links to the right pages, follows one
 * (the conversation is still there on the new page), reaches the limit of 10 messages (the box is blocked and the
 * canned reply names the support address), and an administrator reads that conversation at /admin/chats. Then the
 * widget on a 375 × 740 phone: nearly the whole screen.
 */

const MIGRATION = 'Do you help with data migration?';
const EXPORTS = 'Which export formats does DBUI offer?';
const UNKNOWN = 'What will the weather be in Paris tomorrow?';
/** The rest of the visitor's questions up to the limit. */
const MORE = [
  'Which database engines does DBUI support?',
  'Do you offer performance tuning?',
  'Can you build internal tools for us?',
  'Do you work with self-hosted AI models?',
  'How do roles and permissions work in DBUI?',
  // Not on the site: Titan says it does not know (an unanswered reply for the administrator).
  UNKNOWN,
  'Where is the company based?',
  'How do I contact you?',
];

/** The support address this server is given (SUPPORT_EMAIL): Titan's canned reply names it. */
const SUPPORT_EMAIL = 'help@example.org';
const SHOTS = 'test-results/screenshots';
let server: AppServer;
let admin: Verification;

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.use({ actionTimeout: 10_000, viewport: { width: 1366, height: 900 } });

test.beforeAll(async () => {
  test.setTimeout(270_000);
  server = await startAppServer('chat', { SUPPORT_EMAIL });
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
});

/** The consent banner answered (Reject), so the pictures show the page and the widget, not the banner. */
async function answerConsent(page: Page): Promise<void> {
  const reject = page.getByRole('button', { name: 'Reject', exact: true });
  if (await reject.isVisible()) await reject.click();
  await expect(reject).toBeHidden();
}

const launcher = (page: Page) => page.getByRole('button', { name: 'Chat with Titan', exact: true });
const chatWindow = (page: Page) => page.getByRole('dialog', { name: 'Chat with Titan', exact: true });
const log = (page: Page) => chatWindow(page).getByRole('log', { name: 'Conversation with Titan' });
const input = (page: Page) => chatWindow(page).getByRole('textbox', { name: 'Message to Titan' });

/** Opens the widget with its round button. */
async function openChat(page: Page): Promise<Locator> {
  await launcher(page).click();
  await expect(chatWindow(page)).toBeVisible();
  return chatWindow(page);
}

/** Sends a question and waits for Titan's reply: the box takes text again (or the limit blocks it). */
async function ask(page: Page, question: string): Promise<void> {
  await expect(input(page)).toBeEnabled();
  await input(page).fill(question);
  await chatWindow(page).getByRole('button', { name: 'Send', exact: true }).click();
  await expect(log(page)).toContainText(question);
  await expect(log(page).locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(log(page)).not.toContainText('Titan is writing…');
  await expect(input(page)).toHaveValue('');
  await expect
    .poll(async () => (await input(page).isEnabled()) || (await newChat(page).isVisible()), {
      timeout: 15_000,
    })
    .toBe(true);
}

const newChat = (page: Page) => chatWindow(page).getByRole('button', { name: 'New chat', exact: true });

/** The addresses of the links in the conversation, in order. */
async function linksInLog(page: Page): Promise<string[]> {
  return log(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
}

/** The limit reply as the widget shows it: its Markdown link written as the link's words. */
const limitReplyShown = chatMessages.limitReply(SUPPORT_EMAIL).replace(/\[([^\]]+)\]\([^)]+\)/g, '$1');

test('a visitor asks Titan about the services, follows a link and reaches the limit', async ({ page }) => {
  await page.goto(`${server.origin}/home`);
  await answerConsent(page);
  const window = await openChat(page);
  // The introduction: who Titan is and what it answers from.
  await expect(log(page)).toContainText('Titan');
  await expect(input(page)).toBeEnabled();

  await ask(page, MIGRATION);
  const afterMigration = await linksInLog(page);
  expect(afterMigration, afterMigration.join(', ')).toContain('/services/database');

  await ask(page, EXPORTS);
  const afterExports = (await linksInLog(page)).slice(afterMigration.length);
  expect(afterExports, afterExports.join(', ')).toContain('/products/dbui');
  await lookAtSoftly(page, 'chat-widget');

  // A link to a page of the site opens it in the app; the conversation is still there.
  await log(page).locator('a[href="/products/dbui"]').last().click();
  await expect(page).toHaveURL(/\/products\/dbui$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  if (!(await window.isVisible())) await openChat(page);
  await expect(log(page)).toContainText(MIGRATION);
  await expect(log(page)).toContainText(EXPORTS);

  // Up to the limit: the 10th question is answered, then the box is blocked and the canned reply shows.
  for (const question of MORE) await ask(page, question);
  await expect(log(page)).toContainText(limitReplyShown);
  await expect(log(page)).toContainText(SUPPORT_EMAIL);
  await expect(input(page)).toBeDisabled();
  await expect(chatWindow(page).getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await expect(newChat(page)).toBeVisible();
  await expect(log(page).getByRole('link', { name: 'Contact us' }).last()).toHaveAttribute(
    'href',
    '/contact-us',
  );
  await chatWindow(page).screenshot({ path: `${SHOTS}/chat-widget-limit.png`, animations: 'disabled' });
});

test('an administrator reads the conversation at /admin/chats', async ({ page }) => {
  await openSignedIn(page, server, admin, '/admin/chats');
  await expect(page.getByRole('heading', { level: 1, name: 'Chats' })).toBeVisible();
  const row = page
    .getByRole('region', { name: 'Conversations' })
    .getByRole('button')
    .filter({ hasText: MIGRATION });
  await expect(row).toContainText(`${CHAT_MESSAGE_LIMIT} visitor messages of ${CHAT_MESSAGE_LIMIT}`);
  await expect(row).toContainText('Visitor not signed in');
  await expect(row).toContainText('1 unanswered');
  await row.click();
  const transcript = page.getByRole('region', { name: 'Conversation', exact: true });
  const messages = transcript.getByRole('list', { name: 'Messages' });
  await expect(messages).toContainText(MIGRATION);
  await expect(messages).toContainText(EXPORTS);
  for (const question of MORE) await expect(messages).toContainText(question);
  await expect(messages.getByText('Introduction', { exact: true })).toBeVisible();
  await expect(messages.getByText('Built-in', { exact: true }).first()).toBeVisible();
  await expect(messages.locator('a[href="/products/dbui"]').first()).toBeVisible();
  const unknown = messages.getByRole('listitem').filter({ hasText: 'Did not know' });
  await expect(unknown).toHaveCount(1);
  await expect(unknown.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-us');
  await answerConsent(page);
  await lookAtSoftly(page, 'admin-chats');
  // On a phone the transcript is a drawer over the list; closed, the list alone.
  await page.setViewportSize({ width: 375, height: 812 });
  const drawer = page.getByRole('dialog', { name: /Conversation started/ });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
  await expect(row).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-chats-list-375.png`, animations: 'disabled' });
});

test('on a 375 × 740 phone the widget takes nearly the whole screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${server.origin}/home`);
  await answerConsent(page);
  const window = await openChat(page);
  await expect(input(page)).toBeEnabled();
  // The widget grows into place as it opens (a CI run measured it 349.9 px wide mid-way): measured once it stands.
  await expect.poll(async () => (await window.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(375 - 24);
  const box = await window.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.width).toBeGreaterThanOrEqual(375 - 24);
  expect(box!.height).toBeGreaterThanOrEqual(740 - 80);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await ask(page, EXPORTS);
  expect(await linksInLog(page)).toContain('/products/dbui');
  await page.screenshot({ path: `${SHOTS}/chat-widget-375x740.png`, animations: 'disabled' });
});

test('on a 375 px phone the launcher never covers a form: it steps aside over one and is back past it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`${server.origin}/account/signup`);
  await answerConsent(page);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  /** Whether the launcher, shown, lies over a form or a field of the page (what it covered: issue 32). */
  const coversAForm = () =>
    page.evaluate(() => {
      const button = document.querySelector<HTMLElement>('button[aria-label="Chat with Titan"]');
      if (!button || getComputedStyle(button).visibility === 'hidden') return false;
      const box = button.getBoundingClientRect();
      return [...document.querySelectorAll('main form, main input, main textarea, main select')].some(
        (part) => {
          const r = part.getBoundingClientRect();
          return (
            r.width > 0 &&
            r.left < box.right &&
            box.left < r.right &&
            r.top < box.bottom &&
            box.top < r.bottom
          );
        },
      );
    });
  // At the top the sign-up form runs down past the launcher's corner: the launcher is out of the way.
  await expect(launcher(page)).toBeHidden();
  expect(await coversAForm()).toBe(false);
  // Down at the footer, past the form: it is back, and can be opened.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(launcher(page)).toBeVisible();
  expect(await coversAForm()).toBe(false);
  await page.screenshot({ path: `${SHOTS}/chat-launcher-signup-375-bottom.png`, animations: 'disabled' });
  // Up again, over the form: out of the way again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(launcher(page)).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/chat-launcher-signup-375-top.png`, animations: 'disabled' });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await launcher(page).click();
  await expect(chatWindow(page)).toBeVisible();
});
