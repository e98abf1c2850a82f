import { expect, test } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import type { RoleSummary } from '#common/contract/admin.ts';
import { adminMessages as am } from '#common/messages.ts';
import {
  addLink,
  addRole,
  addRoleUser,
  adminGet,
  createRole,
  dialog,
  linkItem,
  linkList,
  openAdmin,
  permissionDialog,
  permissionTable,
  roleButton,
  roleButtonNamed,
  roleDetails,
  roleNameInput,
  roleUsers,
  setRights,
  signInMember,
  signUpMember,
  type Member,
  lookAtSoftly,
} from './support/admin.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import {
  dataRows,
  editor,
  field,
  openRow,
  openTable,
  SAVED,
  search,
  tableList,
  toast,
  valueOf,
} from './support/chinook-browser.ts';
import { createChinook, databasesEnv, type ChinookDatabase } from './support/chinook-databases.ts';
import { signInAdmin } from './support/chinook-roles.ts';

/*
 * The roles page (/admin/roles; spec 000 §2, §4, §5, §6, §8; issue 14) on PostgreSQL Chinook: an administrator
 * makes a role in the browser (a link to one table, a permission with Can update only, a member chosen with the
 * user picker) and the member, in a browser of their own, sees that one table and may update but not add or
 * delete; once Can update is taken away their next save is refused. Duplicate links are refused; built-in roles
 * have no Delete; a new role is deleted after its confirmation; pending changes block choosing another role.
 */

let server: AppServer;
let chinook: ChinookDatabase;
let admin: Verification;
let member: Member;

test.describe.configure({ timeout: 270_000 });
// A control that never becomes usable fails its step in 15 s with the step named, not the whole test at 90 s.
test.use({ actionTimeout: 15_000 });

test.beforeAll(async () => {
  test.setTimeout(360_000);
  chinook = await createChinook('postgres');
  server = await startAppServer('admin-roles', databasesEnv([chinook]));
  admin = await signInAdmin(server);
  member = await signUpMember(server, 'deskmember');
});
test.afterAll(async () => {
  await server?.stop();
  await chinook?.drop();
});

const cityOf = (id: number) => valueOf(chinook, 'select city from customer where customer_id = ?', [id]);

test('a role made in the browser: its member sees one table, may update only, and is refused once Can update is gone', async ({
  page,
  browser,
}) => {
  const tableId = chinook.tableId('Customer');
  const link = chinook.path('Customer');
  await openAdmin(page, server, admin, '/admin/roles', 'Roles');
  await addRole(page);
  await roleNameInput(page).fill('Customer desk');
  await addLink(page, link);
  await expect(linkItem(page, link)).toContainText('covers 1 table');
  await linkList(page)
    .getByRole('button', { name: `Show tables for ${link}` })
    .click();
  await expect(linkList(page).getByRole('list', { name: `Tables covered by ${link}` })).toContainText(
    chinook.entry('Customer'),
  );

  // The permission modal offers only the tables the draft's links cover: the one customer table.
  await roleDetails(page).getByRole('button', { name: 'Add permission', exact: true }).click();
  const modal = permissionDialog(page);
  await expect(modal).toBeVisible();
  await modal.getByRole('combobox', { name: 'Table' }).click();
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: /customer/ }).click();
  await expect(modal.getByRole('list', { name: 'Columns', exact: true })).toContainText('first_name');
  await setRights(modal, { canInsert: false, canUpdate: true, canDelete: false });
  await lookAtSoftly(page, 'admin-permission');
  await modal.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(modal).toBeHidden();
  await expect(
    permissionTable(page).getByRole('button', { name: `Edit permission ${tableId}` }),
  ).toBeVisible();

  await addRoleUser(page, member.username);
  await roleButtonNamed(page, 'Save').click();
  await expect(toast(page, am.roleUpdated)).toBeVisible();
  await expect(roleButton(page, 'Customer desk')).toBeVisible();
  await expect(roleNameInput(page)).toHaveValue('Customer desk');
  await expect(roleUsers(page)).toContainText(member.username);
  await lookAtSoftly(page, 'admin-roles');

  // The member, signed in now (the session starts with the role), in a browser of their own.
  const memberContext = await browser.newContext();
  try {
    const memberPage = await memberContext.newPage();
    const signedIn = await signInMember(server, member);
    await openTable(memberPage, server, signedIn, chinook, 'Customer');
    const entries = tableList(memberPage).getByText(/^public\./);
    await expect(entries).toHaveCount(1);
    await expect(entries).toHaveText(chinook.entry('Customer'));
    await expect(memberPage.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
    await search(memberPage, chinook, { CustomerId: '16' });
    await expect(dataRows(memberPage)).toHaveCount(1);
    const row = await openRow(memberPage, 'Frank');
    await expect(row.getByRole('button', { name: 'Delete row' })).toHaveCount(0);
    await field(row, 'city').fill('Desk City');
    await row.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(memberPage, SAVED)).toBeVisible();
    expect(await cityOf(16)).toBe('Desk City');
    // A change waits in the editor while the administrator takes Can update away.
    await field(row, 'city').fill('Refused City');
    await expect(row.getByRole('button', { name: 'Save Changes' })).toBeVisible();

    await expect(toast(page, am.roleUpdated)).toBeHidden();
    await permissionTable(page)
      .getByRole('button', { name: `Edit permission ${tableId}` })
      .click();
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('checkbox', { name: 'Can update', exact: true })).toBeChecked();
    await modal.getByRole('checkbox', { name: 'Can update', exact: true }).uncheck();
    await modal.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(modal).toBeHidden();
    await roleButtonNamed(page, 'Save').click();
    await expect(toast(page, am.roleUpdated)).toBeVisible();

    await row.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(memberPage, 'You do not have permission to change rows of that table.')).toBeVisible();
    await expect(editor(memberPage, 'Edit row')).toBeVisible();
    expect(await cityOf(16)).toBe('Desk City');
  } finally {
    await memberContext.close();
  }
});

test('duplicate links are refused: Some links are duplicates.', async ({ page }) => {
  await openAdmin(page, server, admin, '/admin/roles', 'Roles');
  await addRole(page);
  await roleNameInput(page).fill('Twice linked');
  await roleDetails(page).getByRole('button', { name: 'Add link', exact: true }).click();
  await expect(page.getByText('Link is required.').first()).toBeVisible();
  const link = `/db/${chinook.name}/*`;
  await addLink(page, link);
  await expect(linkItem(page, link)).toHaveCount(1);
  await addLink(page, link);
  await expect(page.getByText(am.duplicateLinks).first()).toBeVisible();
  await expect(linkList(page).getByRole('listitem').filter({ hasText: link })).toHaveCount(1);
});

test('a built-in role has no Delete; a new role is deleted after its confirmation', async ({ page }) => {
  await createRole(server, admin.token, { name: 'Role to delete', links: [`/db/${chinook.name}/*`] });
  await openAdmin(page, server, admin, '/admin/roles', 'Roles');
  await roleButton(page, 'Administrator').click();
  await expect(roleNameInput(page)).toHaveValue('Administrator');
  await expect(roleButtonNamed(page, 'Save')).toBeVisible();
  await expect(roleButtonNamed(page, 'Delete')).toHaveCount(0);

  await roleButton(page, 'Role to delete').click();
  await expect(roleNameInput(page)).toHaveValue('Role to delete');
  await roleButtonNamed(page, 'Delete').click();
  let confirm = dialog(page, 'Delete Role Confirmation');
  await expect(confirm).toContainText(
    'Are you sure you want to delete the role Role to delete? This can NOT be undone.',
  );
  await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(roleButton(page, 'Role to delete')).toBeVisible();

  await roleButtonNamed(page, 'Delete').click();
  confirm = dialog(page, 'Delete Role Confirmation');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, am.roleDeleted)).toBeVisible();
  await expect(roleButton(page, 'Role to delete')).toHaveCount(0);
  const left = await adminGet<{ results: RoleSummary[] }>(
    server,
    admin.token,
    `/api/admin/roles?name=${encodeURIComponent('Role to delete')}`,
  );
  expect(left.results.map((r) => r.Name)).not.toContain('Role to delete');
});

test('pending changes block choosing another role and Add Role until discarded', async ({ page }) => {
  await openAdmin(page, server, admin, '/admin/roles', 'Roles');
  await roleButton(page, 'Reader').click();
  await expect(roleNameInput(page)).toHaveValue('Reader');
  await roleNameInput(page).fill('Reader renamed');
  await expect(roleDetails(page).getByText(/^You have pending changes/)).toBeVisible();

  await roleButton(page, 'User').click();
  await expect(toast(page, am.cannotHavePendingChanges)).toBeVisible();
  await expect(roleNameInput(page)).toHaveValue('Reader renamed');
  await expect(toast(page, am.cannotHavePendingChanges)).toBeHidden();
  await page.getByRole('button', { name: 'Add Role', exact: true }).click();
  await expect(toast(page, am.cannotHavePendingChanges)).toBeVisible();
  await expect(roleNameInput(page)).toHaveValue('Reader renamed');

  await roleButtonNamed(page, 'Discard').click();
  await expect(roleNameInput(page)).toHaveValue('Reader');
  await expect(roleDetails(page).getByText(/^You have pending changes/)).toBeHidden();
  await roleButton(page, 'User').click();
  await expect(roleNameInput(page)).toHaveValue('User');
  // Nothing was saved: the built-in role keeps its name.
  const readers = await adminGet<{ results: RoleSummary[] }>(
    server,
    admin.token,
    '/api/admin/roles?name=Reader',
  );
  expect(readers.results.map((r) => r.Name)).toContain('Reader');
});
