import { expect, test, type Locator, type Page } from '@playwright/test';
import { dataCells, dataRows, editor, field, grid, openTable } from './support/chinook-browser.ts';
import { engineTitles, type ChinookDatabase, type ChinookEngine } from './support/chinook-databases.ts';
import { openSignedIn } from './support/chinook-roles.ts';
import { chinookJourney } from './support/chinook-journey.ts';
import { lookAt } from './support/look.ts';

/*
 * Following relations forward (issue 37, decision 0067) on PostgreSQL, MariaDB and SQLite Chinook: an invoice line's
 * Track cell shows the track's name and links to it; the link opens the Track row in Track's editor (row= in the
 * address), the editor's AlbumId field links to the album, the album's ArtistId to the artist; Back steps back
 * through them, each address opening its row again, to the invoice lines.
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'postgres', name: 'follow_pg' },
  { engine: 'mysql', name: 'follow_maria' },
  { engine: 'sqlite', name: 'follow_lite' },
];

const journey = chinookJourney('browser-follow', engines, 240_000);

/** The address's path and the key its row= holds (null: none). */
function addressOf(page: Page): { path: string; row: unknown } {
  const url = new URL(page.url());
  const raw = url.searchParams.get('row');
  const row = raw === null ? null : (JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown);
  return { path: decodeURIComponent(url.pathname), row };
}

/** Waits for the editor of a row: the address names the table and key, and the field shows the value. */
async function expectRowOpen(
  page: Page,
  db: ChinookDatabase,
  table: string,
  key: Record<string, number>,
  shown: [string, string],
): Promise<Locator> {
  const wanted = Object.fromEntries(Object.entries(key).map(([column, value]) => [db.column(column), value]));
  await expect.poll(() => addressOf(page)).toEqual({ path: decodeURIComponent(db.path(table)), row: wanted });
  const dialog = editor(page, 'Edit row');
  await expect(dialog).toBeVisible();
  await expect(field(dialog, db.column(shown[0]))).toHaveValue(shown[1]);
  return dialog;
}

for (const { engine } of engines) {
  test(`${engineTitles[engine]}: from an invoice line to its track, album and artist, and back with Back`, async ({
    page,
  }) => {
    const db = journey.db(engine);
    const look = engine === 'postgres';
    await page.setViewportSize({ width: 1366, height: 900 });
    await openTable(page, journey.server, journey.admin, db, 'InvoiceLine');
    const start = addressOf(page);

    // InvoiceLine 1 is track 2, "Balls to the Wall", of invoice 1: the cell shows the name, the key beside it.
    const first = dataRows(page).first();
    const trackLink = first.getByRole('link', { name: /^Balls to the Wall/ });
    await expect(trackLink).toBeVisible();
    await expect(trackLink).toHaveAttribute(
      'title',
      `Balls to the Wall (2): open this row of ${db.table('Track')}`,
    );
    if (look) await lookAt(page, 'follow-invoice-lines');

    await trackLink.click();
    let dialog = await expectRowOpen(page, db, 'Track', { TrackId: 2 }, ['Name', 'Balls to the Wall']);
    // Track 2 is on album 2, "Balls to the Wall", by artist 2, Accept.
    const albumLink = dialog.getByRole('link', { name: `Open Balls to the Wall in ${db.table('Album')}` });
    await expect(albumLink).toBeVisible();
    if (look) await lookAt(page, 'follow-track-editor');

    await albumLink.click();
    dialog = await expectRowOpen(page, db, 'Album', { AlbumId: 2 }, ['Title', 'Balls to the Wall']);
    await dialog.getByRole('link', { name: `Open Accept in ${db.table('Artist')}` }).click();
    await expectRowOpen(page, db, 'Artist', { ArtistId: 2 }, ['Name', 'Accept']);

    // Back: the album, the track, then the invoice lines with no row open.
    await page.goBack();
    await expectRowOpen(page, db, 'Album', { AlbumId: 2 }, ['Title', 'Balls to the Wall']);
    await page.goBack();
    await expectRowOpen(page, db, 'Track', { TrackId: 2 }, ['Name', 'Balls to the Wall']);
    await page.goBack();
    await expect.poll(() => addressOf(page)).toEqual(start);
    await expect(grid(page)).toBeVisible();
    await expect(editor(page, 'Edit row')).toBeHidden();

    // A row opened by a click writes its key as row= (a replace: the address can be shared); closing takes it out.
    await dataCells(first).first().getByText('1', { exact: true }).click();
    dialog = await expectRowOpen(page, db, 'InvoiceLine', { InvoiceLineId: 1 }, ['InvoiceLineId', '1']);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect.poll(() => addressOf(page)).toEqual(start);

    // The keyboard: the grid is one tab stop; Enter on the linked cell follows it, as a click does.
    await first
      .getByRole('link', { name: /^Balls to the Wall/ })
      .locator('xpath=ancestor::td')
      .focus();
    await page.keyboard.press('Enter');
    dialog = await expectRowOpen(page, db, 'Track', { TrackId: 2 }, ['Name', 'Balls to the Wall']);

    // Closing the editor takes row= out of the address (a replace: Back still goes to the invoice lines).
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect
      .poll(() => addressOf(page))
      .toEqual({ path: decodeURIComponent(db.path('Track')), row: null });
    await page.goBack();
    await expect.poll(() => addressOf(page)).toEqual(start);

    // An address whose row is not there says so, and shows the table.
    const missing = Buffer.from(JSON.stringify({ [db.column('TrackId')]: 999999 })).toString('base64url');
    await openSignedIn(page, journey.server, journey.admin, `${db.path('Track')}?row=${missing}`);
    await expect(page.getByText(/^No row of .* has .* 999999: it may have been deleted/)).toBeVisible();
    await expect(editor(page, 'Edit row')).toBeHidden();
    await expect.poll(() => addressOf(page).row).toBeNull();
    if (look) await lookAt(page, 'follow-missing-row');
  });
}
