import { mkdir } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import type { AuditEntryView, Role } from '#common/contract/admin.ts';
import { apiClient, type ApiCall, type Envelope } from './api.ts';
import type { AppServer } from './app-server.ts';
import type { RoleSpec } from './chinook-roles.ts';
import { openSignedIn } from './chinook-roles.ts';
import { lookAt } from './look.ts';
import { signInThroughApi, signUpThroughApi, type Newcomer } from './sign-in.ts';

/*
 * The admin area as a person uses it, by the accessible names of the admin contract (/work/notes/admin-contract.md):
 * the frame's menu (nav "Admin"), the roles page (list "Roles", region "Role details", list "Links", table
 * "Permissions", the "Permission" dialog, list "Users"), the users page (table "Users"), a user's page (regions
 * "Profile" and "Recent activity", the "Lock user" dialog), the audit trail (form "Audit filters", table "Audit
 * trail", region "Entry {id}" with its table "Changes") and the start page. Set-up steps through the API (people,
 * roles, the audit oracle) are here too.
 */

// ---- people and set-up through the API ------------------------------------------------------------------------

/** A person who signed up through the API (password Member#12345, address {username}@example.com). */
export interface Member extends Newcomer {
  id: number;
}

/** Runs `work` with an API client of its own (own cookies, so its own XSRF token), disposed after. */
export async function withClient<T>(server: AppServer, work: (call: ApiCall) => Promise<T>): Promise<T> {
  const client = await apiClient(server.origin);
  try {
    return await work(client.call);
  } finally {
    await client.dispose();
  }
}

/** Signs a newcomer up through the API (they get only the built-in User role): who they are, with their Id. */
export async function signUpMember(server: AppServer, username: string): Promise<Member> {
  const person: Newcomer = {
    username,
    password: 'Member#12345',
    email: `${username}@example.com`,
    firstName: 'Journey',
    lastName: 'Member',
  };
  const verification = await withClient(server, (call) => signUpThroughApi(call, server, person));
  return { ...person, id: verification.user.id };
}

/** Signs a person in through the API as the login page does: the verification to store in a page. */
export function signInMember(server: AppServer, person: Newcomer): Promise<Verification> {
  return withClient(server, (call) => signInThroughApi(call, server, person));
}

/** A GET of the admin API as the administrator (the oracle the journeys compare the screens with). */
export async function adminGet<T>(server: AppServer, adminToken: string, url: string): Promise<T> {
  const answer: Envelope<T> = await withClient(server, (call) => call<T>('GET', url, { token: adminToken }));
  expect(answer.status, answer.message ?? '').toBe(200);
  return answer.data;
}

/** Makes a role through the admin API (POST /api/admin/roles) holding the users `userIds`: the saved role. */
export async function createRole(
  server: AppServer,
  adminToken: string,
  spec: RoleSpec,
  userIds: number[] = [],
): Promise<Role> {
  return withClient(server, async (call) => {
    // A GET with the administrator's bearer first, for an XSRF token bound to their session.
    await call('GET', '/api/admin/roles', { token: adminToken });
    const role: Role = {
      Id: 0,
      Name: spec.name,
      Role_Links: spec.links.map((Link) => ({ Id: 0, RoleId: 0, Link })),
      Role_Permissions: (spec.permissions ?? []).map((p) => ({
        Id: 0,
        RoleId: 0,
        TableId: p.tableId,
        CanInsert: p.canInsert ?? false,
        CanUpdate: p.canUpdate ?? false,
        CanDelete: p.canDelete ?? false,
      })),
      User_Roles: userIds.map((UserId) => ({ Id: 0, RoleId: 0, UserId })),
    };
    const saved = await call<Role>('POST', '/api/admin/roles', { body: role, token: adminToken });
    expect(saved.status, saved.message ?? '').toBe(200);
    return saved.data;
  });
}

/** The newest audit entries matching `query` (?table=&action=&userId=…), newest first. */
export async function auditEntries(
  server: AppServer,
  adminToken: string,
  query: Record<string, string | number>,
): Promise<AuditEntryView[]> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const paged = await adminGet<{ results: AuditEntryView[] }>(
    server,
    adminToken,
    `/api/admin/audit?${search.toString()}`,
  );
  return paged.results;
}

// ---- looking at a screen ------------------------------------------------------------------------------------

/**
 * lookAt (./look.ts), but an accessibility finding fails the test softly: the journey goes on (so one finding does
 * not hide a broken step after it), the screenshots are still taken, and the test fails at its end. Then checks,
 * softly too, that the page does not scroll sideways on a 375 px phone.
 */
export async function lookAtSoftly(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  // From the top: a full-page picture of a scrolled page draws the fixed header and sticky parts mid-page.
  await page.evaluate(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }));
  try {
    await lookAt(page, name);
  } catch (error) {
    expect.soft(error instanceof Error ? error.message : String(error), `looking at ${name}`).toBe('');
    await mkdir('test-results/screenshots', { recursive: true });
    for (const [size, viewport] of Object.entries({
      phone: { width: 375, height: 812 },
      desktop: { width: 1366, height: 900 },
    })) {
      await page.setViewportSize(viewport);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(250);
        await page.screenshot({
          path: `test-results/screenshots/${name}-${size}-${scheme}.png`,
          fullPage: true,
          animations: 'disabled',
        });
      }
    }
    await page.emulateMedia({ colorScheme: null });
    if (original) await page.setViewportSize(original);
  }
  // On a phone the page itself never scrolls sideways (a wide table scrolls inside its own box).
  await page.setViewportSize({ width: 375, height: 812 });
  // Waits for the page to settle at the new size (a chart measures its box after the resize is observed).
  await expect
    .configure({ soft: true })
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: `${name}: the page's width on a 375 px phone`,
    })
    .toBeLessThanOrEqual(375);
  if (original) await page.setViewportSize(original);
}

// ---- common ---------------------------------------------------------------------------------------------------

/** The admin menu of every admin page. */
export const adminMenu = (page: Page) => page.getByRole('navigation', { name: 'Admin', exact: true });

/** Opens an admin page signed in as `who` and waits for its h1. */
export async function openAdmin(
  page: Page,
  server: AppServer,
  who: Verification,
  path: string,
  title: string | RegExp,
): Promise<void> {
  await openSignedIn(page, server, who, path);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** A region (a section named by its heading) of the page. */
export const region = (scope: Page | Locator, name: string) =>
  scope.getByRole('region', { name, exact: true });

/** A modal dialog by its title. */
export const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title, exact: true });

/** Chooses `choice` in a (searchable) select or combobox after typing `term`. */
export async function choose(combobox: Locator, term: string, choice: string | RegExp): Promise<void> {
  await combobox.click();
  await combobox.fill(term);
  await combobox.page().getByRole('option', { name: choice }).first().click();
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---- roles (/admin/roles) -------------------------------------------------------------------------------------

/** The role list: a navigation or a list named "Roles" (not the admin menu's Roles link). */
export const roleList = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Roles', exact: true })
    .or(page.getByRole('list', { name: 'Roles', exact: true }))
    .first();

/** A role of the list: a button whose name starts with the role's name ("Readers 2 links 1 user"). */
export const roleButton = (page: Page, name: string) =>
  roleList(page).getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}(\\s|$)`) });

export const roleDetails = (page: Page) => region(page, 'Role details');
export const roleNameInput = (page: Page) => roleDetails(page).getByRole('textbox', { name: 'Role name' });
export const linkList = (page: Page) => roleDetails(page).getByRole('list', { name: 'Links', exact: true });
export const permissionTable = (page: Page) =>
  roleDetails(page).getByRole('table', { name: 'Permissions', exact: true });
export const roleUsers = (page: Page) => roleDetails(page).getByRole('list', { name: 'Users', exact: true });
/** The card's footer buttons: Save, Discard, Delete. */
export const roleButtonNamed = (page: Page, name: 'Save' | 'Discard' | 'Delete') =>
  roleDetails(page).getByRole('button', { name, exact: true });

/** Starts a new role with "Add Role": the card shows an empty Role name. */
export async function addRole(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add Role', exact: true }).click();
  await expect(roleNameInput(page)).toHaveValue('');
}

/** Types a link into "New link" and adds it with "Add link". */
export async function addLink(page: Page, link: string): Promise<void> {
  await roleDetails(page).getByRole('textbox', { name: 'New link', exact: true }).fill(link);
  await roleDetails(page).getByRole('button', { name: 'Add link', exact: true }).click();
}

/** The item of the link list showing `link`. */
export const linkItem = (page: Page, link: string) =>
  linkList(page).getByRole('listitem').filter({ hasText: link });

/** The permission modal. */
export const permissionDialog = (page: Page) => dialog(page, 'Permission');

/** Sets the modal's three checkboxes. */
export async function setRights(
  modal: Locator,
  rights: { canInsert: boolean; canUpdate: boolean; canDelete: boolean },
): Promise<void> {
  await modal.getByRole('checkbox', { name: 'Can insert', exact: true }).setChecked(rights.canInsert);
  await modal.getByRole('checkbox', { name: 'Can update', exact: true }).setChecked(rights.canUpdate);
  await modal.getByRole('checkbox', { name: 'Can delete', exact: true }).setChecked(rights.canDelete);
}

/** Adds a signed-up person with the user picker ("User to add", then "Add user"). */
export async function addRoleUser(page: Page, username: string): Promise<void> {
  const picker = roleDetails(page).getByRole('combobox', { name: 'User to add' });
  await choose(picker, username, new RegExp(`^${escapeRegExp(username)}\\b`));
  await roleDetails(page).getByRole('button', { name: 'Add user', exact: true }).click();
  await expect(roleUsers(page)).toContainText(username);
}

// ---- users (/admin/users, /admin/users/:id) -------------------------------------------------------------------

export const usersTable = (page: Page) => page.getByRole('table', { name: 'Users', exact: true });
/** The rows of the users table that name a user (a link to their page), not the header or a "no users" line. */
export const userRows = (page: Page) =>
  usersTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link') });
export const searchUsers = (page: Page) => page.getByRole('textbox', { name: 'Search users' });

/** Locks the user whose page is open for `duration` ("1 hour", "1 day", "Until unlocked"). */
export async function lockUser(page: Page, duration: '1 hour' | '1 day' | 'Until unlocked'): Promise<void> {
  await page.getByRole('button', { name: 'Lock', exact: true }).click();
  const modal = dialog(page, 'Lock user');
  await expect(modal).toBeVisible();
  await modal.getByRole('radio', { name: duration, exact: true }).check();
  await modal.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(modal).toBeHidden();
}

// ---- audit (/admin/audit) -------------------------------------------------------------------------------------

export const auditFilters = (page: Page) => page.getByRole('form', { name: 'Audit filters', exact: true });
export const auditTable = (page: Page) => page.getByRole('table', { name: 'Audit trail', exact: true });
export const auditEntryRegion = (page: Page, id: number) => region(page, `Entry ${id}`);

/** Reveals an entry of the trail ("Show entry {id}") and answers its region. */
export async function showAuditEntry(page: Page, id: number): Promise<Locator> {
  await auditTable(page)
    .getByRole('button', { name: `Show entry ${id}`, exact: true })
    .click();
  const entry = auditEntryRegion(page, id);
  await expect(entry).toBeVisible();
  return entry;
}
