import { expect, test, type Page } from '@playwright/test';
import { browserMessages as bm } from '#common/messages.ts';
import { editorMessages as em } from '#web/features/browser/editor/editor-messages.ts';
import { readWhereParam } from '#web/features/browser/filter/where-param.ts';
import { dataRows, editor, openRow, openTable, settled, valueOf } from './support/chinook-browser.ts';
import { engineTitles, type ChinookEngine } from './support/chinook-databases.ts';
import { chinookJourney } from './support/chinook-journey.ts';
import { lookAt } from './support/look.ts';

/*
 * "Referenced by" (issue 37, decision 0065) on Chinook in SQLite, PostgreSQL and MariaDB: a customer's editor lists
 * the invoices that point at the customer with their exact count (Invoice.CustomerId is indexed on every engine); the
 * entry opens the Invoice grid filtered to them by `where=`, and Back returns to the customers. An artist lists its
 * albums. The delete question on the customer says the database will refuse while the invoices reference it
 * (Chinook's scripts declare every key ON DELETE NO ACTION, and each engine reports it so), and is cancelled.
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'sqlite', name: 'relations_lite' },
  { engine: 'postgres', name: 'relations_pg' },
  { engine: 'mysql', name: 'relations_maria' },
];

const journey = chinookJourney('browser-relations', engines, 240_000);

/** An entry of the Referenced-by list by its table's name (the link's text starts with it, then its count). */
const named = (name: string) => new RegExp(`^${name}(?![A-Za-z_])`);

/** The editor's Referenced-by tab, opened, with its list of tables. */
async function openReferences(page: Page) {
  const dialog = editor(page, 'Edit row');
  await dialog.getByRole('tab', { name: em.referencesTab }).click();
  const list = dialog.getByRole('list', { name: em.referencesList });
  await expect(list).toBeVisible();
  return { dialog, list };
}

const rows = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`;

for (const { engine } of engines) {
  test(`${engineTitles[engine]}: a customer's invoices and an artist's albums, followed and back; the delete question`, async ({
    page,
  }) => {
    const db = journey.db(engine);
    const customerId = db.column('CustomerId');
    const invoice = db.table('Invoice');
    const lastName = String(
      await valueOf(
        db,
        `select ${db.column('LastName')} from ${db.table('Customer')} where ${customerId} = 1`,
      ),
    );
    const invoices = Number(await valueOf(db, `select count(*) from ${invoice} where ${customerId} = 1`));
    expect(invoices).toBeGreaterThan(0);

    // The customer's editor lists Invoice (CustomerId → CustomerId) with its exact count.
    await openTable(page, journey.server, journey.admin, db, 'Customer');
    const customerUrl = page.url();
    await openRow(page, lastName);
    const { dialog, list } = await openReferences(page);
    const entry = list.getByRole('link', { name: named(invoice) });
    await expect(entry).toContainText(`${customerId} → ${customerId}`);
    await expect(entry).toContainText(rows(invoices));
    await expect(entry).toContainText(em.onDelete('no action'));
    if (engine === 'postgres') await lookAt(page, 'browser-relations-referenced-by');

    // Following it opens the Invoice grid with that customer's invoices alone, the filter in the address.
    await entry.click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('heading', { level: 2, name: db.entry('Invoice'), exact: true }),
    ).toBeVisible();
    await settled(page);
    const address = new URL(page.url());
    expect(address.pathname).toBe(db.path('Invoice'));
    expect(readWhereParam(address.searchParams.get('where'))?.json).toEqual({
      column: customerId,
      op: 'eq',
      value: 1,
    });
    await expect(dataRows(page)).toHaveCount(invoices);

    // Back returns to the customers, unfiltered, with the customer open again: the row click wrote its key into the
    // address as row= (decision 0067).
    await page.goBack();
    await expect(
      page.getByRole('heading', { level: 2, name: db.entry('Customer'), exact: true }),
    ).toBeVisible();
    await settled(page);
    const back = new URL(page.url());
    expect(`${back.origin}${back.pathname}`).toBe(customerUrl);
    expect(readWhereParam(back.searchParams.get('row'))?.json).toEqual({ [customerId]: 1 });
    await expect(editor(page, 'Edit row')).toBeVisible();

    // The delete question says the invoices hold the customer, and what the database will do; Cancel keeps it.
    await editor(page, 'Edit row').getByRole('button', { name: em.deleteRow }).click();
    const question = page.getByRole('dialog', { name: bm.deleteRowTitle });
    await expect(question).toContainText(bm.deleteRowMessage);
    await expect(question).toContainText(
      `The database will refuse the delete while ${rows(invoices)} of ${invoice} reference it.`,
    );
    if (engine === 'postgres') await lookAt(page, 'browser-relations-delete-question');
    await question.getByRole('button', { name: em.cancel }).click();
    await expect(question).toBeHidden();
    expect(
      Number(await valueOf(db, `select count(*) from ${db.table('Customer')} where ${customerId} = 1`)),
    ).toBe(1);
    await page.keyboard.press('Escape');
    await expect(editor(page, 'Edit row')).toBeHidden();

    // AC/DC has two albums.
    await openTable(page, journey.server, journey.admin, db, 'Artist');
    await openRow(page, 'AC/DC');
    const artist = await openReferences(page);
    const albums = artist.list.getByRole('link', { name: named(db.table('Album')) });
    await expect(albums).toContainText(rows(2));
    await albums.click();
    await expect(page.getByRole('heading', { level: 2, name: db.entry('Album'), exact: true })).toBeVisible();
    await settled(page);
    await expect(dataRows(page)).toHaveCount(2);
    await page.goBack();
    await expect(
      page.getByRole('heading', { level: 2, name: db.entry('Artist'), exact: true }),
    ).toBeVisible();
  });
}
