import { expect, test, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  columnHeader,
  dataHeaders,
  grid,
  openTable,
  settled,
  sortButton,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { signInAdmin } from './support/chinook-roles.ts';
import { lookAt, screenshotsWanted } from './support/look.ts';

/*
 * The grid's columns (issue 36, decision 0063) on PostgreSQL Chinook, as the administrator: Employee has 15 columns,
 * the grid shows 8 by default (indexed first). The Columns chooser shows a hidden column, moves it first (by keyboard,
 * then by drag); its header's resize handle widens it by keyboard; it sorts; the address carries cols= and a reload
 * keeps it; Reset to default goes back to the spec's 8. A wide layout with a pinned column, scrolled sideways, is looked at too. A table of 40
 * columns, all shown, renders only those in sight: scrolling sideways and the keyboard bring the others.
 */

/** The wide table's text columns after its key: 40 in all, past the grid's window (24). */
const WIDE_NAMES = Array.from({ length: 39 }, (_, index) => `w${String(index + 1).padStart(2, '0')}`);

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;

test.describe.configure({ timeout: 270_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  // A table of the journey's own, wider than the grid renders at once (grid/column-window.ts).
  const wideColumns = WIDE_NAMES.map((name) => `${name} text`).join(', ');
  await chinook.query(`create table wide_specimen (wide_id integer primary key, ${wideColumns})`);
  await chinook.query(
    `insert into wide_specimen select n, ${WIDE_NAMES.map((name) => `'${name}-' || n`).join(', ')}
     from generate_series(1, 60) as n`,
  );
  server = await startAppServer('browser-columns', databasesEnv([chinook]));
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

const columnsButton = (page: Page) => page.getByRole('button', { name: 'Columns', exact: true });
const chooser = (page: Page) => page.getByRole('dialog', { name: 'Columns' });
const headers = (page: Page) =>
  dataHeaders(page).evaluateAll((nodes) => nodes.map((node) => node.textContent?.trim() ?? ''));
const colsParam = (page: Page) => new URL(page.url()).searchParams.get('cols');

test('choose, move, widen, sort and reset a column; the address keeps the layout', async ({ page }) => {
  const c = chinook.column;
  const email = c('Email');
  await openTable(page, server, admin, chinook, 'Employee');
  expect(await headers(page)).toHaveLength(8);
  expect(await headers(page)).not.toContain(email);
  expect(colsParam(page)).toBeNull();

  // Show the hidden Email column, found with the chooser's search box.
  await columnsButton(page).click();
  const dialog = chooser(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Find a column' })).toBeFocused();
  await page.keyboard.type('mail');
  await expect(dialog.getByRole('checkbox')).toHaveCount(1);
  await dialog.getByRole('checkbox', { name: `Show ${email}` }).check();
  await settled(page);
  await expect(columnHeader(page, email)).toBeVisible();
  expect((await headers(page)).at(-1)).toBe(email);
  expect(colsParam(page)).toContain(email);

  // Move it first with Move up, from the keyboard.
  await dialog.getByRole('textbox', { name: 'Find a column' }).fill('');
  const up = dialog.getByRole('button', { name: `Move ${email} up` });
  await up.focus();
  for (let i = 0; i < 8; i++) await page.keyboard.press('Enter');
  await expect(up).toBeDisabled();
  // The focus stays in the chooser, on the column's other move button.
  await expect(dialog.getByRole('button', { name: `Move ${email} down` })).toBeFocused();
  await expect.poll(async () => (await headers(page))[0]).toBe(email);
  expect(colsParam(page)?.split(',')[0]).toBe(email);
  // By drag: the second column's row dropped on the first's takes its place; Email dragged back the same way.
  const item = (name: string) =>
    dialog.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: `Show ${name}` }) });
  const second = (await headers(page))[1] ?? '';
  await item(second).dragTo(item(email));
  await expect.poll(async () => (await headers(page))[0]).toBe(second);
  await item(email).dragTo(item(second));
  await expect.poll(async () => (await headers(page))[0]).toBe(email);
  await lookAt(page, 'browser-columns-chooser');
  // lookAt's sizes can push the button out of view, and the popover hides while its button is (Mantine's
  // hideDetached), which drops the focus: a person's focus would still be where it was.
  await dialog.getByRole('button', { name: `Move ${email} down` }).focus();

  // Close the chooser; widen the column by keyboard from its header's resize handle (one Tab after the header).
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await sortButton(page, email).focus();
  await page.keyboard.press('Tab');
  const handle = grid(page).getByRole('separator', { name: `Resize ${email}` });
  await expect(handle).toBeFocused();
  const before = Number(await handle.getAttribute('aria-valuenow'));
  expect(before).toBeGreaterThan(0);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', String(before + 48));
  expect(colsParam(page)?.split(',')[0]).toBe(`${email}:${before + 48}`);
  const box = await columnHeader(page, email).boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(before + 48);

  // Sort by it: the header's button, back one Tab.
  await page.keyboard.press('Shift+Tab');
  await expect(sortButton(page, email)).toBeFocused();
  await page.keyboard.press('Enter');
  await settled(page);
  await expect(columnHeader(page, email)).toHaveAttribute('aria-sort', 'ascending');
  expect(new URL(page.url()).searchParams.get('sort')).toBe(email);
  // Column 0 is the bulk selection's checkbox (the administrator may change rows): the first data column is 1.
  const firstEmail = await grid(page).locator('[data-cell="1:1"]').innerText();
  expect(firstEmail.trim()).toBe('andrew@chinookcorp.com');

  // A reload keeps the layout and the sort.
  const layout = colsParam(page);
  await page.reload();
  await settled(page);
  expect(colsParam(page)).toBe(layout);
  await expect.poll(async () => (await headers(page))[0]).toBe(email);
  await expect(columnHeader(page, email)).toHaveAttribute('aria-sort', 'ascending');

  // Reset to default: the spec's 8 columns, cols= gone, the sort kept.
  await columnsButton(page).click();
  await chooser(page).getByRole('button', { name: 'Reset to default' }).click();
  await settled(page);
  await expect.poll(() => colsParam(page)).toBeNull();
  expect(await headers(page)).toHaveLength(8);
  expect(await headers(page)).not.toContain(email);
});

test('a wide layout with a pinned key column scrolls sideways under it', async ({ page }) => {
  const c = chinook.column;
  const names = [
    'LastName',
    'FirstName',
    'Title',
    'ReportsTo',
    'BirthDate',
    'HireDate',
    'Address',
    'City',
    'State',
    'Country',
    'PostalCode',
    'Phone',
    'Fax',
    'Email',
  ].map((name) => `${c(name)}:180`);
  const cols = [`${c('EmployeeId')}:pin`, ...names].join(',');
  await openTable(page, server, admin, chinook, 'Employee', `?cols=${encodeURIComponent(cols)}`);
  expect(await headers(page)).toHaveLength(15);
  const key = columnHeader(page, c('EmployeeId'));
  const keyBox = await key.boundingBox();
  // Scroll the grid sideways: the pinned header and cells stay where they were.
  const scrollSideways = () =>
    grid(page).evaluate((table) => {
      let scroller: HTMLElement | null = table.parentElement;
      while (scroller && scroller.scrollWidth <= scroller.clientWidth) scroller = scroller.parentElement;
      if (scroller) scroller.scrollLeft = 600;
    });
  await scrollSideways();
  await expect.poll(async () => (await key.boundingBox())?.x).toBe(keyBox?.x);
  const cell = grid(page).locator('[data-cell="1:1"]');
  await expect(cell).toHaveCSS('position', 'sticky');
  await expect.poll(async () => (await cell.boundingBox())?.x).toBe(keyBox?.x);
  await lookAt(page, 'browser-columns-pinned');
  // lookAt's pictures show the grid unscrolled (a new size resets it): these show it scrolled.
  if (screenshotsWanted) {
    for (const [size, width] of [
      ['phone', 375],
      ['desktop', 1366],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await columnHeader(page, c('Title')).evaluate((header) => header.scrollIntoView({ block: 'center' }));
        await scrollSideways();
        await page.waitForTimeout(250);
        await page.screenshot({
          path: `test-results/screenshots/browser-columns-scrolled-${size}-${scheme}.png`,
        });
      }
    }
  }
});

test('a grid of 40 columns renders those in sight; scrolling and the keyboard reach the last', async ({
  page,
}) => {
  const cols = ['wide_id:pin', ...WIDE_NAMES].join(',');
  await openTable(
    page,
    server,
    admin,
    chinook,
    'wide_specimen',
    `?size=100&cols=${encodeURIComponent(cols)}`,
  );
  // 40 data columns and the bulk selection's checkbox column, which comes first.
  await expect(grid(page)).toHaveAttribute('aria-colcount', '41');
  // Its rows too: the page has 60, the grid (bounded in height on a desktop) renders those in sight.
  await expect(grid(page)).toHaveAttribute('aria-rowcount', '61');
  expect(await grid(page).locator('tbody tr[data-row]').count()).toBeLessThan(60);
  const rendered = (await headers(page)).length;
  expect(rendered).toBeLessThan(40);
  expect(await headers(page)).toContain('w01');
  expect(await headers(page)).not.toContain('w39');

  // The keyboard: End goes to the row's last column, rendered and scrolled into view for it; Home comes back.
  await grid(page).locator('[data-cell="1:2"]').focus();
  await page.keyboard.press('End');
  const last = grid(page).locator('[data-cell="1:40"]');
  await expect(last).toBeFocused();
  await expect(last).toHaveAttribute('aria-colindex', '41');
  await expect(last).toHaveText('w39-1');
  await expect(last).toBeInViewport();
  await expect(columnHeader(page, 'w39')).toBeInViewport();
  // The pinned key stays rendered and in place.
  await expect(columnHeader(page, 'wide_id')).toBeInViewport();
  await lookAt(page, 'browser-columns-wide-end');
  // Home: the row's first cell, its checkbox.
  await page.keyboard.press('Home');
  await expect(grid(page).locator('[data-cell="1:0"]')).toBeFocused();
  // Control+End: the last row's last cell, rendered for it.
  await page.keyboard.press('Control+End');
  const corner = grid(page).locator('[data-cell="60:40"]');
  await expect(corner).toBeFocused();
  await expect(corner).toHaveText('w39-60');
  await expect(corner).toBeInViewport();
  await page.keyboard.press('Control+Home');
  await expect(grid(page).getByRole('checkbox', { name: 'Select the rows of this page' })).toBeFocused();

  // Scrolling sideways by hand brings the far columns in.
  await grid(page).evaluate((table) => {
    let scroller: HTMLElement | null = table.parentElement;
    while (scroller && scroller.scrollWidth <= scroller.clientWidth) scroller = scroller.parentElement;
    if (scroller) scroller.scrollLeft = scroller.scrollWidth;
  });
  await expect(columnHeader(page, 'w39')).toBeVisible();
  expect((await headers(page)).length).toBeLessThan(40);
});
