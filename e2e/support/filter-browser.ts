import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { browserMessages as bm } from '#common/messages.ts';
import type { AppServer } from './app-server.ts';
import {
  dataRows,
  grid,
  nextDownload,
  openTable,
  pagerStatus,
  parseCsv,
  searchForm,
  settled,
  toast,
} from './chinook-browser.ts';
import type { ChinookDatabase } from './chinook-databases.ts';
import { openSignedIn } from './chinook-roles.ts';
import { lookAt, screenshotsWanted } from './look.ts';

/*
 * The filter (issue 35) as a person uses it, by the accessible names of its pieces: the Filter button, the builder
 * (region "Filter rows", a group "Condition N" per condition with its Column, Operator and Value inputs, groups
 * "Group N"), the badges (indexed / scans) and the chips above the grid (list "Filter conditions"). The steps run the
 * same on every engine; e2e/browser-filters.spec.ts chooses where.
 */

export const filterButton = (page: Page) => page.getByRole('button', { name: 'Filter', exact: true });
export const builder = (page: Page) => page.getByRole('region', { name: 'Filter rows' });
export const conditionGroup = (page: Page, n: number) =>
  builder(page).getByRole('group', { name: `Condition ${n}`, exact: true });
export const chips = (page: Page) => page.getByRole('list', { name: 'Filter conditions' });
/** The condition's badge: indexed, scans, or checking while the plan is asked for. */
export const badge = (scope: Locator) => scope.getByText(/^(indexed|scans|checking)$/);

/** Chooses `option` in a Mantine select: typed into it when searchable, else picked from its list. */
export async function choose(input: Locator, option: string, typed = false): Promise<void> {
  await input.click();
  if (typed) await input.fill(option);
  await input.page().getByRole('option', { name: option, exact: true }).click();
  await expect(input).toHaveValue(option);
}

/** Sets condition `n`: its column, its operator (by the builder's words) and its values (two for between, a list for
 * in, typed Enter after each). */
export async function setCondition(
  page: Page,
  n: number,
  column: string,
  op: string,
  values: string[],
): Promise<void> {
  const condition = conditionGroup(page, n);
  await choose(condition.getByLabel('Column', { exact: true }), column, true);
  await choose(condition.getByLabel('Operator', { exact: true }), op);
  if (op === 'between') {
    await condition.getByLabel('From', { exact: true }).fill(values[0] ?? '');
    await condition.getByLabel('To', { exact: true }).fill(values[1] ?? '');
  } else if (op === 'is one of') {
    const input = condition.getByLabel('Values', { exact: true });
    for (const value of values) {
      await input.fill(value);
      await input.press('Enter');
    }
  } else if (values[0] !== undefined) {
    await condition.getByLabel('Value', { exact: true }).fill(values[0]);
  }
}

/** The first column's values of the grid's rows (the primary key, which the grid shows first). */
export async function shownKeys(page: Page): Promise<string[]> {
  await settled(page);
  return dataRows(page).evaluateAll((rows) =>
    rows.map(
      (row) =>
        (row.querySelector('td[role="gridcell"]:not([data-select])') as HTMLElement | null)?.innerText ?? '',
    ),
  );
}

/** Saves the page at a phone's and a desktop's size, light and dark, as <name>-<phone|desktop>-<light|dark>.png in
 * test-results/screenshots (FILTER_SHOTS to put them elsewhere), for a person to look at. */
export async function filterScreenshots(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  const directory = process.env.FILTER_SHOTS ?? 'test-results/screenshots';
  await mkdir(directory, { recursive: true });
  // The consent banner would cover the middle of a full-page picture.
  const reject = page.getByRole('button', { name: 'Reject', exact: true });
  if (await reject.isVisible()) await reject.click();
  const original = page.viewportSize();
  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1440, height: 900 }],
  ] as const) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(250);
      await page.screenshot({
        path: `${directory}/${name}-${size}-${scheme}.png`,
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (original) await page.setViewportSize(original);
}

/**
 * Build `(CustomerId in (1, 2) or BillingCountry = 'Canada') and Total between 5 and 10` on Invoice, see each
 * condition's badge and the scan notice, apply it: the rows and the count are the database's; open the address in a
 * fresh page: the same rows; export it to CSV: the file holds exactly those rows.
 */
export async function buildShareAndExportAFilter(
  page: Page,
  server: AppServer,
  who: Verification,
  db: ChinookDatabase,
  pictures?: string,
): Promise<void> {
  const c = db.column;
  const expected = (
    await db.query<{ id: unknown }>(
      `select ${c('InvoiceId')} as id from ${db.table('Invoice')} where (${c('CustomerId')} in (1, 2) or ${c('BillingCountry')} = 'Canada') and ${c('Total')} between 5 and 10 order by ${c('InvoiceId')}`,
    )
  ).map((row) => String(row.id));
  expect(expected.length).toBeGreaterThan(3);

  await openTable(page, server, who, db, 'Invoice');
  await filterButton(page).click();
  await expect(builder(page)).toBeVisible();
  // The builder opens on one empty condition, its column focused.
  await expect(conditionGroup(page, 1).getByLabel('Column', { exact: true })).toBeFocused();
  await setCondition(page, 1, c('Total'), 'between', ['5', '10']);
  await builder(page).getByRole('button', { name: 'Add group (OR)' }).click();
  await expect(conditionGroup(page, 2).getByLabel('Column', { exact: true })).toBeFocused();
  await setCondition(page, 2, c('CustomerId'), 'is one of', ['1', '2']);
  const group = builder(page).getByRole('group', { name: 'Group 1', exact: true });
  await group.getByRole('button', { name: 'Add condition', exact: true }).click();
  await setCondition(page, 3, c('BillingCountry'), 'equals', ['Canada']);

  // The badges, from the plan: the key column's index serves its condition, the others scan; so does the filter.
  await expect(badge(conditionGroup(page, 1))).toHaveText('scans');
  await expect(badge(conditionGroup(page, 2))).toHaveText('indexed');
  await expect(badge(conditionGroup(page, 3))).toHaveText('scans');
  await expect(builder(page).getByText('This filter scans the whole table')).toBeVisible();
  if (pictures) {
    await lookAt(page, 'browser-filter-builder');
    await filterScreenshots(page, `${pictures}-builder`);
  }

  await builder(page).getByRole('button', { name: 'Apply filter' }).click();
  await expect(builder(page)).toBeHidden();
  await expect(filterButton(page)).toBeFocused();
  await expect(chips(page).getByRole('listitem')).toHaveCount(2);
  await expect(chips(page)).toContainText(`${c('Total')} between 5 and 10`);
  await expect(chips(page)).toContainText(
    `(${c('CustomerId')} in (1, 2) or ${c('BillingCountry')} = “Canada”)`,
  );
  await expect(pagerStatus(page)).toContainText(`${expected.length} rows`);
  expect(await shownKeys(page)).toEqual(expected.slice(0, 20));
  const shared = page.url();
  expect(new URL(shared).searchParams.get('where')).toMatch(/^[A-Za-z0-9_-]+$/);
  if (pictures) await filterScreenshots(page, `${pictures}-chips`);

  // The address, opened in a fresh page of its own: the same rows, the same chips.
  const fresh = await page.context().browser()!.newPage();
  try {
    await openSignedIn(fresh, server, who, new URL(shared).pathname + new URL(shared).search);
    await settled(fresh);
    await expect(pagerStatus(fresh)).toContainText(`${expected.length} rows`);
    expect(await shownKeys(fresh)).toEqual(expected.slice(0, 20));
    await expect(chips(fresh).getByRole('listitem')).toHaveCount(2);
  } finally {
    await fresh.close();
  }

  // The export follows the filter: exactly its rows.
  const download = nextDownload(page);
  await searchForm(page).getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menuitem', { name: 'CSV', exact: true }).click();
  const file = await download;
  await expect(toast(page, bm.exportCompleted)).toBeVisible();
  const [header, ...rows] = parseCsv(fs.readFileSync(await file.path(), 'utf8'));
  const at = header!.indexOf(c('InvoiceId'));
  expect(rows.map((row) => row[at]).sort((a, b) => Number(a) - Number(b))).toEqual(expected);
  await expect(grid(page)).toBeVisible();
}
