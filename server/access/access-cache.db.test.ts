import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { markAccessChanged } from '#server/store/roles.ts';
import { accessCache } from './access-cache.ts';

/*
 * Users' rights are cached between calls (docs/decisions/0034-request-path.md) and must still change at the next
 * call after an administrator changes them, on the instance that made the change and on every other instance that
 * shares the app store; a lock ends the sessions at once everywhere.
 */

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const env = { SECRET_KEY: 'access-cache-secret-key-0123456789abcdef', REDIS_URL };

const folder = tempDir();
const file = path.join(folder.path, 'alpha.db');

async function alpha(): Promise<DatabaseEngine> {
  return connectDatabase('alpha', 'sqlite', `sqlite:${file}`, { statementTimeoutMs: 5_000, poolSize: 2 });
}

describe('cached rights on two instances sharing a PostgreSQL app store (and Redis)', () => {
  let store: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    const db = new Database(file);
    db.exec('create table things (id integer primary key, name text)');
    db.close();
    store = await createPostgresDatabase('dbui_store');
    const shared = { ...env, APP_DB_URL: store.url };
    first = await buildTestApp({ env: shared, databases: [await alpha()] });
    second = await buildTestApp({ env: shared, databases: [await alpha()] });
    admin = await buildAdmin(first);
    user = await buildUser(first, { links: ['/db/alpha'] });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await store?.drop();
    folder.remove();
  });

  const databasesSeen = async (t: TestApp) => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/sql', headers: user.headers });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: { name: string }[] }>().data.map((d) => d.name);
  };
  const setRoles = async (t: TestApp, roleIds: number[]) => {
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.userId}/roles`,
      headers: admin.headers,
      payload: { roleIds },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };

  it('a change of a user’s roles through one instance counts at the next call on both', async () => {
    // Both instances have the user's rights cached.
    expect(await databasesSeen(first)).toEqual(['alpha']);
    expect(await databasesSeen(second)).toEqual(['alpha']);
    const { role_id: ownRole } = await first.store.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', user.userId)
      .executeTakeFirstOrThrow();

    await setRoles(first, []);
    expect(await databasesSeen(second)).toEqual([]);
    expect(await databasesSeen(first)).toEqual([]);

    await setRoles(second, [ownRole]);
    expect(await databasesSeen(first)).toEqual(['alpha']);
    expect(await databasesSeen(second)).toEqual(['alpha']);
  });

  it('making a user an administrator through one instance counts at the next call on the other', async () => {
    const adminArea = (t: TestApp) =>
      t.app.inject({ method: 'GET', url: '/api/admin/users', headers: user.headers });
    expect((await adminArea(second)).statusCode).toBe(403);
    await setRoles(first, [1]);
    expect((await adminArea(second)).statusCode).toBe(200);
    await setRoles(second, [2]);
    expect((await adminArea(first)).statusCode).toBe(403);
  });

  it('a lock through one instance ends the session on the other at once', async () => {
    expect(
      (await second.app.inject({ method: 'GET', url: '/api/sql', headers: user.headers })).statusCode,
    ).toBe(200);
    const locked = await first.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.userId}/lock`,
      headers: admin.headers,
      payload: {},
    });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(
      (await second.app.inject({ method: 'GET', url: '/api/sql', headers: user.headers })).statusCode,
    ).toBe(401);
  });
});

describe('the access cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers from memory while the version is unchanged, and reads again once it changed', async () => {
    const user = await buildUser(t, {
      links: ['/db/alpha/*'],
      permissions: [{ table: 'alpha/main/things', canUpdate: true }],
    });
    const cache = accessCache(t.store);
    const read = await cache.of(user.userId, 'v1');
    expect(read).toMatchObject({ isAdmin: false, links: ['/db/alpha/*'] });
    expect(read.permissions.get('alpha/main/things')).toEqual({
      canInsert: false,
      canUpdate: true,
      canDelete: false,
    });
    // Not a promise: no read at all.
    expect(cache.of(user.userId, 'v1')).toBe(read);

    await t.store.db.deleteFrom('role_permissions').execute();
    await markAccessChanged(t.store.db);
    const again = await cache.of(user.userId, 'v2');
    expect(again).not.toBe(read);
    expect(again.permissions.size).toBe(0);
  });

  it('lets calls arriving together share one read', async () => {
    const user = await buildUser(t, { links: ['/db/beta'] });
    const cache = accessCache(t.store);
    const [a, b] = [cache.of(user.userId, 'v'), cache.of(user.userId, 'v')];
    expect(a).toBe(b);
    expect((await a).links).toEqual(['/db/beta']);
  });
});
