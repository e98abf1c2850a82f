import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '#common/contract/sql.ts';
import { ADMINISTRATOR_ROLE_ID, USER_ROLE_ID } from '#server/store/roles.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  quoteName,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * Mass assignment: fields a form never sends (isAdmin, roles, id, userId, passwordHash, locked, verification flags,
 * read-only columns) added to account, profile, role, user and row bodies are ignored or refused, never applied.
 * Covered elsewhere and not repeated here: the profile upsert ignoring isAdmin, roles, username, email, phone and the
 * verification flags (server/features/account/sessions.test.ts), the admin data calls refusing every users column
 * but names, the password-change flag and the lock (server/features/admin/app-data.test.ts), and an insert-only
 * user's body that names an existing row (server/features/sql/sql-api.db.test.ts).
 */

/** A fresh-looking user row, as the store holds what matters to rights and sign-in. */
async function accountState(t: TestApp, userId: number) {
  const user = await t.store.db
    .selectFrom('users')
    .select([
      'username',
      'email',
      'is_admin',
      'email_verified_at',
      'phone',
      'phone_verified_at',
      'totp_secret',
      'totp_verified_at',
      'password_hash',
      'password_expired',
      'failed_logins',
      'locked_until',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const roles = await t.store.db
    .selectFrom('user_roles')
    .select('role_id')
    .where('user_id', '=', userId)
    .orderBy('role_id')
    .execute();
  return { ...user, roles: roles.map((r) => r.role_id) };
}

/** Every field an attacker would add to a body that names or raises an account. */
const escalation = (victim: TestUser) => ({
  id: victim.userId,
  userId: victim.userId,
  user_id: victim.userId,
  isAdmin: true,
  is_admin: 1,
  IsAdmin: true,
  roles: [{ Id: ADMINISTRATOR_ROLE_ID }],
  User_Roles: [{ Id: 0, UserId: victim.userId, RoleId: ADMINISTRATOR_ROLE_ID }],
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$AAAA$BBBB',
  password_hash: 'x',
  locked: false,
  lockedUntil: null,
  locked_until: null,
  failedLogins: 0,
  passwordExpired: false,
  password_expired: 0,
  emailVerified: true,
  phoneVerified: true,
  totpVerified: true,
  totp_secret: 'JBSWY3DPEHPK3PXP',
});

describe('account, profile, password, role and user bodies', () => {
  let t: TestApp;
  let admin: TestUser;
  let victim: TestUser;

  const signedIn = (user: TestUser) => {
    const browser = new AccountClient(t);
    browser.token = user.token;
    return browser;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await buildAdmin(t);
    victim = await buildUser(t);
  });
  afterAll(() => t?.close());

  it('creates a plain, unconfirmed User at sign-up whatever else the body says', async () => {
    const browser = new AccountClient(t);
    const username = `mallory${Date.now() % 100_000}`;
    const answer = await browser.post('/api/account/signup', {
      ...escalation(victim),
      user: {
        ...escalation(victim),
        username,
        user_Details: [
          {
            ...escalation(victim),
            email: `${username}@example.com`,
            phone: '+15550000000',
            preferred2fa: 'Totp',
          },
        ],
      },
      password: 'Tr7#kQ2vLm',
      token: await browser.humanCheck(),
    });
    expectNoLeak(answer.response);
    expect(answer.status, answer.message ?? '').toBe(200);
    const created = await t.store.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    expect(created.id).not.toBe(victim.userId);
    const state = await accountState(t, created.id);
    expect(state).toMatchObject({
      is_admin: 0,
      email_verified_at: null,
      phone: null,
      phone_verified_at: null,
      totp_secret: null,
      totp_verified_at: null,
      roles: [USER_ROLE_ID],
    });
    expect(state.password_hash).toMatch(/^\$argon2id\$/);
    expect(state.password_hash).not.toBe(escalation(victim).passwordHash);
  });

  it("changes only the caller's own profile, never another account or a right", async () => {
    const mallory = await buildUser(t);
    const victimBefore = await accountState(t, victim.userId);
    const malloryBefore = await accountState(t, mallory.userId);
    const browser = signedIn(mallory);
    const answer = await browser.post('/api/account', {
      ...escalation(victim),
      user_Details: [{ ...escalation(victim), firstName: 'Mal', email: 'x@evil.test' }],
    });
    expectNoLeak(answer.response);
    expect(answer.status, answer.message ?? '').toBe(200);
    expect(answer.data).toMatchObject({ id: mallory.userId, isAdmin: false });
    expect(await accountState(t, mallory.userId)).toEqual(malloryBefore);
    expect(await accountState(t, victim.userId)).toEqual(victimBefore);
    const victimNames = await t.store.db
      .selectFrom('users')
      .select('first_name')
      .where('id', '=', victim.userId)
      .executeTakeFirstOrThrow();
    expect(victimNames.first_name).toBeNull();

    const preferred = await browser.post('/api/account/preferred2fa', {
      ...escalation(victim),
      preferred2fa: 'Email',
    });
    expect(preferred.status, preferred.message ?? '').toBe(200);
    expect(await accountState(t, victim.userId)).toEqual(victimBefore);
  });

  it('keeps a password change an administrator forced, whatever a body says', async () => {
    const forced = await buildUser(t);
    await t.store.db
      .updateTable('users')
      .set({ password_expired: 1 })
      .where('id', '=', forced.userId)
      .execute();
    const before = await accountState(t, forced.userId);
    const browser = signedIn(forced);
    // The profile is refused until the password is changed, or takes only names: either way the flag stays.
    for (const url of ['/api/account', '/api/account/preferred2fa']) {
      const answer = await browser.post(url, { ...escalation(forced), preferred2fa: 'Email' });
      expectNoLeak(answer.response);
      expect([200, 403], answer.message ?? '').toContain(answer.status);
    }
    expect(await accountState(t, forced.userId)).toEqual(before);
    const verify = await browser.get<{ user: { passwordExpired: boolean } }>('/api/account/verify');
    expect(verify.data.user.passwordExpired).toBe(true);
  });

  it("sets only the caller's own password, and re-authenticates only the caller's own session", async () => {
    const mallory = await buildUser(t);
    const victimBefore = await accountState(t, victim.userId);
    const browser = signedIn(mallory);
    const changed = await browser.post('/api/account/updatePassword', {
      ...escalation(victim),
      username: (await accountState(t, victim.userId)).username,
      password: 'Zq8#vLm3Rt',
    });
    expect(changed.status, changed.message ?? '').toBe(200);
    expect(await accountState(t, victim.userId)).toEqual(victimBefore);
    expect((await accountState(t, mallory.userId)).password_hash).not.toBe(victimBefore.password_hash);

    // An old session of the victim: re-authentication by mallory must not make it recent.
    t.clock.advance(11 * 60_000);
    try {
      const reauth = await browser.post('/api/account/reauth', {
        ...escalation(victim),
        sessionId: 1,
        password: 'Zq8#vLm3Rt',
      });
      expect(reauth.status, reauth.message ?? '').toBe(200);
      const victimCall = await t.app.inject({
        method: 'POST',
        url: '/api/account/recovery-codes',
        headers: victim.headers,
      });
      expect(victimCall.statusCode, victimCall.body).toBe(403);
    } finally {
      t.clock.advance(-11 * 60_000);
    }
  });

  it('saves a role as its fields say, ignoring IsAdmin, IsBuiltIn, other roles’ ids and user names', async () => {
    const member = await buildUser(t);
    const other = await buildUser(t, { links: ['/db/other/*'] });
    const otherRole = await t.store.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', other.userId)
      .executeTakeFirstOrThrow();
    const otherBefore = await t.app.inject({
      method: 'GET',
      url: `/api/admin/roles/${otherRole.role_id}`,
      headers: admin.headers,
    });
    const memberName = (await accountState(t, member.userId)).username;
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/admin/roles',
      headers: admin.headers,
      payload: {
        Id: 0,
        Name: 'Readers of x',
        IsAdmin: true,
        IsBuiltIn: true,
        isAdmin: true,
        Role_Links: [{ Id: 0, RoleId: otherRole.role_id, Link: '/db/x/*' }],
        Role_Permissions: [
          {
            Id: 0,
            RoleId: otherRole.role_id,
            TableId: 'x/main/t',
            CanInsert: true,
            CanUpdate: false,
            CanDelete: false,
          },
        ],
        User_Roles: [{ Id: 0, UserId: member.userId, RoleId: ADMINISTRATOR_ROLE_ID, Username: 'renamed' }],
      },
    });
    expectNoLeak(saved);
    expect(saved.statusCode, saved.body).toBe(200);
    const role = saved.json<{ data: { Id: number; IsAdmin: boolean; IsBuiltIn: boolean } }>().data;
    expect(role).toMatchObject({ IsAdmin: false, IsBuiltIn: false });
    expect(role.Id).not.toBe(otherRole.role_id);
    // The member is in the new role only: not an administrator, not renamed.
    expect(await accountState(t, member.userId)).toMatchObject({
      username: memberName,
      is_admin: 0,
      roles: [role.Id],
    });
    const verify = await t.app.inject({ method: 'GET', url: '/api/account/verify', headers: member.headers });
    expect(verify.json<{ data: { user: { isAdmin: boolean } } }>().data.user.isAdmin).toBe(false);
    // The other role kept its links and permissions.
    const otherAfter = await t.app.inject({
      method: 'GET',
      url: `/api/admin/roles/${otherRole.role_id}`,
      headers: admin.headers,
    });
    expect(otherAfter.json()).toEqual(otherBefore.json());
    // Not built in: it can be deleted.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/roles/${role.Id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('refuses a role row that sets is_admin or built_in through the admin data calls', async () => {
    for (const row of [
      { name: 'Sneaky', is_admin: true },
      { name: 'Sneaky', built_in: true },
    ]) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/admin/app/main/roles',
        headers: admin.headers,
        payload: row,
      });
      expectNoLeak(answer);
      expect(answer.statusCode, answer.body).toBe(400);
    }
    const sneaky = await t.store.db.selectFrom('roles').select('id').where('name', '=', 'Sneaky').execute();
    expect(sneaky).toEqual([]);
  });
});

/** A table with an identity key and a computed column on each engine (its names hostile too). */
const LEDGER = 'ledger "owned"';
const COMPUTED = 'twice"; --';

function ledgerSql(kind: string, q: (name: string) => string): string {
  const computed = q(COMPUTED);
  switch (kind) {
    case 'postgres':
      return `CREATE TABLE ${q(LEDGER)} (id integer generated by default as identity primary key, amount integer not null, ${computed} integer generated always as (amount * 2) stored)`;
    case 'mysql':
      return `CREATE TABLE ${q(LEDGER)} (id integer auto_increment primary key, amount integer not null, ${computed} integer as (amount * 2) virtual)`;
    default:
      return `CREATE TABLE ${q(LEDGER)} (id integer primary key, amount integer not null, ${computed} integer generated always as (amount * 2) virtual)`;
  }
}

describe.each(securityEngines)('row bodies on %s', (kind) => {
  let target: SecurityTarget;
  let writer: TestUser;
  let ledgerId: number;

  const write = (user: TestUser, table: string, body: object, rest = ''): Promise<LightMyRequestResponse> =>
    target.t.app.inject({
      method: 'POST',
      url: target.apiPath(table, rest),
      headers: user.headers,
      payload: body,
    });

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    const q = (name: string) => quoteName(kind, name);
    await target.run(ledgerSql(kind, q));
    await target.run(`INSERT INTO ${q(LEDGER)} (amount) VALUES (10)`);
    await target.engine.catalog({ refresh: true });
    const rows = (await target.run(`SELECT id FROM ${q(LEDGER)}`)) as { id: number | string }[];
    ledgerId = Number(rows[0]?.id);
    // Every right on the ledger and on `it's`, by the TableIds the administration API names.
    const tables = await target.t.app.inject({
      method: 'GET',
      url: '/api/admin/tables',
      headers: target.admin.headers,
    });
    const ids = tables
      .json<{ data: { TableId: string; name: string }[] }>()
      .data.filter((entry) => entry.name === LEDGER || entry.name === "it's")
      .map((entry) => entry.TableId);
    expect(ids).toHaveLength(2);
    writer = await buildUser(target.t, {
      links: [`/db/${target.database}/*`],
      permissions: ids.map((table) => ({ table, canInsert: true, canUpdate: true, canDelete: true })),
    });
  });
  afterAll(async () => {
    if (!target) return;
    await expectHealthy(target);
    await target.close();
  });

  it('refuses a column the table does not have, naming it, and writes nothing', async () => {
    await expectNoSideEffect(
      target,
      async () => {
        for (const extra of ['isAdmin', 'userId', 'user_id', 'passwordHash', 'roles', 'locked']) {
          for (const body of [
            { id: 500, name: 'new', note: 'n', [extra]: true },
            { id: 1, note: 'changed', [extra]: 1 },
            { amount: 1, [extra]: 'x' },
          ]) {
            const table = 'amount' in body ? LEDGER : "it's";
            const answer = await write(writer, table, body);
            expectNoLeak(answer);
            expect(answer.statusCode, answer.body).toBe(400);
            expect(answer.json<{ message: string }>().message).toContain(extra);
          }
        }
      },
      { extraTables: [LEDGER], except: ['audit_log'] },
    );
  });

  it('refuses the identity and a computed column in a new row or a change, and writes nothing', async () => {
    await expectNoSideEffect(
      target,
      async () => {
        for (const body of [
          { id: 9000, amount: 1 },
          { amount: 1, [COMPUTED]: 99 },
          { id: ledgerId, amount: 10, [COMPUTED]: 99 },
        ]) {
          const answer = await write(writer, LEDGER, body);
          expectNoLeak(answer);
          expect([400, 404], answer.body).toContain(answer.statusCode);
        }
      },
      { extraTables: [LEDGER], except: ['audit_log'] },
    );
    // A change that repeats the computed value as read is a whole row sent back: allowed, and computed anew.
    const saved = await write(writer, LEDGER, { id: ledgerId, amount: 21, [COMPUTED]: 20 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: Row }>().data).toMatchObject({ amount: 21, [COMPUTED]: 42 });
    await target.expectCanaryIntact();
  });
});
