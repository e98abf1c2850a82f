import { expect, test } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { browserMessages as bm } from '#common/messages.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  dataCells,
  dataRows,
  editor,
  field,
  openRow,
  openTable,
  pendingBanner,
  SAVED,
  search,
  settled,
  tableList,
  toast,
  valueOf,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { memberOfNewRole, signInAdmin } from './support/chinook-roles.ts';

/*
 * The row editor on PostgreSQL Chinook beyond edit and add (e2e/browser.spec.ts): copy a row into a new one, be
 * refused closing with pending changes, delete a row after its confirmation, undo an edit from the History tab;
 * and what the rights of a role show: no Save without CanUpdate, one table only when the links name one.
 */

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;

test.describe.configure({ timeout: 270_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  server = await startAppServer('browser-rows', databasesEnv([chinook]));
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

const album = (title: string) =>
  chinook.query<{ album_id: number; artist_id: number }>(
    'select album_id, artist_id from album where title = ? order by album_id',
    [title],
  );

test('copy a row into a new one and save it', async ({ page }) => {
  await openTable(page, server, admin, chinook, 'Album');
  await search(page, chinook, { AlbumId: '4' });
  const dialog = await openRow(page, 'Let There Be Rock');
  await dialog.getByRole('button', { name: 'Copy row' }).click();
  const copy = editor(page, 'Add row');
  await expect(copy).toBeVisible();
  // The copy keeps the values but not the identity.
  await expect(field(copy, 'title')).toHaveValue('Let There Be Rock');
  await expect(field(copy, 'album_id')).toHaveValue('');
  await field(copy, 'title').fill('Let There Be Rock (copy)');
  await copy.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED)).toBeVisible();
  await expect(editor(page, 'Edit row')).toBeVisible();
  const [original] = await album('Let There Be Rock');
  const copies = await album('Let There Be Rock (copy)');
  expect(copies).toHaveLength(1);
  expect(copies[0]!.artist_id).toBe(original!.artist_id);
  expect(copies[0]!.album_id).not.toBe(original!.album_id);
});

test('closing with pending changes is refused until they are discarded', async ({ page }) => {
  await openTable(page, server, admin, chinook, 'Customer');
  await search(page, chinook, { CustomerId: '10' });
  // By keyboard: a cell of the row takes the focus, Enter opens it.
  await dataCells(dataRows(page).first()).first().focus();
  await page.keyboard.press('Enter');
  const dialog = editor(page, 'Edit row');
  await expect(dialog).toBeVisible();
  await expect(field(dialog, 'first_name')).toHaveValue('Eduardo');
  const city = field(dialog, 'city');
  const before = await city.inputValue();
  await city.fill('Nowhere');
  await expect(pendingBanner(dialog)).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(pendingBanner(dialog)).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete row' }).click();
  await expect(toast(page, bm.cannotDeleteWithPendingChanges)).toBeVisible();

  await dialog.getByRole('button', { name: 'Discard Changes' }).click();
  await expect(pendingBanner(dialog)).toBeHidden();
  await expect(city).toHaveValue(before);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await valueOf(chinook, 'select city from customer where customer_id = 10')).toBe(before);
});

test('delete a row after its confirmation', async ({ page }) => {
  const [made] = await chinook.query<{ album_id: number }>(
    "insert into album (title, artist_id) values ('Album to delete', 2) returning album_id",
  );
  const id = String(made!.album_id);
  await openTable(page, server, admin, chinook, 'Album');
  await search(page, chinook, { AlbumId: id });
  let dialog = await openRow(page, 'Album to delete');

  await dialog.getByRole('button', { name: 'Delete row' }).click();
  let confirm = page.getByRole('dialog', { name: bm.deleteRowTitle });
  await expect(confirm).toContainText(bm.deleteRowMessage);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect(await album('Album to delete')).toHaveLength(1);

  await dialog.getByRole('button', { name: 'Delete row' }).click();
  confirm = page.getByRole('dialog', { name: bm.deleteRowTitle });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, bm.rowDeleted)).toBeVisible();
  dialog = editor(page, 'Edit row');
  await expect(dialog).toBeHidden();
  await settled(page);
  await expect(dataRows(page)).toHaveCount(0);
  expect(await album('Album to delete')).toHaveLength(0);
});

test('undo an edit from the History tab', async ({ page }) => {
  const before = await valueOf(chinook, 'select city from customer where customer_id = 12');
  await openTable(page, server, admin, chinook, 'Customer');
  await search(page, chinook, { CustomerId: '12' });
  const dialog = await openRow(page, 'Roberto');
  await field(dialog, 'city').fill('Undo City');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED)).toBeVisible();
  expect(await valueOf(chinook, 'select city from customer where customer_id = 12')).toBe('Undo City');

  await dialog.getByRole('tab', { name: 'History' }).click();
  const history = dialog.getByRole('tabpanel');
  await expect(history).toContainText('city');
  await expect(history).toContainText(String(before));
  await expect(history).toContainText('Undo City');
  await history.getByRole('button', { name: 'Undo' }).first().click();
  const confirm = page.getByRole('dialog', { name: 'Undo Change Confirmation' });
  await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => valueOf(chinook, 'select city from customer where customer_id = 12')).toBe(before);
  await dialog.getByRole('tab', { name: 'Row' }).click();
  await expect(field(dialog, 'city')).toHaveValue(String(before));
});

test('a member without CanUpdate sees the row but no Save, Add or Delete', async ({ page }) => {
  const reader = await memberOfNewRole(
    server,
    admin.token,
    {
      name: 'Chinook readers',
      links: [`/db/${chinook.name}/*`],
      permissions: [{ tableId: chinook.tableId('Customer'), canInsert: false, canUpdate: false }],
    },
    'reader',
  );
  await openTable(page, server, reader, chinook, 'Customer');
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
  const dialog = await openRow(page, 'Luís');
  await expect(field(dialog, 'first_name')).toHaveValue('Luís');
  await expect(field(dialog, 'first_name')).not.toBeEditable();
  await expect(dialog.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Delete row' })).toHaveCount(0);
});

test('a member whose links name one table sees only that table', async ({ page }) => {
  const member = await memberOfNewRole(
    server,
    admin.token,
    {
      name: 'Customer desk',
      links: [`/db/${chinook.name}/public/customer`],
      permissions: [{ tableId: chinook.tableId('Customer'), canUpdate: true }],
    },
    'desk',
  );
  await openTable(page, server, member, chinook, 'Customer');
  const entries = tableList(page).getByText(/^public\./);
  await expect(entries).toHaveCount(1);
  await expect(entries).toHaveText('public.customer');
  await expect(tableList(page).getByText('public.track')).toHaveCount(0);
  // Their right to update shows Save once a field changes; no Add without CanInsert.
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
  const dialog = await openRow(page, 'Luís');
  await field(dialog, 'city').fill('Elsewhere');
  await expect(dialog.getByRole('button', { name: 'Save Changes' })).toBeVisible();
});
