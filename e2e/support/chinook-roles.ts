import { expect, type Page } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import type { Role } from '#common/contract/admin.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { apiClient, type ApiCall } from './api.ts';
import type { AppServer } from './app-server.ts';
import { signInThroughApi, signUpThroughApi, type Newcomer } from './sign-in.ts';

/*
 * People for the database browser's journeys: the administrator, and members of a role made through the admin API
 * (POST /api/admin/roles, common/contract/admin.ts) with its links and per-table permissions, each signed in through
 * the API as the login page does. A page opens the app already signed in with `openSignedIn`.
 */

/** A role's per-table rights, for a TableId ({db}/{schema}/{table}, see ChinookDatabase.tableId). */
export interface TableRights {
  tableId: string;
  canInsert?: boolean;
  canUpdate?: boolean;
  canDelete?: boolean;
}

export interface RoleSpec {
  /** Letters, digits, spaces, _ and -. */
  name: string;
  /** `*`, /db/{db}/*, /db/{db}/{schema}/{table}… */
  links: string[];
  permissions?: TableRights[];
}

/** Signs the server's administrator in through the API: the verification to store in a page. */
export async function signInAdmin(server: AppServer): Promise<Verification> {
  return withClient(server, (call) => signInThroughApi(call, server, server.admin));
}

/**
 * Signs up a newcomer, makes a role with `spec`'s links and permissions holding them (as the administrator, whose
 * token is `adminToken`), then signs the newcomer in again so the session starts with the role: the verification.
 */
export async function memberOfNewRole(
  server: AppServer,
  adminToken: string,
  spec: RoleSpec,
  username: string,
): Promise<Verification> {
  const person: Newcomer = {
    username,
    password: 'Member#12345',
    email: `${username}@example.com`,
    firstName: 'Journey',
    lastName: 'Member',
  };
  // A client each for the newcomer, the administrator and the new sign-in: an XSRF token is bound to the session
  // it was issued for (server/plugins/csrf.ts), so one cookie jar cannot speak for two people in turn.
  const signedUp = await withClient(server, (call) => signUpThroughApi(call, server, person));
  await withClient(server, async (call) => {
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
      User_Roles: [{ Id: 0, RoleId: 0, UserId: signedUp.user.id }],
    };
    const saved = await call<Role>('POST', '/api/admin/roles', { body: role, token: adminToken });
    expect(saved.status, saved.message ?? '').toBe(200);
  });
  return withClient(server, (call) => signInThroughApi(call, server, person));
}

/** Runs `work` with an API client of its own (own cookies), disposed after. */
async function withClient<T>(server: AppServer, work: (call: ApiCall) => Promise<T>): Promise<T> {
  const client = await apiClient(server.origin);
  try {
    return await work(client.call);
  } finally {
    await client.dispose();
  }
}

/**
 * Makes every page of the context start signed in with `verification` (stored under UTOKEN as
 * web/session/storage.ts does, before the app's scripts run), then opens `path`.
 */
export async function openSignedIn(
  page: Page,
  server: AppServer,
  verification: Verification,
  path: string,
): Promise<void> {
  const value = Buffer.from(JSON.stringify(verification), 'utf8').toString('base64');
  await page.addInitScript(
    ({ key, value }) => {
      // Only once per tab: a reload keeps the session the app has since refreshed (or signed out of).
      if (sessionStorage.getItem('e2e-signed-in') === null) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('e2e-signed-in', '1');
      }
    },
    { key: SESSION_STORAGE_KEY, value },
  );
  await page.goto(server.origin + path);
}
