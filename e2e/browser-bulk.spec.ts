import { expect, test, type Page } from '@playwright/test';
import { encodeWhere } from '#web/features/browser/filter/where-param.ts';
import { openAdmin } from './support/admin.ts';
import { dataRows, grid, openTable, settled, toast } from './support/chinook-browser.ts';
import { engineTitles, type ChinookDatabase, type ChinookEngine } from './support/chinook-databases.ts';
import { chinookJourney } from './support/chinook-journey.ts';
import { lookAt } from './support/look.ts';

/*
 * Bulk changes in the grid (issue 38, decision 0068 "The grid's bulk actions") on PostgreSQL, MariaDB and SQLite
 * Chinook: filter Track to its MPEG audio files (3,034 rows), select the page, then every row of the filter, Set
 * value… Composer to one name, preview, type the count, run, see it done; Undo from the toast puts the composers
 * back; the audit trail holds the change as one line.
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'postgres', name: 'bulk_pg' },
  { engine: 'mysql', name: 'bulk_maria' },
  { engine: 'sqlite', name: 'bulk_lite' },
];

const journey = chinookJourney('browser-bulk', engines, 180_000);

const COMPOSER = 'Bulk Composer';

/** Tracks of MediaTypeId 1, and those of them whose Composer is COMPOSER. */
async function counts(db: ChinookDatabase): Promise<{ all: number; set: number }> {
  const sql =
    db.engine === 'postgres'
      ? 'select count(*) as n, sum(case when composer = $1 then 1 else 0 end) as s from track where media_type_id = 1'
      : 'select count(*) as n, sum(case when Composer = ? then 1 else 0 end) as s from Track where MediaTypeId = 1';
  const [row] = await db.query<{ n: number | string; s: number | string | null }>(sql, [COMPOSER]);
  return { all: Number(row?.n), set: Number(row?.s ?? 0) };
}

const bar = (page: Page) => page.getByRole('region', { name: 'Selected rows' });

for (const { engine } of engines) {
  test(`${engineTitles[engine]}: set a value on every row of a filter, watch it run, undo it`, async ({
    page,
  }) => {
    const db = journey.db(engine);
    const before = (await counts(db)).all;
    expect(before).toBeGreaterThan(1000);
    await page.setViewportSize({ width: 1366, height: 900 });
    const where = encodeWhere({ column: db.column('MediaTypeId'), op: 'eq', value: 1 });
    await openTable(page, journey.server, journey.admin, db, 'Track', `?where=${where}`);

    // The page's rows, then every row of the filter.
    await grid(page).getByRole('checkbox', { name: 'Select the rows of this page' }).check();
    await expect(bar(page)).toContainText(/\d+ selected/);
    await expect(dataRows(page).first().getByRole('checkbox')).toBeChecked();
    const shown = before.toLocaleString('en');
    await bar(page)
      .getByRole('button', { name: `Select all ${shown} rows of this filter` })
      .click();
    await expect(bar(page)).toContainText(`All ${shown} rows of this filter selected`);

    // Set value…: Composer; the preview says how many and asks for the count.
    await bar(page).getByRole('button', { name: 'Set value…' }).click();
    const dialog = page.getByRole('dialog', { name: `Set values on ${db.entry('Track')}` });
    await dialog.getByRole('combobox', { name: 'Columns to set' }).click();
    await page.getByRole('option', { name: db.column('Composer'), exact: true }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('textbox', { name: db.column('Composer'), exact: true }).fill(COMPOSER);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByText(`This sets ${shown} rows: ${db.column('Composer')}.`)).toBeVisible();
    const run = dialog.getByRole('button', { name: `Set values on ${shown} rows` });
    await expect(run).toBeDisabled();
    await dialog.getByRole('textbox', { name: /^Type the number of rows/ }).fill(String(before));
    await expect(run).toBeEnabled();
    // The preview with its typed count: axe, and the pictures at both sizes in both schemes (once, on PostgreSQL).
    if (engine === 'postgres') await lookAt(page, 'browser-bulk-preview');
    await run.click();

    // The job runs (its panel, while it lasts) and ends with a toast and Undo; the grid reads its rows again.
    const done = toast(page, `Values set on ${shown} rows of ${db.entry('Track')}.`);
    await expect(done).toBeVisible({ timeout: 60_000 });
    // The pointer rests on the toast, as a person's would while reading it: its 20 s close waits (on a loaded machine
    // the checks below took longer than that, and Undo went with the toast before it was clicked).
    await done.hover();
    await expect(page.getByRole('region', { name: 'Bulk change' })).toBeHidden();
    expect(await counts(db)).toEqual({ all: before, set: before });
    await settled(page);
    await expect(dataRows(page).first()).toContainText(COMPOSER);
    await expect(bar(page)).toBeHidden();

    // Undo: the undo job runs and says when it has finished; the prices are back.
    await done.getByRole('button', { name: 'Undo' }).click();
    await expect(toast(page, `The bulk change was undone: ${shown} rows put back.`)).toBeVisible({
      timeout: 60_000,
    });
    expect(await counts(db)).toEqual({ all: before, set: 0 });
    await settled(page);
    await expect(dataRows(page).first()).toContainText('Angus Young');

    // The audit trail: the change is one line in words, and so is its undo.
    await openAdmin(
      page,
      journey.server,
      journey.admin,
      `/admin/audit?table=${db.tableId('Track')}&action=data.bulk`,
      'Audit',
    );
    await expect(page.getByText(/entr(y|ies), newest first/)).toHaveText('1 entry, newest first');
    await expect(
      page.getByText(
        `Set ${db.column('Composer')} = “${COMPOSER}” on ${shown} rows of ${db.table('Track')} where ${db.column('MediaTypeId')} = 1`,
      ),
    ).toBeVisible();
  });
}
