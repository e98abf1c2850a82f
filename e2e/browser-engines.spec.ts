import { test } from '@playwright/test';
import {
  addAlbumWithArtist,
  editCustomerAndSave,
  exportCustomersToCsv,
  findCustomerByLastName,
  pageTracksToTheEndAndBack,
  sortTracksByName,
} from './support/chinook-browser.ts';
import { engineTitles, type ChinookEngine } from './support/chinook-databases.ts';
import { chinookJourney } from './support/chinook-journey.ts';

/*
 * The database browser's core on MariaDB and SQLite Chinook, the same steps as on PostgreSQL (e2e/browser.spec.ts):
 * find a customer by an indexed column, sort, page to the end and back, edit and save, add a row with a foreign key
 * chosen from the combobox, export to CSV. One server holds both databases.
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'mysql', name: 'chinook_maria' },
  { engine: 'sqlite', name: 'chinook_lite' },
];

const journey = chinookJourney('browser-engines', engines, 270_000);

const steps = [
  ['find a customer by an indexed column', findCustomerByLastName],
  ['sort tracks by a header', sortTracksByName],
  ['page tracks to the end and back', pageTracksToTheEndAndBack],
  ['edit a customer and save', editCustomerAndSave],
  ['add an album with its artist chosen in the combobox', addAlbumWithArtist],
  ['export a search to CSV and compare it with the table', exportCustomersToCsv],
] as const;

for (const { engine } of engines) {
  test.describe(engineTitles[engine], () => {
    for (const [title, step] of steps) {
      test(title, async ({ page }) => {
        const db = journey.db(engine);
        await step(page, journey.server, journey.admin, db);
      });
    }
  });
}
