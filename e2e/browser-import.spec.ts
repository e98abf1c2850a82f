import { expect, test, type Locator, type Page } from '@playwright/test';
import { showAuditEntry } from './support/admin.ts';
import { openTable } from './support/chinook-browser.ts';
import { engineTitles, type ChinookDatabase, type ChinookEngine } from './support/chinook-databases.ts';
import { chinookJourney } from './support/chinook-journey.ts';
import { lookAt, screenshotsWanted } from './support/look.ts';

/*
 * Import into a table (issue 39, decision 0069 "The import page") on PostgreSQL and MariaDB Chinook: Import… on
 * Genre, upload a CSV of six genres whose Name is too long in three rows, read the dry run's report (those three rows
 * named), map the file's Label column to Name instead, dry-run again (six rows, none failing), run it (six rows
 * written), find it as one line of the audit trail and undo it (the six rows gone again).
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'postgres', name: 'import_pg' },
  { engine: 'mysql', name: 'import_maria' },
];

const journey = chinookJourney('browser-import', engines, 150_000);

const TOO_LONG = 'x'.repeat(130);
const BAD_ROWS = [2, 4, 6];

/** The file: Name (too long in rows 2, 4 and 6) and Label (a good name in every row). */
function csvFor(db: ChinookDatabase): string {
  const lines = [`${db.column('Name')},Label`];
  for (let row = 1; row <= 6; row++)
    lines.push(`${BAD_ROWS.includes(row) ? TOO_LONG : `Imported ${row}`},Import genre ${row}`);
  return `${lines.join('\n')}\n`;
}

async function genres(db: ChinookDatabase): Promise<number> {
  const [row] = await db.query<{ n: number | string }>(`select count(*) as n from ${db.table('Genre')}`);
  return Number(row?.n);
}

const importDialog = (page: Page, db: ChinookDatabase) =>
  page.getByRole('dialog', { name: `Import into ${db.entry('Genre')}` });

/** The select that maps a file column. */
const mappingOf = (dialog: Locator, column: string) =>
  dialog.getByRole('combobox', { name: `Import file column ${column} into` });

/**
 * lookAt's pictures show the full-screen dialog only as tall as the window: these show all of it, the window made as
 * tall as its content, at both widths in both schemes.
 */
async function lookAtWholeDialog(page: Page, dialog: Locator, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  const original = page.viewportSize();
  for (const [size, width] of [
    ['phone', 375],
    ['desktop', 1366],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    const height = await dialog.evaluate((element) => {
      const body = element.querySelector('.mantine-Modal-body');
      return (body?.scrollHeight ?? element.scrollHeight) + 80;
    });
    await page.setViewportSize({ width, height: Math.min(4000, Math.max(900, height)) });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(250);
      await page.screenshot({ path: `test-results/screenshots/${name}-whole-${size}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (original) await page.setViewportSize(original);
}

for (const { engine } of engines) {
  test(`${engineTitles[engine]}: upload a CSV, read the dry run's failures, fix the mapping, dry-run again, run, undo it from the audit trail`, async ({
    page,
  }) => {
    // The pictures (not in CI) take longer than the journey on a loaded machine.
    if (screenshotsWanted) test.slow();
    const db = journey.db(engine);
    const before = await genres(db);
    await page.setViewportSize({ width: 1366, height: 900 });
    await openTable(page, journey.server, journey.admin, db, 'Genre');

    // Import… beside Add on the card (administrator: CanInsert everywhere).
    if (engine === 'postgres') await lookAt(page, 'browser-import-button');
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = importDialog(page, db);
    await expect(dialog).toBeVisible();
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'genres.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csvFor(db)),
    });

    // The preview: how the file was read, its rows, the mapping proposed by name.
    await expect(dialog.getByText('genres.csv · read as CSV, comma, with a header, UTF-8')).toBeVisible();
    await expect(dialog.getByRole('table', { name: 'The first 6 rows of the file' })).toBeVisible();
    await expect(mappingOf(dialog, db.column('Name'))).toHaveValue(db.column('Name'));
    await expect(mappingOf(dialog, 'Label')).toHaveValue('');
    if (engine === 'postgres') await lookAt(page, 'browser-import-mapping');

    // The dry run names the three rows.
    await dialog.getByRole('button', { name: 'Dry run', exact: true }).click();
    const failures = dialog.getByRole('table', { name: 'Rows that fail' });
    await expect(failures).toBeVisible({ timeout: 30_000 });
    await expect(dialog.getByText('The 3 rows that fail:')).toBeVisible();
    for (const row of BAD_ROWS)
      await expect(
        failures.getByRole('row').filter({ hasText: new RegExp(`^${row}${db.column('Name')}`) }),
      ).toHaveCount(1);
    await expect(dialog.getByRole('button', { name: 'Download the full report (CSV)' })).toBeVisible();
    if (engine === 'postgres') {
      await lookAt(page, 'browser-import-dry-run');
      await lookAtWholeDialog(page, dialog, 'browser-import-dry-run');
    }

    // The mapping changed: Label into Name, the file's Name skipped; the dry run again fails no row.
    await mappingOf(dialog, db.column('Name')).selectOption('');
    await mappingOf(dialog, 'Label').selectOption(db.column('Name'));
    await dialog.getByRole('button', { name: 'Dry run again' }).click();
    await expect(failures).toBeHidden({ timeout: 30_000 });
    const counts = dialog.getByLabel('Counts');
    await expect(counts).toContainText('Would insert6');
    await expect(counts).toContainText('Would fail0');

    // The run, confirmed: six genres written, the counts, and (an administrator) the link to its audit entry.
    await dialog.getByRole('button', { name: 'Run the import…' }).click();
    await dialog
      .getByRole('group', { name: 'Confirm the import' })
      .getByRole('button', { name: 'Import', exact: true })
      .click();
    await expect(dialog.getByRole('heading', { name: 'Import result' })).toBeVisible({ timeout: 60_000 });
    await expect(counts).toContainText('Inserted6');
    await expect(counts).toContainText('Failed0');
    expect(await genres(db)).toBe(before + 6);
    const auditLink = dialog.getByRole('link', { name: /^See the audit entry #\d+$/ });
    await expect(auditLink).toBeVisible();
    const auditId = Number((await auditLink.textContent())?.replace(/\D+/g, ''));
    if (engine === 'postgres') await lookAtWholeDialog(page, dialog, 'browser-import-run');

    // The audit trail: the import as one line in words; Undo deletes the six rows again.
    await auditLink.click();
    const entry = await showAuditEntry(page, auditId);
    await expect(entry).toContainText('Import a file');
    await expect(
      page.getByText(`Imported genres.csv into ${db.table('Genre')}: 6 rows inserted`).first(),
    ).toBeVisible();
    if (engine === 'postgres') await lookAt(page, 'browser-import-audit');
    await entry.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect.poll(() => genres(db), { timeout: 60_000 }).toBe(before);
  });
}
