import { expect, test } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { userMessages, type AdminOverview } from '#common/contract/admin.ts';
import {
  adminMenu,
  auditEntries,
  auditFilters,
  adminGet,
  choose,
  createRole,
  lockUser,
  openAdmin,
  region,
  searchUsers,
  showAuditEntry,
  signInMember,
  signUpMember,
  userRows,
  usersTable,
  withClient,
  type Member,
  lookAtSoftly,
} from './support/admin.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  dataRows,
  field,
  openRow,
  openTable,
  SAVED,
  search,
  searchForm,
  settled,
  toast,
  valueOf,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { signInAdmin } from './support/chinook-roles.ts';
import { solveHumanCheck } from './support/human-check.ts';

/*
 * The admin area's users, audit trail and start page (spec 000 §2, §8, §9; issue 14) on PostgreSQL Chinook: the
 * start page's counts and database health and the admin menu; the user list and its search, a member's page, a lock
 * that ends the member's open session (in a browser of their own) and refuses their sign-in until unlocked; a
 * member's edit found in the audit trail by its table, compared field by field and undone there, once.
 */

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;
let lockMember: Member;
let editMember: Member;

test.describe.configure({ timeout: 270_000 });
// A control that never becomes usable fails its step in 15 s with the step named, not the whole test at 90 s.
test.use({ actionTimeout: 15_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  server = await startAppServer('admin-users-audit', databasesEnv([chinook]));
  admin = await signInAdmin(server);
  lockMember = await signUpMember(server, 'lockmember');
  editMember = await signUpMember(server, 'editmember');
  await createRole(
    server,
    admin.token,
    {
      name: 'Chinook desk',
      links: [`/db/${chinook.name}/*`],
      permissions: [{ tableId: chinook.tableId('Customer'), canUpdate: true }],
    },
    [lockMember.id, editMember.id],
  );
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

test('the start page shows the counts and the databases up; the admin menu goes to each page', async ({
  page,
}) => {
  const overview = await adminGet<AdminOverview>(server, admin.token, '/api/admin/overview');
  expect(overview.users).toBe(3);
  await openAdmin(page, server, admin, '/admin/home', 'Admin');
  const counts = region(page, 'Users and roles');
  await expect(counts).toContainText(String(overview.users));
  await expect(counts).toContainText(String(overview.roles));
  const databases = region(page, 'Databases');
  await expect(databases).toContainText(chinook.name);
  await expect(databases.getByText('Up', { exact: true }).first()).toBeVisible();
  await expect(databases.getByText('Down', { exact: true })).toHaveCount(0);
  await expect(region(page, 'Sign-in failures')).toBeVisible();
  await expect(region(page, 'Recent changes')).toBeVisible();
  await expect(adminMenu(page).getByRole('link')).toHaveText([
    'Home',
    'Users',
    'Roles',
    'Audit',
    'Messages',
    'Analytics',
    'Chats',
  ]);
  await expect(adminMenu(page).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await lookAtSoftly(page, 'admin-home');

  for (const [entry, path] of [
    ['Users', '/admin/users'],
    ['Roles', '/admin/roles'],
    ['Audit', '/admin/audit'],
    ['Home', '/admin/home'],
  ] as const) {
    await adminMenu(page).getByRole('link', { name: entry, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(adminMenu(page).getByRole('link', { name: entry, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  }
});

test('the user list and its search; a lock ends the member’s session and refuses their sign-in until unlocked', async ({
  page,
  browser,
}) => {
  await openAdmin(page, server, admin, '/admin/users', 'Users');
  await expect(userRows(page)).toHaveCount(3);
  const lockRow = userRows(page).filter({ hasText: lockMember.username });
  await expect(lockRow).toContainText(lockMember.email);
  await expect(lockRow).toContainText('Active');
  await expect(lockRow).toContainText('Chinook desk');
  await lookAtSoftly(page, 'admin-users');
  await searchUsers(page).fill('lock');
  await expect(userRows(page)).toHaveCount(1);
  await expect(userRows(page)).toContainText(lockMember.username);

  await usersTable(page).getByRole('link', { name: lockMember.username, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/${lockMember.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: lockMember.username })).toBeVisible();
  await expect(region(page, 'Profile')).toContainText(lockMember.email);
  await expect(
    region(page, 'Recent activity').getByRole('link', { name: 'See all in the audit trail' }),
  ).toHaveAttribute('href', `/admin/audit?userId=${lockMember.id}`);
  await lookAtSoftly(page, 'admin-user');

  const memberContext = await browser.newContext();
  try {
    // The member is at work in the database browser.
    const memberPage = await memberContext.newPage();
    await openTable(memberPage, server, await signInMember(server, lockMember), chinook, 'Customer');

    await lockUser(page, 'Until unlocked');
    await expect(toast(page, userMessages.locked)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unlock', exact: true })).toBeVisible();

    // Their next call is refused with 401: the app signs out at once and the guard shows the 401 page; started
    // again, it stays signed out.
    await field(searchForm(memberPage), chinook.column('CustomerId')).fill('5');
    await searchForm(memberPage).getByRole('button', { name: 'Search', exact: true }).click();
    await expect(memberPage).toHaveURL(/\/error\/unauthorized$/);
    await memberPage.reload();
    await expect(memberPage).toHaveURL(/\/error\/unauthorized$/);
    await expect(memberPage.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();

    // A sign-in is refused while locked (the same words as any failed sign-in).
    const refused = await withClient(server, async (call) =>
      call('POST', '/api/account/login', {
        body: {
          username: lockMember.username,
          password: lockMember.password,
          token: await solveHumanCheck(server.origin),
        },
      }),
    );
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await expect(toast(page, userMessages.unlocked)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Lock', exact: true })).toBeVisible();
    const again = await signInMember(server, lockMember);
    const nextPage = await memberContext.newPage();
    await openTable(nextPage, server, again, chinook, 'Customer');
    await expect(dataRows(nextPage).first()).toBeVisible();
  } finally {
    await memberContext.close();
  }
});

test('a member’s edit is found in the audit trail by its table, compared and undone once', async ({
  page,
  browser,
}) => {
  const cityOf = () => valueOf(chinook, 'select city from customer where customer_id = 20');
  const before = String(await cityOf());
  const firstName = String(await valueOf(chinook, 'select first_name from customer where customer_id = 20'));
  const memberContext = await browser.newContext();
  try {
    const memberPage = await memberContext.newPage();
    await openTable(memberPage, server, await signInMember(server, editMember), chinook, 'Customer');
    await search(memberPage, chinook, { CustomerId: '20' });
    const row = await openRow(memberPage, firstName);
    await field(row, 'city').fill('Audit City');
    await row.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(memberPage, SAVED)).toBeVisible();
    expect(await cityOf()).toBe('Audit City');
    await memberPage.keyboard.press('Escape');
    await expect(row).toBeHidden();

    const ofTable = await auditEntries(server, admin.token, { table: chinook.tableId('Customer') });
    const [change] = ofTable.filter((e) => e.action === 'data.update');
    expect(change?.username).toBe(editMember.username);
    const id = change!.id;

    await openAdmin(page, server, admin, '/admin/audit', 'Audit');
    await choose(auditFilters(page).getByRole('combobox', { name: 'Table' }), 'customer', /customer/);
    await expect.poll(() => new URL(page.url()).searchParams.get('table')).toBe(chinook.tableId('Customer'));
    // The trail shows that table's entries only (the sign-ins and the role made at the start are gone).
    await expect(page.getByText(/entr(y|ies), newest first/)).toHaveText(
      `${ofTable.length === 1 ? '1 entry' : `${ofTable.length} entries`}, newest first`,
    );
    const entry = await showAuditEntry(page, id);
    const changes = entry.getByRole('table', { name: 'Changes', exact: true });
    const city = changes.getByRole('row').filter({ hasText: 'city' });
    await expect(city).toContainText(before);
    await expect(city).toContainText('Audit City');
    await expect(city).toContainText('changed');
    await expect(changes.getByText('changed', { exact: true })).toHaveCount(1);
    await lookAtSoftly(page, 'admin-audit');

    await entry.getByRole('button', { name: 'Undo', exact: true }).click();
    // A confirmation, if the page asks for one.
    const confirm = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('button', { name: 'Undo', exact: true }) });
    const undone = toast(page, 'Undone: city has its earlier value again.');
    await expect(undone.or(confirm).first()).toBeVisible();
    if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
    await expect(undone).toBeVisible();
    expect(await cityOf()).toBe(before);

    const [undo] = await auditEntries(server, admin.token, { action: 'data.undo' });
    await expect(entry).toContainText(`Undone by #${undo!.id}`);
    await expect(entry.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0);

    // The member's grid, read again, shows the old value.
    await memberPage.reload();
    await settled(memberPage);
    await expect(dataRows(memberPage).first()).toContainText(before);
    await expect(dataRows(memberPage).first()).not.toContainText('Audit City');
  } finally {
    await memberContext.close();
  }
});
