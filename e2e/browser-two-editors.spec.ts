import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { rowVersionMessages } from '#common/messages.ts';
import { conflictMessages as cm } from '#web/features/browser/editor/conflict/conflict-messages.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  editor,
  field,
  openRow,
  openTable,
  SAVED,
  search,
  toast,
  valueOf,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { memberOfNewRole, signInAdmin } from './support/chinook-roles.ts';
import { lookAt } from './support/look.ts';

/*
 * Two people edit the same row at once (issue 32 item 3, decision 0045), each in a browser of their own, on
 * PostgreSQL Chinook: the administrator (Alice) and a member of a role that may update customers (Bob). The second
 * save no longer overwrites the first without a word: it opens the conflict view, where Bob merges field by field
 * by keyboard, Alice takes theirs, and Bob keeps his. Nothing either typed is lost before they choose.
 */

let server: AppServer;
let chinook: ChinookDatabase;
let alice: Verification;
let bob: Verification;

// One story in three steps, in order, each with the two browsers the first one opened.
test.describe.configure({ mode: 'serial', timeout: 270_000 });

/** Alice's and Bob's browsers, each with the customer open in the editor. */
let a: { page: Page; dialog: Locator };
let b: { page: Page; dialog: Locator };

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  server = await startAppServer('browser-two-editors', databasesEnv([chinook]));
  alice = await signInAdmin(server);
  bob = await memberOfNewRole(
    server,
    alice.token,
    {
      name: 'Customer desk',
      links: [`/db/${chinook.name}/*`],
      permissions: [{ tableId: chinook.tableId('Customer'), canUpdate: true }],
    },
    'bob',
  );
});
test.afterAll(async () => {
  await a?.page.context().close();
  await b?.page.context().close();
  await server?.stop();
  await chinook?.drop();
});

/** A person's own browser (context: own storage, own session) with customer 16 open in the editor. */
async function openCustomer(browser: Browser, who: Verification): Promise<{ page: Page; dialog: Locator }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openTable(page, server, who, chinook, 'Customer');
  await search(page, chinook, { CustomerId: '16' });
  return { page, dialog: await openRow(page, 'Frank') };
}

const customer16 = (column: string) =>
  valueOf(chinook, `select ${column} from customer where customer_id = 16`);
const conflictView = (page: Page) => editor(page, 'Edit row').getByRole('region', { name: cm.title });
/** One field's choice in the conflict view. */
const choice = (page: Page, column: string) => conflictView(page).getByRole('radiogroup', { name: column });

async function save(page: Page, dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
}

test('the second of two saves from one read opens the conflict view, and nothing is written over the first', async ({
  browser,
}) => {
  a = await openCustomer(browser, alice);
  b = await openCustomer(browser, bob);
  const cityBefore = String(await customer16('city'));

  // Alice saves first: city and fax.
  await field(a.dialog, 'city').fill('Alice City');
  await field(a.dialog, 'fax').fill('+1 555 0101');
  await save(a.page, a.dialog);
  await expect(toast(a.page, SAVED)).toBeVisible();
  expect(await customer16('city')).toBe('Alice City');

  // Bob, who opened the row before Alice saved, changes city and phone and saves: refused, and shown both sides.
  await field(b.dialog, 'city').fill('Bob City');
  await field(b.dialog, 'phone').fill('+1 555 0202');
  await save(b.page, b.dialog);
  await expect(conflictView(b.page)).toBeVisible();
  await expect(conflictView(b.page)).toContainText(rowVersionMessages.changedSince);
  await expect(b.page.getByRole('heading', { name: cm.title })).toBeFocused();
  // Nothing was written over Alice's row.
  expect(await customer16('city')).toBe('Alice City');
  expect(await customer16('phone')).not.toBe('+1 555 0202');
  // Every field that differs, the value as opened beside both: city (both changed), fax (Alice), phone (Bob).
  await expect(conflictView(b.page).getByRole('radiogroup')).toHaveCount(3);
  await expect(choice(b.page, 'city')).toContainText(cityBefore);
  await expect(choice(b.page, 'city').getByRole('radio', { name: cm.mine })).toBeChecked();
  await expect(choice(b.page, 'fax').getByRole('radio', { name: cm.theirs })).toBeChecked();
  await expect(choice(b.page, 'phone').getByRole('radio', { name: cm.mine })).toBeChecked();
});

test('the conflict view, looked at on a phone and a laptop, light and dark', async () => {
  await lookAt(b.page, 'browser-row-conflict');
});

test('a choice per field by keyboard, then Save my choices', async () => {
  // By keyboard: into city's choice, the arrow moves it to theirs; then Save my choices.
  await choice(b.page, 'city').getByRole('radio', { name: cm.mine }).focus();
  await b.page.keyboard.press('ArrowDown');
  await expect(choice(b.page, 'city').getByRole('radio', { name: cm.theirs })).toBeChecked();
  await expect(choice(b.page, 'city').getByRole('radio', { name: cm.theirs })).toBeFocused();
  await conflictView(b.page).getByRole('button', { name: cm.saveChoices }).click();
  await expect(toast(b.page, SAVED)).toBeVisible();
  await expect(conflictView(b.page)).toBeHidden();
  await expect(field(b.dialog, 'city')).toHaveValue('Alice City');
  await expect(field(b.dialog, 'phone')).toHaveValue('+1 555 0202');
  expect([await customer16('city'), await customer16('fax'), await customer16('phone')]).toEqual([
    'Alice City',
    '+1 555 0101',
    '+1 555 0202',
  ]);
});

test('the first one’s next save meets the second’s: she takes theirs, then saves on the row as it is', async () => {
  // Alice's editor still holds the row as she saved it: her next save meets Bob's, and she takes theirs.
  await field(a.dialog, 'email').fill('alice@example.com');
  await save(a.page, a.dialog);
  await expect(conflictView(a.page)).toBeVisible();
  await conflictView(a.page).getByRole('button', { name: cm.takeTheirs }).click();
  await expect(conflictView(a.page)).toBeHidden();
  await expect(field(a.dialog, 'phone')).toHaveValue('+1 555 0202');
  await expect(field(a.dialog, 'email')).not.toHaveValue('alice@example.com');
  // Now on the row as it is, her change goes through.
  await field(a.dialog, 'email').fill('alice@example.com');
  await save(a.page, a.dialog);
  await expect(toast(a.page, SAVED)).toBeVisible();
  expect(await customer16('email')).toBe('alice@example.com');
});

test('the second keeps his own value over her newer save, knowingly', async () => {
  // Bob changes the same field on his older copy: refused; he keeps his, written over hers.
  await field(b.dialog, 'email').fill('bob@example.com');
  await save(b.page, b.dialog);
  await expect(choice(b.page, 'email')).toContainText('alice@example.com');
  await conflictView(b.page).getByRole('button', { name: cm.keepMine }).click();
  await expect(toast(b.page, SAVED)).toBeVisible();
  expect(await customer16('email')).toBe('bob@example.com');
  await expect(field(b.dialog, 'email')).toHaveValue('bob@example.com');
});
