import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  dataRows,
  field,
  grid,
  nextDownload,
  openRow,
  openTable,
  SAVED,
  toast,
  valueOf,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { signInAdmin } from './support/chinook-roles.ts';
import { lookAt } from './support/look.ts';

/*
 * Long and rich values in the grid (issue 36, docs/decisions/0064-rich-values.md) on PostgreSQL, as the
 * administrator, in a table of the journey's own beside Chinook: a long text cut in its cell and whole in the side
 * panel (read again by the row's key), a jsonb value on one line in its cell and as a tree that opens and closes in
 * the panel, a bytea value as its size with a download of its very bytes, and dates as their columns store them (a
 * timestamptz with the viewer's offset, a timestamp and a date without one).
 */

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;

const NOTE_END = 'THE END OF THE NOTE';
const NOTE = `${'A long note. '.repeat(200)}${NOTE_END}`;
/** 3,000 bytes: DE AD BE EF, 750 times. */
const BYTES = Buffer.from('deadbeef'.repeat(750), 'hex');
/** A note longer than the grid's pages carry (GRID_CUT_TEXT, decision 0066), and 100 KB of bytes: held cut. */
const LONG_END = 'THE END OF THE LONG NOTE';
const LONG_NOTE = `${'A very long note. '.repeat(1200)}${LONG_END}`;
const LONG_BYTES = Buffer.alloc(100 * 1024, 0xab);

test.describe.configure({ timeout: 240_000 });
// The viewer's zone: the timestamptz below (12:05 UTC) shows as 13:05 +01:00 in Paris in November.
test.use({ timezoneId: 'Europe/Paris' });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  await chinook.query(`create table specimen (
    specimen_id serial primary key,
    label varchar(40) not null,
    note text,
    doc jsonb,
    data bytea,
    taken timestamptz,
    day date,
    logged timestamp)`);
  await chinook.query(
    `insert into specimen (label, note, doc, data, taken, day, logged)
     values ($1, $2, $3::jsonb, $4, '2026-11-24 12:05:00+00', '2026-11-24', '2026-11-24 09:30:00')`,
    [
      'First',
      NOTE,
      '{"name": "Ada", "tags": ["x", "y"], "nested": {"deep": {"x": 1}}, "big": 12345678901234567890}',
      BYTES,
    ],
  );
  await chinook.query(`insert into specimen (label, note, data) values ($1, $2, $3)`, [
    'Second',
    LONG_NOTE,
    LONG_BYTES,
  ]);
  server = await startAppServer('browser-values', databasesEnv([chinook]));
  admin = await signInAdmin(server);
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

/** The grid cell of a column in a row (the first unless told). */
async function cellOf(page: Page, column: string, row = 0): Promise<Locator> {
  const headers = await grid(page).getByRole('columnheader').allInnerTexts();
  const index = headers.findIndex((text) => text.trim() === column);
  expect(index, `column ${column} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return dataRows(page).nth(row).locator('td').nth(index);
}

/** Opens a cell's value in the side panel by its "Show whole value" button. */
async function showWhole(page: Page, column: string, row = 0): Promise<Locator> {
  const cell = await cellOf(page, column, row);
  await cell.hover();
  await cell.getByRole('button', { name: `Show whole value of ${column}` }).click();
  const panel = page.getByRole('dialog', { name: column });
  await expect(panel).toBeVisible();
  return panel;
}

test('long text, JSON, binary and dates: cut or short in the grid, whole in the side panel', async ({
  page,
}) => {
  await openTable(page, server, admin, chinook, 'specimen');

  // Dates as their columns store them.
  await expect(await cellOf(page, 'taken')).toHaveText('2026-11-24 13:05 +01:00');
  await expect(await cellOf(page, 'day')).toHaveText('2026-11-24');
  await expect(await cellOf(page, 'logged')).toHaveText('2026-11-24 09:30');
  // JSON on one line (its numbers as written), binary as its size, long text cut.
  await expect(await cellOf(page, 'doc')).toContainText(
    '{"big":12345678901234567890,"name":"Ada","tags":["x","y"],"nested":{"deep":{"x":1}}}',
  );
  await expect(await cellOf(page, 'data')).toHaveText('2.9 KB binary');
  const noteCell = await cellOf(page, 'note');
  expect((await noteCell.innerText()).length).toBeLessThan(NOTE.length);
  // A short value offers no panel.
  await (await cellOf(page, 'label')).hover();
  await expect((await cellOf(page, 'label')).getByRole('button', { name: /^Show whole value/ })).toHaveCount(
    0,
  );

  // The long text, whole, with its length; the row editor stays closed.
  let panel = await showWhole(page, 'note');
  await expect(panel.getByText(NOTE_END, { exact: false })).toBeVisible();
  await expect(panel.getByText(`text · ${NOTE.length.toLocaleString('en-US')} characters`)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Edit row' })).toHaveCount(0);
  await lookAt(page, 'browser-values-text');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // JSON as a tree: two levels open, the third closed; open, close, all.
  panel = await showWhole(page, 'doc');
  const deep = panel.getByRole('button', { name: /^"deep":\s*\{/ });
  await expect(deep).toHaveAttribute('aria-expanded', 'false');
  await deep.focus();
  await page.keyboard.press('Enter');
  await expect(deep).toHaveAttribute('aria-expanded', 'true');
  await expect(panel.getByText('"x":', { exact: false })).toBeVisible();
  await expect(panel.getByText('12345678901234567890', { exact: true })).toBeVisible();
  const root = panel.getByRole('button', { name: /^\{/ });
  await root.click();
  await expect(root).toHaveAttribute('aria-expanded', 'false');
  await expect(root).toContainText('4 keys');
  await panel.getByRole('button', { name: 'Expand all' }).click();
  await expect(panel.getByRole('button', { expanded: false })).toHaveCount(0);
  await lookAt(page, 'browser-values-json');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Binary: its size and a download of its very bytes, named <table>-<key>-<column>.bin.
  panel = await showWhole(page, 'data');
  await expect(panel.getByText('bytea · 2.9 KB')).toBeVisible();
  await expect(panel.getByText('00000000  DE AD BE EF', { exact: false })).toBeVisible();
  const downloading = nextDownload(page);
  await panel.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('specimen-1-data.bin');
  const path = await download.path();
  expect(Buffer.compare(await readFile(path), BYTES)).toBe(0);
  await lookAt(page, 'browser-values-binary');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // By keyboard: Shift+Enter on a cell opens its value; Escape gives the focus back to the cell.
  const cell = await cellOf(page, 'note');
  await cell.focus();
  await page.keyboard.press('Shift+Enter');
  panel = page.getByRole('dialog', { name: 'note' });
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(cell).toBeFocused();
});

test('a value the page holds cut: its size in the cell, whole in the panel, the copy and the editor', async ({
  page,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await openTable(page, server, admin, chinook, 'specimen');

  // The page carries the note cut (its start and whole size) and the bytes as their whole size.
  const noteCell = await cellOf(page, 'note', 1);
  await expect(noteCell).toContainText(`${Math.round(LONG_NOTE.length / 1000)}K chars`);
  await expect(await cellOf(page, 'data', 1)).toHaveText('100.0 KB binary');
  await lookAt(page, 'browser-values-cut-grid');

  // The panel reads the row whole by its key: the end of the note, its whole length, and no "changed".
  let panel = await showWhole(page, 'note', 1);
  await expect(panel.getByText(LONG_END, { exact: false })).toBeVisible();
  await expect(
    panel.getByText(`text · ${LONG_NOTE.length.toLocaleString('en-US')} characters`),
  ).toBeVisible();
  await expect(panel.getByText('This value changed', { exact: false })).toHaveCount(0);
  await lookAt(page, 'browser-values-cut');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  panel = await showWhole(page, 'data', 1);
  await expect(panel.getByText('bytea · 100.0 KB')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // The copy button copies the whole note, read again first.
  await noteCell.hover();
  await noteCell.getByRole('button', { name: 'Copy note' }).click();
  await expect(toast(page, 'note copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(LONG_NOTE);

  // The editor opens on the whole row; a save of another field keeps the note and the bytes whole.
  const dialog = await openRow(page, 'Second');
  await expect(field(dialog, 'note')).toHaveValue(LONG_NOTE);
  await field(dialog, 'label').fill('Second, saved');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, SAVED).first()).toBeVisible();
  expect(await valueOf(chinook, `select label from specimen where label like 'Second%'`)).toBe(
    'Second, saved',
  );
  expect(await valueOf(chinook, `select length(note) from specimen where label = 'Second, saved'`)).toBe(
    LONG_NOTE.length,
  );
  expect(await valueOf(chinook, `select length(data) from specimen where label = 'Second, saved'`)).toBe(
    LONG_BYTES.length,
  );
});
