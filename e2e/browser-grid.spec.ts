import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  dataRows,
  editor,
  field,
  grid,
  openRow,
  openTable,
  pager,
  SAVED,
  search,
  searchForm,
  settled,
  toast,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { filterButton } from './support/filter-browser.ts';
import { signInAdmin } from './support/chinook-roles.ts';
import { lookAt } from './support/look.ts';

/*
 * The grid by keyboard and the row editor's layout, defaults and foreign keys (issue 32 items 6, 7, 8, 9, 13, 14) on
 * PostgreSQL Chinook, as the administrator: one tab stop into the grid, the arrows inside it, Enter opens a row,
 * Ctrl+C copies a cell; the editor's fields grouped by kind with no line left half empty; a new row showing each
 * column's default and saving what it shows; the foreign-key dropdown listing every option with the matches first,
 * and keeping text that names none with a message; the pager's page box refusing a page out of range.
 */

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;

test.describe.configure({ timeout: 270_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  // A table with defaults of each sort: constants (a BIT NOT NULL DEFAULT 1 is a boolean DEFAULT true here), and
  // values the database works out.
  await chinook.query(`create table gadget (
    gadget_id serial primary key,
    name varchar(40) not null,
    active boolean not null default true,
    quantity integer not null default 1,
    price numeric(10,2) default 9.90,
    created timestamptz not null default now(),
    genre_id integer references genre (genre_id),
    note text)`);
  server = await startAppServer('browser-grid', databasesEnv([chinook]));
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

/** The grid cell (or header button) that has the focus: its data-cell "row:column", or null. */
const focusedCell = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-cell') ?? null);

test('the grid is one tab stop: the arrows move between cells, Enter opens the row, Ctrl+C copies a cell', async ({
  page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await openTable(page, server, admin, chinook, 'Track');
  await searchForm(page).getByRole('button', { name: 'Search', exact: true }).focus();
  // The Filter button (issue 35) sits between the spec's search form and the grid.
  await page.keyboard.press('Tab');
  await expect(filterButton(page)).toBeFocused();
  // The Columns button (issue 36, decision 0063) sits beside it.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Columns', exact: true })).toBeFocused();
  // The grid's first cell: the administrator may change rows, so column 0 is the bulk selection's checkbox.
  await page.keyboard.press('Tab');
  expect(await focusedCell(page)).toBe('1:0');
  // One Tab more leaves the grid for the pager: no copy button, no header in between.
  await page.keyboard.press('Tab');
  await expect(pager(page).getByLabel('Rows per page')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  expect(await focusedCell(page)).toBe('1:0');

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await focusedCell(page)).toBe('2:2');
  const cell = page.locator('[data-cell="2:2"]');
  // The focused cell shows its copy button; Ctrl+C copies the value.
  await expect(cell.getByRole('button', { name: /^Copy / })).toBeVisible();
  // album_id: the cell shows the album's title and its key dimmed after it (decision 0067); Ctrl+C copies the key.
  const value = (await cell.locator('[data-fk-link] span').last().innerText()).trim();
  await page.keyboard.press('Control+c');
  await expect(toast(page, /copied\.$/)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  await lookAt(page, 'browser-grid-keys');

  await page.keyboard.press('End');
  expect(await focusedCell(page)).toBe('2:8');
  // Home: the checkbox; the first data cell is one step right.
  await page.keyboard.press('Home');
  expect(await focusedCell(page)).toBe('2:0');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const dialog = editor(page, 'Edit row');
  await expect(dialog).toBeVisible();
  await expect(field(dialog, chinook.column('TrackId'))).toHaveValue('2');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The focus comes back to the cell that opened the row.
  await expect.poll(() => focusedCell(page)).toBe('2:1');

  // The header row is in the grid too: Enter on a header sorts.
  await page.keyboard.press('Control+Home');
  expect(await focusedCell(page)).toBe('0:0');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await settled(page);
  await expect(grid(page).getByRole('columnheader').nth(2)).toHaveAttribute('aria-sort', 'ascending');
});

/** The layout of one block of the editor: each field's box. */
async function fieldBoxes(section: Locator) {
  return section.locator('.mantine-Grid-col').evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { top: Math.round(box.top), left: box.left, right: box.right };
    }),
  );
}

test('the row editor groups its fields by kind, and every line of fields is full', async ({ page }) => {
  await openTable(page, server, admin, chinook, 'Employee');
  await search(page, chinook, { EmployeeId: '2' });
  const dialog = await openRow(page, 'Nancy');
  const order = await dialog
    .locator('[data-column]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-column')));
  // reports_to (a combobox), employee_id (a number), then the text (dates are text showing a formatted date).
  expect(order.slice(0, 3)).toEqual(['reports_to', 'employee_id', 'last_name']);
  expect(order.indexOf('birth_date')).toBeGreaterThan(order.indexOf('title'));
  expect(order.indexOf('email')).toBe(order.length - 1);

  // No line ends in an empty stretch: the last field of each line reaches the block's right edge.
  for (const width of [1366, 900]) {
    await page.setViewportSize({ width, height: 900 });
    const boxes = await fieldBoxes(dialog.locator('[data-section="inputs"]'));
    const lines = new Map<number, number>();
    for (const box of boxes) lines.set(box.top, Math.max(lines.get(box.top) ?? 0, box.right));
    const edge = Math.max(...lines.values());
    expect(lines.size, `lines at ${width} px`).toBeGreaterThan(1);
    for (const [top, right] of lines) expect(edge - right, `line at ${top} (${width} px)`).toBeLessThan(2);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await lookAt(page, 'browser-editor-grouped');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a new row shows each column's default and saves what it shows", async ({ page }) => {
  await openTable(page, server, admin, chinook, 'Gadget');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = editor(page, 'Add row');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'active' })).toBeChecked();
  await expect(field(dialog, 'quantity')).toHaveValue('1');
  await expect(field(dialog, 'price')).toHaveValue('9.90');
  await expect(field(dialog, 'gadget_id')).toHaveAttribute('placeholder', 'Set by the database');
  // A date-time picker is a button showing its placeholder.
  await expect(dialog.getByRole('button', { name: 'created', exact: true })).toHaveText(
    'Set by the database',
  );
  await lookAt(page, 'browser-editor-add');
  await field(dialog, 'name').fill('Sprocket');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED)).toBeVisible();
  await expect(editor(page, 'Edit row')).toBeVisible();
  const [saved] = await chinook.query<Record<string, unknown>>(
    "select active, quantity, price, created from gadget where name = 'Sprocket'",
  );
  expect(saved).toMatchObject({ active: true, quantity: 1, price: '9.90' });
  expect(saved?.created).not.toBeNull();
  await page.keyboard.press('Escape');
});

test('the foreign-key dropdown lists every option, matches first; text naming none stays with a message', async ({
  page,
}) => {
  await openTable(page, server, admin, chinook, 'Gadget');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = editor(page, 'Add row');
  await field(dialog, 'name').fill('Widget');
  const genre = field(dialog, 'genre_id');
  await genre.click();
  await genre.fill('Ro');
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toContainText('Rock');
  await expect(options.nth(1)).toContainText('Rock And Roll');
  // Then every other genre, under their own heading.
  await expect(page.getByText('Other options')).toBeVisible();
  await expect(options.nth(2)).toContainText('Jazz');
  await lookAt(page, 'browser-editor-options');

  await genre.fill('Polka');
  await page.keyboard.press('Tab');
  await expect(
    dialog.getByText('“Polka” is not one of the options: choose one from the list.'),
  ).toBeVisible();
  await expect(genre).toHaveValue('Polka');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(genre).toBeFocused();
  expect(await chinook.query("select 1 from gadget where name = 'Widget'")).toHaveLength(0);

  // The exact name of an option (in any case) chooses it when the field is left.
  await genre.fill('jazz');
  await expect(page.getByRole('listbox').getByRole('option', { name: /^Jazz/ })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(genre).toHaveValue('Jazz');
  await expect(dialog.getByText(/is not one of the options/)).toBeHidden();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED)).toBeVisible();
  const [saved] = await chinook.query<{ genre_id: number }>(
    "select genre_id from gadget where name = 'Widget'",
  );
  expect(saved?.genre_id).toBe(2);
  await page.keyboard.press('Escape');
});

test('the page box refuses a page out of range: it says the range and shows the page again', async ({
  page,
}) => {
  await openTable(page, server, admin, chinook, 'Track');
  const box = pager(page).getByRole('textbox', { name: 'Page' });
  await box.fill('99999');
  await box.press('Enter');
  const message = page.getByRole('alert').filter({ hasText: 'Enter a page from 1 to 176.' });
  await expect(message).toBeVisible();
  await expect(message).toBeInViewport();
  await expect(box).toHaveValue('1');
  await expect(dataRows(page).first()).toContainText('For Those About To Rock');
  await lookAt(page, 'browser-pager-range');
});
