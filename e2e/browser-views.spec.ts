import { expect, test, type Page } from '@playwright/test';
import {
  columnHeader,
  dataHeaders,
  dataRows,
  openTable,
  settled,
  sortButton,
  valueOf,
} from './support/chinook-browser.ts';
import { engineTitles, type ChinookEngine } from './support/chinook-databases.ts';
import { memberOfNewRole } from './support/chinook-roles.ts';
import { chinookJourney } from './support/chinook-journey.ts';
import { lookAt } from './support/look.ts';

/*
 * Saved views (issue 36) on PostgreSQL and MariaDB Chinook: the administrator shows a column the default leaves out,
 * moves it first, sorts Track, saves it as a view shared with a role, a member of that role opens it from the Views menu and from the shared address, and someone outside
 * the role who opens the address gets the table's default with a sentence saying why.
 */

const engines: { engine: ChinookEngine; name: string }[] = [
  { engine: 'postgres', name: 'views_pg' },
  { engine: 'mysql', name: 'views_maria' },
];

const journey = chinookJourney('browser-views', engines, 180_000);

const viewsButton = (page: Page) => page.getByRole('button', { name: /^Views/ });
const viewItem = (page: Page, name: string) => page.getByRole('menuitem', { name: new RegExp(name) });
const colsParam = (page: Page) => new URL(page.url()).searchParams.get('cols');
const firstHeader = (page: Page) => dataHeaders(page).first();

/** Shows a column the spec's default leaves out and moves it first, through the Columns chooser. */
async function showFirst(page: Page, column: string): Promise<void> {
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  const chooser = page.getByRole('dialog', { name: 'Columns' });
  await chooser.getByRole('checkbox', { name: `Show ${column}` }).check();
  await expect.poll(() => colsParam(page)).toContain(column);
  const up = chooser.getByRole('button', { name: `Move ${column} up` });
  for (let moves = 0; moves < 20 && colsParam(page)?.split(',')[0] !== column; moves++) {
    const before = colsParam(page);
    await up.click();
    await expect.poll(() => colsParam(page)).not.toBe(before);
  }
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  await settled(page);
  await expect(firstHeader(page)).toContainText(column);
}

for (const { engine } of engines) {
  test(`${engineTitles[engine]}: save a sorted view, share it with a role, open it as a member and as a stranger`, async ({
    browser,
  }) => {
    const db = journey.db(engine);
    const name = db.column('Name');
    const unitPrice = db.column('UnitPrice');
    const tag = engine === 'postgres' ? 'pg' : 'maria';
    const roleName = `Track readers ${tag}`;
    const member = await memberOfNewRole(
      journey.server,
      journey.admin.token,
      { name: roleName, links: [`/db/${db.name}/*`] },
      `reader${tag}`,
    );
    const stranger = await memberOfNewRole(
      journey.server,
      journey.admin.token,
      { name: `Others ${tag}`, links: [`/db/${db.name}/*`] },
      `other${tag}`,
    );
    const lastByName = String(
      await valueOf(
        db,
        `select ${name} from ${db.table('Track')} order by ${name} desc, ${db.column('TrackId')} limit 1`,
      ),
    );

    // The administrator shows the price first, sorts the tracks by name, descending, 40 a page, and saves that for
    // the role.
    const authorContext = await browser.newContext();
    const page = await authorContext.newPage();
    await openTable(page, journey.server, journey.admin, db, 'Track');
    await expect(columnHeader(page, unitPrice)).toHaveCount(0);
    await showFirst(page, unitPrice);
    await sortButton(page, name).click();
    await settled(page);
    await sortButton(page, name).click();
    await settled(page);
    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('40');
    await settled(page);
    await expect(dataRows(page).first()).toContainText(lastByName);

    await viewsButton(page).click();
    await page.getByRole('menuitem', { name: 'Save as a new view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as a new view' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Last names first');
    await dialog.getByRole('radio', { name: 'Members of some roles' }).check();
    const roles = dialog.getByRole('combobox', { name: 'Roles' });
    await roles.fill(roleName);
    await roles.press('ArrowDown');
    await roles.press('Enter');
    await expect(page.getByRole('option', { name: roleName, exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // Away from the list of roles (it lies over the buttons), then save.
    await dialog.getByRole('textbox', { name: 'Name' }).click();
    await expect(page.getByRole('listbox', { name: 'Roles' })).toBeHidden();
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await expect(page.getByText('Saved the view “Last names first”.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toMatch(/^\d+$/);
    const address = new URL(page.url());
    // The address holds the view alone: its sort and page size are the view's.
    expect([...address.searchParams.keys()]).toEqual(['view']);
    await expect(viewsButton(page)).toHaveText(/Views: Last names first/);
    if (engine === 'postgres') await lookAt(page, 'browser-views-saved');
    await authorContext.close();

    // A member of the role finds it in the menu (as the administrator shared it), and it opens sorted.
    const memberContext = await browser.newContext();
    const memberPage = await memberContext.newPage();
    await openTable(memberPage, journey.server, member, db, 'Track');
    await expect(columnHeader(memberPage, name)).toHaveAttribute('aria-sort', 'none');
    await viewsButton(memberPage).click();
    await expect(viewItem(memberPage, 'Last names first')).toContainText(
      `Shared by ${journey.server.admin.username}`,
    );
    if (engine === 'postgres') await lookAt(memberPage, 'browser-views-menu');
    await viewItem(memberPage, 'Last names first').click();
    await settled(memberPage);
    await expect(columnHeader(memberPage, name)).toHaveAttribute('aria-sort', 'descending');
    await expect(dataRows(memberPage)).toHaveCount(40);
    await expect(dataRows(memberPage).first()).toContainText(lastByName);
    await expect(firstHeader(memberPage)).toContainText(unitPrice);
    expect(new URL(memberPage.url()).search).toBe(address.search);

    // …and from the shared address, in a fresh page.
    const shared = await memberContext.newPage();
    await openTable(shared, journey.server, member, db, 'Track', address.search);
    await expect(columnHeader(shared, name)).toHaveAttribute('aria-sort', 'descending');
    await expect(dataRows(shared)).toHaveCount(40);
    await expect(viewsButton(shared)).toHaveText(/Views: Last names first/);
    await expect(firstHeader(shared)).toContainText(unitPrice);
    // A change on top of the view is in the address, and Save is not the member's to offer.
    await sortButton(shared, name).click();
    await settled(shared);
    await expect.poll(() => new URL(shared.url()).searchParams.get('sort')).toBe('');
    await expect(viewsButton(shared)).toHaveText(/\(changed\)/);
    await viewsButton(shared).click();
    await expect(shared.getByRole('menuitem', { name: /Save changes/ })).toHaveCount(0);
    await shared.keyboard.press('Escape');
    await memberContext.close();

    // Someone outside the role gets the table's default and a sentence.
    const strangerContext = await browser.newContext();
    const strangerPage = await strangerContext.newPage();
    await openTable(strangerPage, journey.server, stranger, db, 'Track', address.search);
    await expect(
      strangerPage.getByText('This address names a saved view that is not shared with you'),
    ).toBeVisible();
    await expect(columnHeader(strangerPage, name)).toHaveAttribute('aria-sort', 'none');
    await expect(dataRows(strangerPage)).toHaveCount(20);
    await expect(columnHeader(strangerPage, unitPrice)).toHaveCount(0);
    expect(new URL(strangerPage.url()).searchParams.get('view')).toBeNull();
    if (engine === 'postgres') await lookAt(strangerPage, 'browser-views-not-shared');
    await strangerContext.close();
  });
}
