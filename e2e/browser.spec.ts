import { expect, test, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  addAlbumWithArtist,
  columnHeader,
  dataRows,
  editCustomerAndSave,
  exportCustomersToCsv,
  findCustomerByLastName,
  editor,
  openTable,
  pageTracksToTheEndAndBack,
  pager,
  pagerStatus,
  search,
  searchForm,
  settled,
  sortButton,
  sortTracksByName,
  tableList,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { openSignedIn, signInAdmin } from './support/chinook-roles.ts';
import { lookAt } from './support/look.ts';

/*
 * The database browser on PostgreSQL Chinook (spec 000 §2, §4, §5, §9; issue 13), as the administrator: find a
 * customer by an indexed column, sort, page to the end and back, edit and save a row, add a row with a foreign key
 * chosen from the combobox, export to CSV and compare the file with the table, the table information modal, the
 * address that holds the view, /db, and a phone. Rows: e2e/browser-rows.spec.ts; MariaDB and SQLite:
 * e2e/browser-engines.spec.ts.
 */

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;

test.describe.configure({ timeout: 270_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  server = await startAppServer('browser', databasesEnv([chinook]));
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

test('find a customer by an indexed column (starts with), then clear the search', async ({ page }) => {
  await findCustomerByLastName(page, server, admin, chinook);
  await expect(tableList(page).getByRole('link', { name: 'public.customer', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // The header's Database dropdown names the database; the table list filters as one types.
  await expect(page.getByRole('combobox', { name: 'Database', exact: true })).toHaveValue(chinook.name);
  await tableList(page).getByRole('textbox', { name: 'Search tables' }).fill('invoice');
  await expect(tableList(page).getByRole('link')).toHaveText(['public.invoice', 'public.invoice_line']);
  await tableList(page).getByRole('textbox', { name: 'Search tables' }).fill('');
  await expect(tableList(page).getByRole('link')).toHaveCount(11);
  await lookAt(page, 'browser-table');
});

test('sort tracks by a header: ascending, descending, none', async ({ page }) => {
  await sortTracksByName(page, server, admin, chinook);
});

test('page tracks to the end with Last and back with First', async ({ page }) => {
  await pageTracksToTheEndAndBack(page, server, admin, chinook);
});

test('edit a customer and save: the grid shows it', async ({ page }) => {
  await editCustomerAndSave(page, server, admin, chinook);
});

test('add an album with its artist chosen in the combobox', async ({ page }) => {
  await addAlbumWithArtist(page, server, admin, chinook);
});

test('export a search to CSV: the file holds the same rows as the table', async ({ page }) => {
  await exportCustomersToCsv(page, server, admin, chinook);
});

test('the table information modal: General, Keys, Indexes', async ({ page }) => {
  await openTable(page, server, admin, chinook, 'Customer');
  await page.getByRole('button', { name: 'Table information' }).click();
  const dialog = page.getByRole('dialog', { name: 'Table information' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByText('first_name').first()).toBeVisible();
  await dialog.getByRole('tab', { name: 'Keys' }).click();
  await expect(dialog.getByRole('tabpanel')).toContainText('customer_id');
  await dialog.getByRole('tab', { name: 'Indexes' }).click();
  await expect(dialog.getByRole('tabpanel')).toContainText('ix_customerlastname');
  await expect(dialog.getByRole('tabpanel')).toContainText('customer_pkey');
  await lookAt(page, 'browser-info');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the address holds table, search, sort, page and size; a reload restores the view', async ({ page }) => {
  const name = chinook.column('Name');
  await openTable(page, server, admin, chinook, 'Track', '?page=3&size=40&sort=-name');
  await expect(pagerStatus(page)).toContainText('Page 3 of 88');
  await expect(dataRows(page)).toHaveCount(40);
  await expect(columnHeader(page, name)).toHaveAttribute('aria-sort', 'descending');
  await expect(pager(page).getByLabel('Rows per page')).toHaveValue('40');

  // Changing the view writes the address (without a navigation), and a reload shows the same view.
  await search(page, chinook, { GenreId: '1' });
  await sortButton(page, name).click(); // -name → none
  await settled(page);
  await pager(page).getByRole('button', { name: 'Next page' }).click();
  await settled(page);
  const url = new URL(page.url());
  expect(url.pathname).toBe(chinook.path('Track'));
  expect(url.searchParams.get('q.genre_id')).toBe('1');
  expect(url.searchParams.get('sort')).toBeNull();
  expect(url.searchParams.get('page')).toBe('2');
  expect(url.searchParams.get('size')).toBe('40');
  const shown = await dataRows(page).allInnerTexts();
  const status = await pagerStatus(page).innerText();

  await page.reload();
  await settled(page);
  await expect(pagerStatus(page)).toHaveText(status);
  await expect(termInput(page, 'genre_id')).toHaveValue('1');
  expect(await dataRows(page).allInnerTexts()).toEqual(shown);
});

test('/db goes to the home page', async ({ page }) => {
  await openSignedIn(page, server, admin, '/db');
  await expect(page).not.toHaveURL(/\/db/);
  expect(['/', '/home']).toContain(new URL(page.url()).pathname);
});

test('on a phone: the grid scrolls inside its card, the pager stays reachable, the editor fills the screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await openTable(page, server, admin, chinook, 'Track');
  // The page itself does not scroll sideways; the grid's own container does.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await pager(page).getByRole('button', { name: 'Next page' }).click();
  await settled(page);
  await expect(pagerStatus(page)).toContainText('Page 2 of 176');
  await dataRows(page).first().click();
  const dialog = editor(page, 'Edit row');
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(370);
  await lookAt(page, 'browser-editor');
});

/** A search-form input by its column name. */
function termInput(page: Page, name: string) {
  return searchForm(page).getByRole('textbox', { name, exact: true });
}
