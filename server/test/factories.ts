import { randomBytes } from 'node:crypto';
import { hashPassword } from '#server/crypto/password-hash.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { saveRole } from '#server/features/admin/roles-service.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '#server/plugins/csrf.ts';
import { slidingExpiry } from '#server/plugins/session.ts';
import { ADMINISTRATOR_ROLE_ID } from '#server/store/roles.ts';
import { addUserRole, insertUser } from '#server/store/users.ts';
import { insertSession } from '#server/store/sessions.ts';
import type { TestApp } from './test-app.ts';

/*
 * Test data from factories (docs/architecture.md): a user with a role of the given links and per-table permissions,
 * and a live session made the way sign-in makes one, plus the XSRF cookie and header pair the server issued for
 * that session, so a test can call any endpoint as that user.
 */

/** The password every factory user has (it meets the spec's rules). */
export const TEST_PASSWORD = 'Test#12345';

/** CanInsert, CanUpdate and CanDelete on one table ("{db}/{schema}/{table}", its TableId). */
export interface TestPermission {
  table: string;
  canInsert?: boolean;
  canUpdate?: boolean;
  canDelete?: boolean;
}

export interface TestUserOptions {
  username?: string;
  /** Links of the user's own role (spec: '*', 'prefix/*' or an exact path). */
  links?: string[];
  permissions?: TestPermission[];
  /** Adds the built-in Administrator role. */
  isAdmin?: boolean;
}

/** A signed-in test user: `headers` carry the bearer token and a valid XSRF cookie/header pair. */
export interface TestUser {
  userId: number;
  username: string;
  token: string;
  /** The id of the session `token` opens. */
  sessionId: number;
  headers: Record<string, string>;
}

/** Creates a user, a role with the links and permissions (when any), and a live session. */
export async function buildUser(t: TestApp, options: TestUserOptions = {}): Promise<TestUser> {
  const { store } = t;
  const username = options.username ?? `user${randomBytes(4).toString('hex')}`;
  // The app's clock, so a session made here expires when the app (and a test that moves its time) says so.
  const now = t.clock.now();
  const userId = await insertUser(
    store.db,
    {
      username,
      email: `${username}@example.com`,
      passwordHash: await hashPassword(TEST_PASSWORD),
      isAdmin: options.isAdmin ?? false,
      emailVerified: true,
    },
    now.toISOString(),
  );
  const links = options.links ?? [];
  const permissions = options.permissions ?? [];
  if (links.length || permissions.length) {
    await buildRole(t, userId, { name: `role-${username}`, links, permissions });
  }
  if (options.isAdmin) await addUserRole(store.db, userId, ADMINISTRATOR_ROLE_ID);

  return { userId, username, ...(await newSession(t, userId)) };
}

/** Saves a role of the links and per-table permissions and gives it to the user, as an administrator's save of the
 * role does (admin/roles-service.ts saveRole). */
export async function buildRole(
  t: TestApp,
  userId: number,
  role: { name: string; links?: string[]; permissions?: TestPermission[] },
): Promise<void> {
  await saveRole(
    t.store,
    {
      Id: 0,
      Name: role.name,
      Role_Links: (role.links ?? []).map((link) => ({ Id: 0, RoleId: 0, Link: link })),
      Role_Permissions: (role.permissions ?? []).map((p) => ({
        Id: 0,
        RoleId: 0,
        TableId: p.table,
        CanInsert: p.canInsert ?? false,
        CanUpdate: p.canUpdate ?? false,
        CanDelete: p.canDelete ?? false,
      })),
      User_Roles: [{ Id: 0, UserId: userId, RoleId: 0 }],
    },
    userId,
  );
}

/** Another live session of a factory user, as a second sign-in (another device) makes one. */
export async function anotherSession(t: TestApp, user: TestUser): Promise<TestUser> {
  return { userId: user.userId, username: user.username, ...(await newSession(t, user.userId)) };
}

/** A live session of the user, stored as sign-in stores it (account/session-service.ts startSession, which needs a
 * request to answer), with its XSRF pair. */
async function newSession(
  t: TestApp,
  userId: number,
): Promise<Pick<TestUser, 'token' | 'sessionId' | 'headers'>> {
  const now = t.clock.now();
  const token = randomToken();
  const absoluteExpiresAt = new Date(now.getTime() + t.config.sessionMaxHours * 3_600_000).toISOString();
  const sessionId = await insertSession(
    t.store.db,
    {
      userId,
      tokenHash: sha256Hex(token),
      expiresAt: slidingExpiry(now, absoluteExpiresAt, t.config.sessionIdleMinutes),
      absoluteExpiresAt,
      resetPassword: false,
      method: 'Email',
      address: '127.0.0.1',
    },
    now.toISOString(),
  );
  const authorization = `Bearer ${token}`;
  return { token, sessionId, headers: await withXsrf(t, { authorization }) };
}

/** An administrator (the built-in Administrator role, link '*') with a live session. */
export function buildAdmin(t: TestApp, options: Omit<TestUserOptions, 'isAdmin'> = {}): Promise<TestUser> {
  return buildUser(t, { ...options, isAdmin: true });
}

/** Adds the XSRF cookie and header the server issues on a GET for these headers' session (or anonymous). */
export async function withXsrf(
  t: TestApp,
  headers: Record<string, string> = {},
): Promise<Record<string, string>> {
  const answer = await t.app.inject({ method: 'GET', url: '/api/setup', headers });
  const token = answer.cookies.find((c) => c.name === XSRF_COOKIE)?.value;
  if (!token)
    throw new Error(`GET /api/setup answered no ${XSRF_COOKIE} cookie (is the XSRF plugin registered?)`);
  return { ...headers, cookie: `${XSRF_COOKIE}=${token}`, [XSRF_HEADER]: token };
}
