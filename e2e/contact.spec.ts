import { expect, test, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { contactMessages } from '#common/contract/contact.ts';
import { lookAtSoftly, signInMember, signUpMember, type Member } from './support/admin.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { toast } from './support/chinook-browser.ts';
import { openSignedIn, signInAdmin } from './support/chinook-roles.ts';

/*
 * Contact Us and the administrators' inbox (issue 15; spec 001 §2, §5, §8) on a server that mails the team at
 * CONTACT_TO through the journey's SMTP sink: a member's message is mailed and listed; with the mail server gone
 * a message is still stored and the inbox says it was not mailed, and why; an anonymous visitor goes to login first.
 */

const TEAM = 'team@example.com';
let server: AppServer;
let admin: Verification;
let member: Member;
let memberSession: Verification;

test.describe.configure({ mode: 'serial', timeout: 270_000 });
test.use({ actionTimeout: 15_000 });

test.beforeAll(async () => {
  test.setTimeout(270_000);
  server = await startAppServer('contact', { CONTACT_TO: TEAM });
  admin = await signInAdmin(server);
  member = await signUpMember(server, 'contactmember');
  memberSession = await signInMember(server, member);
});
test.afterAll(async () => {
  await server?.stop();
});

/** The consent banner answered (Reject), so the pictures show the page and not the banner over it. */
async function answerConsent(page: Page): Promise<void> {
  const reject = page.getByRole('button', { name: 'Reject', exact: true });
  if (await reject.isVisible()) await reject.click();
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: false }).first();

async function sendMessage(page: Page, subject: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
}

test('an anonymous visitor to /contact-us is sent to login, coming back afterwards', async ({ page }) => {
  await page.goto(`${server.origin}/contact-us`);
  await expect(page).toHaveURL(/\/account\/login\?r=(%2F|\/)contact-us$/);
});

test('a member’s message is mailed to the team; without a mail server it is still stored', async ({
  page,
}) => {
  await openSignedIn(page, server, memberSession, '/contact-us');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  const from = field(page, 'From');
  await expect(from).toHaveValue(member.email);
  await expect(from).toHaveAttribute('readonly', '');

  // The spec's messages before anything is sent.
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Subject is required.')).toBeVisible();
  await expect(page.getByText('Message is required.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Subject' }).fill('x'.repeat(51));
  await expect(page.getByText('Subject cannot be more than 50 characters.')).toBeVisible();

  await sendMessage(page, 'Moving our reports to PostgreSQL', 'We run SQL Server 2016 with about 40 tables.');
  await expect(toast(page, contactMessages.sent)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
  const mail = await server.mail.next(TEAM);
  expect(mail.raw).toContain('Moving our reports to PostgreSQL');
  expect(mail.raw).toContain(member.email);

  await page.getByRole('textbox', { name: 'Subject' }).fill('A question about DBUI');
  await page.getByRole('textbox', { name: 'Message' }).fill('When can we try DBUI on our own servers?');
  await answerConsent(page);
  await lookAtSoftly(page, 'contact');

  // The mail server goes away: the message is kept for the team all the same, and the toast says so.
  await server.mail.close();
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(toast(page, contactMessages.storedNotMailed)).toBeVisible();
});

test('the administrator reads both in the inbox, with the failed mail and its reason, and archives one', async ({
  page,
}) => {
  await openSignedIn(page, server, admin, '/admin/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const inbox = page.getByRole('region', { name: 'Inbox messages' });
  const rows = inbox.getByRole('button', { name: /DBUI|PostgreSQL/ });
  await expect(rows).toHaveCount(2);
  // Newest first.
  await expect(rows.nth(0)).toContainText('A question about DBUI');
  await expect(rows.nth(0)).toContainText('Not mailed');
  await expect(rows.nth(0)).toContainText(contactMessages.mailReason.unreachable);
  await expect(rows.nth(1)).toContainText('Moving our reports to PostgreSQL');
  await expect(rows.nth(1)).toContainText('Mailed');
  await expect(rows.nth(1)).not.toContainText('Not mailed');
  await expect(rows.nth(1)).toContainText(member.email);

  await rows.nth(1).click();
  await expect(page.getByText('We run SQL Server 2016 with about 40 tables.')).toBeVisible();
  await expect(page.getByRole('form', { name: /Answer to message/ })).toBeVisible();
  await answerConsent(page);
  await lookAtSoftly(page, 'admin-messages');

  // Without the mail server the answer is kept, and the toast says it was not mailed.
  const form = page.getByRole('form', { name: /Answer to message/ });
  await form.getByRole('textbox').fill('Thank you; we will call you this week.');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(toast(page, contactMessages.answerStoredNotMailed)).toBeVisible();
  await expect(inbox.getByRole('region', { name: 'Answer', exact: true })).toContainText(
    'we will call you this week',
  );

  await inbox.getByRole('button', { name: 'Archive' }).click();
  await expect(toast(page, contactMessages.archived)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.getByText('Archived', { exact: true }).click();
  await expect(page).toHaveURL(/archived=1/);
  await expect(
    page.getByRole('region', { name: 'Archived messages' }).getByRole('button', { name: /PostgreSQL/ }),
  ).toBeVisible();
});
