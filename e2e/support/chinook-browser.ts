import fs from 'node:fs';
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { browserMessages as bm } from '#common/messages.ts';
import type { AppServer } from './app-server.ts';
import type { ChinookDatabase } from './chinook-databases.ts';
import { openSignedIn } from './chinook-roles.ts';

/*
 * The database browser as a person uses it, by the accessible names of the browser's contract: the table list
 * (nav "Tables"), the search form (form "Search"), the grid ("Rows"), the pager (nav "Pages"), the row editor
 * ("Edit row" / "Add row") and the export menu. The steps here run the same on every engine; the journeys
 * (e2e/browser*.spec.ts) choose which steps run where.
 */

export const grid = (page: Page) => page.getByRole('grid', { name: 'Rows' });
/** The grid's data rows (marked data-row; the loading skeleton and the "no rows" line are not). */
export const dataRows = (page: Page) => grid(page).locator('tbody tr[data-row]');
/** The grid's column headers without the bulk selection's checkbox column (shown first to whoever may change rows:
 * decision 0068, "The grid's bulk actions"). */
export const dataHeaders = (page: Page) =>
  grid(page).locator('thead th:not([role="presentation"]):not([data-select])');
/** A row's data cells, without its checkbox cell. */
export const dataCells = (row: Locator) => row.locator('td[role="gridcell"]:not([data-select])');
export const pager = (page: Page) => page.getByRole('navigation', { name: 'Pages' });
/** "Page X of Y · N rows". */
export const pagerStatus = (page: Page) => pager(page).getByText(/^Page [\d,]+/);
export const searchForm = (page: Page) => page.getByRole('form', { name: 'Search' });
export const tableList = (page: Page) => page.getByRole('navigation', { name: 'Tables' });
export const columnHeader = (page: Page, column: string) =>
  grid(page).getByRole('columnheader', { name: column, exact: true });
export const sortButton = (page: Page, column: string) =>
  grid(page).getByRole('button', { name: column, exact: true });
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
export const editor = (page: Page, title: 'Edit row' | 'Add row') =>
  page.getByRole('dialog', { name: title });
/** The pending-changes banner of the row editor. */
export const pendingBanner = (scope: Locator) => scope.getByText(bm.pendingChanges.trim());
/** What a successful save says (spec 000 §4 names 'Successfully saved changes.'; the server's answer is
 * 'Successfully updated row.'). */
export const SAVED = new RegExp(`${escape(bm.savedChanges)}|${escape(bm.rowUpdated)}`);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A field of the row editor or the search form by its column's name, whatever input it is. */
export function field(scope: Locator, name: string): Locator {
  return scope
    .getByRole('textbox', { name, exact: true })
    .or(scope.getByRole('combobox', { name, exact: true }))
    .or(scope.getByRole('spinbutton', { name, exact: true }))
    .first();
}

/** Waits until the grid shows a page that is not loading. */
export async function settled(page: Page): Promise<void> {
  await expect(grid(page)).toBeVisible();
  await expect(grid(page)).not.toHaveAttribute('aria-busy', 'true');
}

/** Opens a table's view signed in (the address may carry ?page=…&sort=…) and waits for its rows. */
export async function openTable(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
  table: string,
  query = '',
): Promise<void> {
  await openSignedIn(page, server, who, db.path(table) + query);
  await expect(page.getByRole('heading', { level: 2, name: db.entry(table), exact: true })).toBeVisible();
  await settled(page);
}

/** Searches by the terms (column PascalCase name → term) through the search form. */
export async function search(page: Page, db: ChinookDatabase, terms: Record<string, string>): Promise<void> {
  const form = searchForm(page);
  for (const [column, term] of Object.entries(terms)) await field(form, db.column(column)).fill(term);
  await form.getByRole('button', { name: 'Search', exact: true }).click();
  await settled(page);
}

/** Opens the row of the grid holding `text` in the editor. */
export async function openRow(page: Page, text: string): Promise<Locator> {
  // On the text itself: the row's middle (or its edge) may fall on a cell's copy button, shown under the pointer.
  await dataRows(page).filter({ hasText: text }).first().getByText(text, { exact: true }).first().click();
  const dialog = editor(page, 'Edit row');
  await expect(dialog).toBeVisible();
  return dialog;
}

/** One value of the database, read with SQL (the oracle the journeys compare the screen with). */
export async function valueOf(db: ChinookDatabase, sql: string, values: unknown[] = []): Promise<unknown> {
  const rows = await db.query(sql, values);
  const first = rows[0];
  return first === undefined ? undefined : Object.values(first)[0];
}

// ---- the core steps, one per engine ----------------------------------------------------------------------------

/** Find a customer by an indexed text column (the journeys add an index on LastName: "starts with"). */
export async function findCustomerByLastName(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
): Promise<void> {
  await openTable(page, server, who, db, 'Customer');
  const lastName = field(searchForm(page), db.column('LastName'));
  await expect(searchForm(page).getByText('starts with').first()).toBeVisible();
  await expect(lastName).toBeVisible();
  await search(page, db, { LastName: 'Gonç' });
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText('Gonçalves');
  await expect(pagerStatus(page)).toContainText('Page 1 of 1');
  await expect(pagerStatus(page)).toContainText(/\b1 row\b/);
  expect(new URL(page.url()).searchParams.get(`q.${db.column('LastName')}`)).toBe('Gonç');

  await searchForm(page).getByRole('button', { name: 'Clear', exact: true }).click();
  await settled(page);
  await expect(dataRows(page)).toHaveCount(20);
  await expect(pagerStatus(page)).toContainText('59 rows');
}

/** Sort tracks by Name: ascending, descending, then none; each time the first row is the database's own. */
export async function sortTracksByName(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
): Promise<void> {
  const name = db.column('Name');
  const id = db.column('TrackId');
  const track = db.table('Track');
  const firstBy = async (order: string) =>
    String(await valueOf(db, `select ${name} from ${track} order by ${name} ${order}, ${id} limit 1`));
  await openTable(page, server, who, db, 'Track');
  await expect(columnHeader(page, name)).toHaveAttribute('aria-sort', 'none');

  await sortButton(page, name).click();
  await settled(page);
  await expect(columnHeader(page, name)).toHaveAttribute('aria-sort', 'ascending');
  await expect(dataRows(page).first()).toContainText(await firstBy('asc'));
  expect(new URL(page.url()).searchParams.get('sort')).toBe(name);

  await sortButton(page, name).click();
  await settled(page);
  await expect(columnHeader(page, name)).toHaveAttribute('aria-sort', 'descending');
  await expect(dataRows(page).first()).toContainText(await firstBy('desc'));
  expect(new URL(page.url()).searchParams.get('sort')).toBe(`-${name}`);

  await sortButton(page, name).click();
  await settled(page);
  await expect(columnHeader(page, name)).toHaveAttribute('aria-sort', 'none');
  await expect(dataRows(page).first()).toContainText('For Those About To Rock (We Salute You)');
  expect(new URL(page.url()).searchParams.get('sort')).toBeNull();
}

/** Page tracks to the end with Last, and back with First. */
export async function pageTracksToTheEndAndBack(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
): Promise<void> {
  const lastName = String(
    await valueOf(
      db,
      `select ${db.column('Name')} from ${db.table('Track')} where ${db.column('TrackId')} = 3503`,
    ),
  );
  await openTable(page, server, who, db, 'Track');
  await expect(pagerStatus(page)).toContainText('Page 1 of 176');
  await expect(pagerStatus(page)).toContainText('3,503 rows');
  await expect(pager(page).getByRole('button', { name: 'First page' })).toBeDisabled();

  await pager(page).getByRole('button', { name: 'Last page' }).click();
  await settled(page);
  await expect(pagerStatus(page)).toContainText('Page 176 of 176');
  await expect(dataRows(page)).toHaveCount(3);
  await expect(dataRows(page).last()).toContainText(lastName);
  await expect(pager(page).getByRole('button', { name: 'Next page' })).toBeDisabled();
  await expect(pager(page).getByRole('button', { name: 'Last page' })).toBeDisabled();
  expect(new URL(page.url()).searchParams.get('page')).toBe('176');

  await pager(page).getByRole('button', { name: 'Previous page' }).click();
  await settled(page);
  await expect(pagerStatus(page)).toContainText('Page 175 of 176');
  await expect(dataRows(page)).toHaveCount(20);

  await pager(page).getByRole('button', { name: 'First page' }).click();
  await settled(page);
  await expect(pagerStatus(page)).toContainText('Page 1 of 176');
  await expect(dataRows(page).first()).toContainText('For Those About To Rock (We Salute You)');
}

/** Edit a customer's Company, save, close: the grid shows the new value, and so does the database. */
export async function editCustomerAndSave(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
): Promise<void> {
  const company = `Journey ${db.engine} Ltd`;
  await openTable(page, server, who, db, 'Customer');
  await search(page, db, { CustomerId: '7' });
  const dialog = await openRow(page, 'Astrid');
  await expect(dialog.getByText(db.entry('Customer'), { exact: true })).toBeVisible();
  // Identity and (on an existing row) foreign-key columns are read-only.
  await expect(field(dialog, db.column('CustomerId'))).not.toBeEditable();
  await expect(pendingBanner(dialog)).toBeHidden();
  await field(dialog, db.column('Company')).fill(company);
  await expect(pendingBanner(dialog)).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED)).toBeVisible();
  await expect(pendingBanner(dialog)).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await settled(page);
  await expect(dataRows(page).first()).toContainText(company);
  expect(
    await valueOf(
      db,
      `select ${db.column('Company')} from ${db.table('Customer')} where ${db.column('CustomerId')} = 7`,
    ),
  ).toBe(company);
}

/** Chooses `choice` in a foreign-key combobox after typing `term` (the choices load as one types). */
export async function chooseForeignKey(
  dialog: Locator,
  column: string,
  term: string,
  choice: string,
): Promise<void> {
  const input = field(dialog, column);
  await input.click();
  await input.fill(term);
  await dialog.page().getByRole('option', { name: choice }).first().click();
}

/** Add an album with its artist chosen in the foreign-key combobox; it is in the database and on the last page. */
export async function addAlbumWithArtist(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
): Promise<void> {
  const title = `Journey Album ${db.engine}`;
  await openTable(page, server, who, db, 'Album');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = editor(page, 'Add row');
  await expect(dialog).toBeVisible();
  await field(dialog, db.column('Title')).fill(title);
  await chooseForeignKey(dialog, db.column('ArtistId'), 'AC/D', 'AC/DC');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED)).toBeVisible();
  // A successful upsert switches the editor to editing the saved row.
  await expect(editor(page, 'Edit row')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor(page, 'Edit row')).toBeHidden();

  const saved = await db.query<Record<string, unknown>>(
    `select ${db.column('ArtistId')} as artist from ${db.table('Album')} where ${db.column('Title')} = ?`,
    [title],
  );
  expect(saved.map((row) => Number(row.artist))).toEqual([1]);
  await pager(page).getByRole('button', { name: 'Last page' }).click();
  await settled(page);
  await expect(dataRows(page).last()).toContainText(title);
}

/** Waits for the file an export downloads, in the page itself or in the tab it opens for the file. */
export function nextDownload(page: Page): Promise<Download> {
  return new Promise((resolve) => {
    page.once('download', resolve);
    page.context().once('page', (tab) => tab.once('download', resolve));
  });
}

/** Parses CSV text (RFC 4180: quoted fields with "" inside, commas and line breaks in quotes); drops a BOM. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Export the customers of one support representative to CSV and compare the file with the database. */
export async function exportCustomersToCsv(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
): Promise<void> {
  const rep = db.column('SupportRepId');
  const expected = await db.query<Record<string, unknown>>(
    `select ${db.column('CustomerId')} as id, ${db.column('FirstName')} as first, ${db.column('Email')} as email from ${db.table('Customer')} where ${rep} = 3 order by ${db.column('CustomerId')}`,
  );
  await openTable(page, server, who, db, 'Customer');
  await search(page, db, { SupportRepId: '3' });
  await expect(pagerStatus(page)).toContainText(`${expected.length} rows`);

  const download = nextDownload(page);
  await searchForm(page).getByRole('button', { name: 'Export', exact: true }).click();
  await page
    .getByRole('menuitem', { name: 'CSV', exact: true })
    .or(page.getByRole('button', { name: 'CSV', exact: true }))
    .first()
    .click();
  const file = await download;
  await expect(toast(page, bm.exportCompleted)).toBeVisible();
  const csv = parseCsv(fs.readFileSync(await file.path(), 'utf8'));
  const [header, ...rows] = csv;
  expect(header).toContain(db.column('CustomerId'));
  expect(header).toContain(db.column('Email'));
  expect(rows).toHaveLength(expected.length);
  const at = (name: string) => header!.indexOf(db.column(name));
  const byId = new Map(rows.map((row) => [Number(row[at('CustomerId')]), row]));
  for (const want of [expected[0]!, expected[expected.length - 1]!]) {
    const row = byId.get(Number(want.id));
    expect(row?.[at('FirstName')], `customer ${String(want.id)}`).toBe(want.first);
    expect(row?.[at('Email')], `customer ${String(want.id)}`).toBe(want.email);
  }
  // Only the search's rows: every one belongs to representative 3.
  expect(new Set(rows.map((row) => row[at('SupportRepId')]))).toEqual(new Set(['3']));
}
