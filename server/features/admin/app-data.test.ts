import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * The spec's generic admin data calls (000 §7 "Admin data") on the app store: db `app`, schema `main`, a fixed
 * allow-list of tables and columns, the role rules of roles-service, every change audited, secrets never answered.
 */

type AppRow = Record<string, string | number | boolean | null>;

describe('the generic admin data calls', () => {
  let t: TestApp;
  let admin: TestUser;
  let clerk: TestUser;

  const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const get = (table: string, id: number, user: TestUser | null = admin) =>
    call('GET', `/api/admin/app/main/${table}/${id}`, user);
  const upsert = (table: string, row: AppRow, user: TestUser | null = admin) =>
    call('POST', `/api/admin/app/main/${table}`, user, row);
  const remove = (table: string, row: AppRow, user: TestUser | null = admin) =>
    call('POST', `/api/admin/app/main/${table}/delete`, user, row);
  const ok = async (answer: Awaited<ReturnType<typeof call>>) => {
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: AppRow; message: string | null }>().data;
  };
  const refused = (answer: Awaited<ReturnType<typeof call>>, status: number, message: string) => {
    expect(answer.statusCode, answer.body).toBe(status);
    expect(answer.json()).toEqual({ isSuccess: false, data: null, message });
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await buildAdmin(t, { username: 'boss' });
    clerk = await buildUser(t, { username: 'clerk', links: ['/db/shop/main/orders'] });
    // Secrets the calls must never answer.
    await t.store.db
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_pending_secret: 'PENDINGSECRET' })
      .where('id', '=', clerk.userId)
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is for administrators only', async () => {
    const anonymous = await withXsrf(t);
    for (const [method, url] of [
      ['GET', `/api/admin/app/main/users/${clerk.userId}`],
      ['POST', '/api/admin/app/main/roles'],
      ['POST', '/api/admin/app/main/roles/delete'],
    ] as const) {
      const payload = method === 'POST' ? { id: 1 } : undefined;
      const signedOut = await t.app.inject({
        method,
        url,
        headers: anonymous,
        ...(payload ? { payload } : {}),
      });
      expect(signedOut.statusCode, url).toBe(401);
      refused(await call(method, url, clerk, payload), 403, 'Only administrators can do that.');
    }
  });

  it('answers a user without any secret', async () => {
    const user = await ok(await get('users', clerk.userId));
    expect(user).toEqual({
      id: clerk.userId,
      username: 'clerk',
      email: 'clerk@example.com',
      first_name: null,
      last_name: null,
      created_at: expect.any(String),
      password_expired: false,
      locked_until: null,
    });
    const text = JSON.stringify(user);
    expect(text).not.toMatch(/argon2|hash|secret|totp|token|JBSWY3DP|PENDING/i);
  });

  it('refuses every other table, database and schema the same way', async () => {
    for (const url of [
      '/api/admin/app/main/sessions/1',
      '/api/admin/app/main/one_time_codes/1',
      '/api/admin/app/main/recovery_codes/1',
      '/api/admin/app/main/settings/1',
      '/api/admin/app/main/passkeys/1',
      '/api/admin/app/main/audit_log/1',
      '/api/admin/app/main/constructor/1',
      '/api/admin/shop/main/orders/1',
      '/api/admin/app/public/users/1',
    ]) {
      refused(await call('GET', url, admin), 404, 'That table cannot be edited here.');
    }
    refused(await upsert('sessions', { id: 1, revoked_at: null }), 404, 'That table cannot be edited here.');
    refused(await remove('settings', { id: 1 }), 404, 'That table cannot be edited here.');
    refused(await get('users', 99_999), 404, 'That row was not found.');
  });

  it('lets an administrator correct names, force a password change and unlock, nothing else', async () => {
    const before = await ok(await get('users', clerk.userId));
    const saved = await ok(
      await upsert('users', { ...before, first_name: ' Clara ', last_name: 'Clerk', password_expired: true }),
    );
    expect(saved).toMatchObject({ first_name: 'Clara', last_name: 'Clerk', password_expired: true });
    // The forced change shows at the clerk's next call.
    const verify = await call('GET', '/api/account/verify', clerk);
    expect(verify.json().data.user).toMatchObject({ passwordExpired: true });

    await t.store.db
      .updateTable('users')
      .set({ locked_until: '2999-01-01T00:00:00.000Z', failed_logins: 3 })
      .where('id', '=', clerk.userId)
      .execute();
    expect(await ok(await get('users', clerk.userId))).toMatchObject({
      locked_until: '2999-01-01T00:00:00.000Z',
    });
    expect(await ok(await upsert('users', { id: clerk.userId, locked_until: null }))).toMatchObject({
      locked_until: null,
    });
    const stored = await t.store.db
      .selectFrom('users')
      .select(['failed_logins', 'password_hash'])
      .where('id', '=', clerk.userId)
      .executeTakeFirstOrThrow();
    expect(stored.failed_logins).toBe(0);
    expect(stored.password_hash).toMatch(/^\$argon2/);

    refused(
      await upsert('users', { id: clerk.userId, password_hash: 'x' }),
      400,
      'password_hash is not a column of users that can be edited here.',
    );
    refused(
      await upsert('users', { id: clerk.userId, totp_secret: null }),
      400,
      'totp_secret is not a column of users that can be edited here.',
    );
    refused(
      await upsert('users', { id: clerk.userId, username: 'boss2' }),
      400,
      'username cannot be changed here.',
    );
    refused(
      await upsert('users', { id: clerk.userId, locked_until: 'soon' }),
      400,
      'locked_until: locked_until must be an ISO instant or null.',
    );
    refused(await upsert('users', { username: 'new' }), 400, 'Rows of users cannot be added here.');
    refused(await remove('users', { id: clerk.userId }), 400, 'Rows of users cannot be deleted here.');

    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'detail'])
      .where('action', '=', 'admin.data.update')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, a.target])).toEqual([
      ['admin.data.update', '/admin/app/main/users'],
      ['admin.data.update', '/admin/app/main/users'],
    ]);
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toMatchObject({
      key: { id: clerk.userId },
      before: { first_name: null, password_expired: false },
      after: { first_name: 'Clara', password_expired: true },
    });
    expect(audit.map((a) => a.detail).join()).not.toMatch(/argon2|JBSWY3DP/);
  });

  it('edits roles by the same rules as a whole role', async () => {
    const role = await ok(await upsert('roles', { name: 'Auditors' }));
    expect(role).toEqual({ id: expect.any(Number), name: 'Auditors', is_admin: false, built_in: false });
    const roleId = Number(role.id);
    refused(await upsert('roles', { name: 'Administrator' }), 409, 'Another role already has that name.');
    refused(await upsert('roles', { id: 2, name: 'Users' }), 400, 'Built-in roles keep their names.');
    refused(await upsert('roles', { id: roleId, is_admin: true }), 400, 'is_admin cannot be changed here.');
    refused(
      await upsert('roles', { name: 'Bad/name' }),
      400,
      'name: Role name may use only letters, digits, spaces, _ and -.',
    );
    refused(await remove('roles', { id: 1 }), 400, 'Built-in roles (Id 1 to 3) cannot be deleted.');

    const link = await ok(await upsert('role_links', { role_id: roleId, link: '/db/shop/*' }));
    expect(link).toEqual({ id: expect.any(Number), role_id: roleId, link: '/db/shop/*' });
    refused(
      await upsert('role_links', { role_id: roleId, link: '/db/shop/*' }),
      400,
      'Some links are duplicates.',
    );
    refused(await upsert('role_links', { role_id: 9999, link: '/x' }), 400, 'There is no role with Id 9999.');

    refused(
      await upsert('role_permissions', { role_id: roleId, table_id: 'crm/public/leads', can_insert: true }),
      400,
      "The table crm/public/leads is not covered by this role's links.",
    );
    const permission = await ok(
      await upsert('role_permissions', { role_id: roleId, table_id: 'shop/main/orders', can_update: true }),
    );
    expect(permission).toMatchObject({ table_id: 'shop/main/orders', can_insert: false, can_update: true });
    expect(
      await ok(await upsert('role_permissions', { id: Number(permission.id), can_delete: 1 })),
    ).toMatchObject({
      can_update: true,
      can_delete: true,
    });
    // A link the permission needs cannot go first.
    refused(
      await remove('role_links', { id: Number(link.id) }),
      400,
      "The table shop/main/orders is not covered by this role's links.",
    );

    const membership = await ok(await upsert('user_roles', { user_id: clerk.userId, role_id: roleId }));
    const verify = await call('GET', '/api/account/verify', clerk);
    expect(verify.json().data.links).toEqual(expect.arrayContaining(['/db/shop/*']));
    refused(
      await upsert('user_roles', { user_id: clerk.userId, role_id: roleId }),
      400,
      'A user can be added to a role only once.',
    );
    refused(
      await upsert('user_roles', { user_id: 9999, role_id: roleId }),
      400,
      'There is no user with Id 9999.',
    );
    refused(
      await upsert('user_roles', { id: Number(membership.id), role_id: 2 }),
      400,
      'Rows of user_roles cannot be changed here: delete the row and add it again.',
    );
    expect(await ok(await remove('user_roles', membership))).toEqual(membership);

    // Nobody locks everyone out: the Administrator role keeps its * link and a user.
    const adminLink = await t.store.db
      .selectFrom('role_links')
      .select('id')
      .where('role_id', '=', 1)
      .executeTakeFirstOrThrow();
    refused(
      await remove('role_links', { id: adminLink.id }),
      400,
      'The Administrator role must keep its * link and at least one user.',
    );
    const adminMembership = await t.store.db
      .selectFrom('user_roles')
      .select('id')
      .where('role_id', '=', 1)
      .executeTakeFirstOrThrow();
    refused(
      await remove('user_roles', { id: adminMembership.id }),
      400,
      'The Administrator role must keep its * link and at least one user.',
    );

    expect(await ok(await remove('roles', { id: roleId }))).toEqual(role);
    refused(await get('roles', roleId), 404, 'That row was not found.');
    const actions = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', 'like', 'admin.data.%')
      .where('target', '!=', '/admin/app/main/users')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => `${a.action} ${a.target}`)).toEqual([
      'admin.data.insert /admin/app/main/roles',
      'admin.data.insert /admin/app/main/role_links',
      'admin.data.insert /admin/app/main/role_permissions',
      'admin.data.update /admin/app/main/role_permissions',
      'admin.data.insert /admin/app/main/user_roles',
      'admin.data.delete /admin/app/main/user_roles',
      'admin.data.delete /admin/app/main/roles',
    ]);
  });

  it('leaves the fixed admin routes to themselves', async () => {
    // /api/admin/roles/1 is the whole role of the spec's entities, not a row of the generic calls.
    const whole = await call('GET', '/api/admin/roles/1', admin);
    expect(whole.json().data).toMatchObject({ Id: 1, Name: 'Administrator', Role_Links: [{ Link: '*' }] });
    expect(await ok(await get('roles', 1))).toEqual({
      id: 1,
      name: 'Administrator',
      is_admin: true,
      built_in: true,
    });
    expect((await call('GET', '/api/admin/audit?pageSize=1', admin)).statusCode).toBe(200);
    refused(
      await call('POST', '/api/admin/audit/main/roles', admin, { name: 'x' }),
      404,
      'That table cannot be edited here.',
    );
  });
});
