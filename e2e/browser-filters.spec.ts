import { expect, test, type Locator, type Page } from '@playwright/test';
import { dataRows, openTable, pagerStatus, settled } from './support/chinook-browser.ts';
import { engineTitles, type ChinookEngine } from './support/chinook-databases.ts';
import { openSignedIn } from './support/chinook-roles.ts';
import {
  badge,
  buildShareAndExportAFilter,
  builder,
  chips,
  conditionGroup,
  filterButton,
} from './support/filter-browser.ts';
import { chinookJourney } from './support/chinook-journey.ts';
import { lookAt } from './support/look.ts';

/*
 * Filters (issue 35) on PostgreSQL, MariaDB and SQLite Chinook, one server for the three: build a filter with OR and a
 * range, see the indexed / scans badges, apply it, open its address in a fresh page and get the same rows, export it
 * and compare the file with the rows; an address whose filter does not read; and the whole thing by the keyboard.
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'postgres', name: 'chinook_pg' },
  { engine: 'mysql', name: 'chinook_maria' },
  { engine: 'sqlite', name: 'chinook_lite' },
];

const journey = chinookJourney('browser-filters', engines, 270_000);

for (const { engine } of engines) {
  test(`${engineTitles[engine]}: build a filter with OR and a range, see the badges, share it, export it`, async ({
    page,
  }) => {
    await buildShareAndExportAFilter(
      page,
      journey.server,
      journey.admin,
      journey.db(engine),
      engine === 'postgres' ? 'filters' : undefined,
    );
    if (engine === 'postgres') await lookAt(page, 'browser-filter-chips');
  });
}

test('an address whose filter does not read says so and shows every row', async ({ page }) => {
  const db = journey.db('sqlite');
  await openTable(page, journey.server, journey.admin, db, 'Invoice', '?where=not-a-filter!');
  await expect(
    page.getByRole('alert').filter({ hasText: 'The filter in this address could not be read' }),
  ).toBeVisible();
  await expect(pagerStatus(page)).toContainText('412 rows');
  await expect(chips(page)).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('where')).toBeNull();
  await expect(dataRows(page)).toHaveCount(20);
  await expect(filterButton(page)).toBeVisible();
});

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus: how a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, back = false): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** Replaces the text of the focused input by typing. */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

test('keyboard only: add, edit and remove a condition', async ({ page }) => {
  const db = journey.db('sqlite');
  const c = db.column;
  const rowsWhere = async (sql: string) =>
    Number(
      Object.values((await db.query(`select count(*) as n from ${db.table('Invoice')} where ${sql}`))[0]!)[0],
    );
  const brazil = `${c('BillingCountry')} = 'Brazil'`;
  const canada = `${c('BillingCountry')} = 'Canada'`;
  const atLeast10 = `${c('Total')} >= 10`;
  await openSignedIn(page, journey.server, journey.admin, db.path('Invoice'));
  await settled(page);

  // Add: Tab to Filter, Enter opens the builder on an empty condition, its column focused.
  await tabTo(page, filterButton(page));
  await page.keyboard.press('Enter');
  const first = conditionGroup(page, 1);
  await expect(first.getByLabel('Column', { exact: true })).toBeFocused();
  await page.keyboard.type(c('BillingCountry'));
  await page.keyboard.press('Enter');
  await expect(first.getByLabel('Column', { exact: true })).toHaveValue(c('BillingCountry'));
  await page.keyboard.press('Tab');
  await expect(first.getByLabel('Operator', { exact: true })).toBeFocused();
  await expect(first.getByLabel('Operator', { exact: true })).toHaveValue('equals');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Brazil');
  await page.keyboard.press('Enter');
  await expect(builder(page)).toBeHidden();
  await expect(chips(page).getByRole('listitem')).toHaveCount(1);
  await expect(pagerStatus(page)).toContainText(`${await rowsWhere(brazil)} rows`);
  await expect(filterButton(page)).toBeFocused();

  // Edit: the chip opens the builder on its condition; a new value, Enter.
  await page.keyboard.press('Tab');
  await expect(chips(page).getByRole('button', { name: /^Edit filter/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(first.getByLabel('Column', { exact: true })).toBeFocused();
  await tabTo(page, first.getByLabel('Value', { exact: true }));
  await retype(page, 'Canada');
  // Another condition: Add condition, then Total at least 10.
  await tabTo(page, builder(page).getByRole('button', { name: 'Add condition', exact: true }));
  await page.keyboard.press('Enter');
  const second = conditionGroup(page, 2);
  await expect(second.getByLabel('Column', { exact: true })).toBeFocused();
  await page.keyboard.type(c('Total'));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await retype(page, 'at least');
  await page.keyboard.press('Enter');
  await expect(second.getByLabel('Operator', { exact: true })).toHaveValue('at least');
  await page.keyboard.press('Tab');
  await page.keyboard.type('10');
  await expect(badge(second)).toHaveText('scans');
  await page.keyboard.press('Enter');
  await expect(builder(page)).toBeHidden();
  await expect(chips(page).getByRole('listitem')).toHaveCount(2);
  await expect(pagerStatus(page)).toContainText(`${await rowsWhere(`${canada} and ${atLeast10}`)} rows`);

  // Remove, in the builder: Remove condition 1, then Apply.
  await page.keyboard.press('Enter');
  await expect(first.getByLabel('Column', { exact: true })).toBeFocused();
  await tabTo(page, builder(page).getByRole('button', { name: 'Remove condition 1', exact: true }));
  await page.keyboard.press('Enter');
  // The focus goes to the condition that took its place.
  await expect(conditionGroup(page, 1).getByLabel('Column', { exact: true })).toBeFocused();
  await expect(conditionGroup(page, 1).getByLabel('Column', { exact: true })).toHaveValue(c('Total'));
  await tabTo(page, builder(page).getByRole('button', { name: 'Apply filter', exact: true }));
  await page.keyboard.press('Enter');
  await expect(chips(page).getByRole('listitem')).toHaveCount(1);
  await expect(pagerStatus(page)).toContainText(`${await rowsWhere(atLeast10)} rows`);

  // Remove, by the chip's x: every row again, the focus back on Filter.
  await tabTo(page, chips(page).getByRole('button', { name: /^Remove filter/ }));
  await page.keyboard.press('Enter');
  await expect(chips(page)).toHaveCount(0);
  await expect(pagerStatus(page)).toContainText('412 rows');
  await expect(filterButton(page)).toBeFocused();
  expect(new URL(page.url()).searchParams.get('where')).toBeNull();
});
