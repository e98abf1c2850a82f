import SQLite from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#common/contract/admin.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

const newRole = (name: string, extra: Partial<Role> = {}): Role => ({
  Id: 0,
  Name: name,
  Role_Links: [{ Id: 0, RoleId: 0, Link: '/db/shop/*' }],
  Role_Permissions: [],
  User_Roles: [],
  ...extra,
});

describe('the administration API', () => {
  const dir = tempDir();
  let t: TestApp;
  let admin: TestUser;
  let clerk: TestUser;

  beforeAll(async () => {
    const file = path.join(dir.path, 'shop.db');
    const db = new SQLite(file);
    db.exec(
      'create table orders (id integer primary key, customer varchar(50)); create table notes (id integer primary key, body text)',
    );
    db.close();
    t = await buildTestApp({ databases: [await connectDatabase('shop', 'sqlite', `sqlite:${file}`)] });
    admin = await buildAdmin(t, { username: 'boss' });
    clerk = await buildUser(t, { username: 'clerk', links: ['/db/shop/main/orders'] });
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, user: TestUser | null, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('is for administrators only', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/roles'],
      ['GET', '/api/admin/roles/1'],
      ['GET', '/api/admin/tables'],
    ] as const) {
      expect((await call(method, url, null)).statusCode, url).toBe(401);
      const refused = await call(method, url, clerk);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({
        isSuccess: false,
        data: null,
        message: 'Only administrators can do that.',
      });
    }
  });

  it('lists users sorted by id, paged and searchable by username', async () => {
    const all = await call('GET', '/api/admin/users', admin);
    expect(all.statusCode).toBe(200);
    const { results, count } = all.json().data;
    expect(count).toBe(2);
    expect(results.map((u: { username: string }) => u.username)).toEqual(['boss', 'clerk']);
    expect(results[0]).toMatchObject({ isAdmin: true, roles: [{ Id: 1, Name: 'Administrator' }] });
    expect(JSON.stringify(results)).not.toMatch(/argon2|password_hash|token/i);
    const found = await call('GET', '/api/admin/users?username=CLE', admin);
    expect(found.json().data).toMatchObject({ count: 1, results: [{ username: 'clerk', isAdmin: false }] });
    const paged = await call('GET', '/api/admin/users?page=2&pageSize=1', admin);
    expect(paged.json().data.results.map((u: { username: string }) => u.username)).toEqual(['clerk']);
    const bad = await call('GET', '/api/admin/users?page=0', admin);
    expect(bad.statusCode).toBe(400);
  });

  it('lists the tables of every database with their TableId', async () => {
    const tables = (await call('GET', '/api/admin/tables', admin)).json().data;
    expect(tables).toEqual([
      { TableId: 'shop/main/notes', database: 'shop', schema: 'main', name: 'notes', isView: false },
      { TableId: 'shop/main/orders', database: 'shop', schema: 'main', name: 'orders', isView: false },
    ]);
  });

  it('creates, reads, updates and deletes a role with links, permissions and users in one go', async () => {
    const created = await call(
      'POST',
      '/api/admin/roles',
      admin,
      newRole('Sales team', {
        Role_Permissions: [
          { Id: 0, TableId: 'shop/main/orders', CanInsert: true, CanUpdate: false, CanDelete: false },
        ],
        User_Roles: [{ Id: 0, UserId: clerk.userId, RoleId: 0 }],
      }),
    );
    expect(created.statusCode).toBe(200);
    const role: Role = created.json().data;
    expect(role.Id).toBeGreaterThan(3);
    expect(role).toMatchObject({
      Name: 'Sales team',
      IsBuiltIn: false,
      Role_Links: [{ RoleId: role.Id, Link: '/db/shop/*' }],
      Role_Permissions: [
        { TableId: 'shop/main/orders', CanInsert: true, CanUpdate: false, CanDelete: false },
      ],
      User_Roles: [{ UserId: clerk.userId, RoleId: role.Id, Username: 'clerk' }],
    });
    expect((await call('GET', `/api/admin/roles/${role.Id}`, admin)).json().data).toEqual(role);
    const listed = (await call('GET', '/api/admin/roles?name=sales', admin)).json().data;
    expect(listed).toEqual({
      count: 1,
      results: [{ Id: role.Id, Name: 'Sales team', IsAdmin: false, IsBuiltIn: false, Links: 1, Users: 1 }],
    });

    // The clerk's rights change at the next call: the role's link shows the notes table now.
    const verify = await call('GET', '/api/account/verify', clerk);
    expect(verify.json().data.links).toEqual(expect.arrayContaining(['/db/shop/*', '/db/shop/main/orders']));

    const updated = await call('POST', '/api/admin/roles', admin, {
      ...role,
      Name: 'Sales',
      Role_Permissions: [],
      User_Roles: [],
    });
    expect(updated.json().data).toMatchObject({
      Id: role.Id,
      Name: 'Sales',
      Role_Permissions: [],
      User_Roles: [],
    });
    expect((await call('GET', '/api/account/verify', clerk)).json().data.links).toEqual([
      '/db/shop/main/orders',
    ]);

    const deleted = await call('DELETE', `/api/admin/roles/${role.Id}`, admin);
    expect(deleted.json()).toEqual({ isSuccess: true, data: null, message: 'Successfully deleted role.' });
    expect((await call('GET', `/api/admin/roles/${role.Id}`, admin)).statusCode).toBe(404);

    const audit = await t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', 'like', 'admin.role.%')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['admin.role.created', 'admin.role.updated', 'admin.role.deleted']),
    );
  });

  it("ends a deleted role's rights at the user's next call", async () => {
    const reader = await buildUser(t, { username: 'temp' });
    const created = await call(
      'POST',
      '/api/admin/roles',
      admin,
      newRole('Temporary', { User_Roles: [{ Id: 0, UserId: reader.userId, RoleId: 0 }] }),
    );
    const roleId = created.json().data.Id;
    expect((await call('GET', '/api/account/verify', reader)).json().data.links).toEqual(['/db/shop/*']);
    expect((await call('GET', '/api/sql/shop/main/orders/page/1', reader)).statusCode).toBe(200);
    await call('DELETE', `/api/admin/roles/${roleId}`, admin);
    expect((await call('GET', '/api/account/verify', reader)).json().data.links).toEqual([]);
    expect((await call('GET', '/api/sql/shop/main/orders/page/1', reader)).statusCode).toBe(403);
  });

  it('refuses what breaks the role rules, with the message saying which', async () => {
    const refuse = async (role: Role, status: number, message: string) => {
      const answer = await call('POST', '/api/admin/roles', admin, role);
      expect(answer.statusCode, message).toBe(status);
      expect(answer.json().message).toBe(message);
    };
    await refuse(
      newRole('Dup links', {
        Role_Links: [
          { Id: 0, RoleId: 0, Link: '/a' },
          { Id: 0, RoleId: 0, Link: '/a' },
        ],
      }),
      400,
      'Some links are duplicates.',
    );
    await refuse(
      newRole('Twice', {
        User_Roles: [
          { Id: 0, UserId: clerk.userId, RoleId: 0 },
          { Id: 0, UserId: clerk.userId, RoleId: 0 },
        ],
      }),
      400,
      'A user can be added to a role only once.',
    );
    await refuse(
      newRole('Uncovered', {
        Role_Permissions: [
          { Id: 0, TableId: 'crm/public/leads', CanInsert: true, CanUpdate: true, CanDelete: true },
        ],
      }),
      400,
      "The table crm/public/leads is not covered by this role's links.",
    );
    await refuse(
      newRole('Ghost', { User_Roles: [{ Id: 0, UserId: 9999, RoleId: 0 }] }),
      400,
      'There is no user with Id 9999.',
    );
    await refuse(newRole('Bad/name'), 400, 'Name: Role name may use only letters, digits, spaces, _ and -.');
    await refuse(newRole(''), 400, 'Name: Role name is required.');
    await refuse(newRole('Administrator'), 409, 'Another role already has that name.');
    await refuse(
      { ...newRole('Administrator'), Id: 1, Role_Links: [{ Id: 0, RoleId: 1, Link: '/db/*' }] },
      400,
      'The Administrator role must keep its * link and at least one user.',
    );
    await refuse({ ...newRole('Renamed'), Id: 2 }, 400, 'Built-in roles keep their names.');
    await refuse({ ...newRole('Nobody'), Id: 999 }, 404, 'That role was not found.');
    const builtIn = await call('DELETE', '/api/admin/roles/3', admin);
    expect(builtIn.statusCode).toBe(400);
    expect(builtIn.json().message).toBe('Built-in roles (Id 1 to 3) cannot be deleted.');
  });
});
