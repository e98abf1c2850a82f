import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { migrateAppStore, openAppStore, type AppStore, type AppStoreTarget } from './app-store.ts';
import { migrations } from './migrations/index.ts';

const appTables = [
  'audit_log',
  'export_jobs',
  'one_time_codes',
  'role_links',
  'role_permissions',
  'roles',
  'sessions',
  'user_images',
  'user_roles',
  'users',
];

async function tableNames(store: AppStore): Promise<string[]> {
  const tables = await store.db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}

/** The same checks on each store: every migration applies, in order, once. */
async function checkMigrations(target: AppStoreTarget) {
  const store = openAppStore(target);
  try {
    const results = await migrateAppStore(store);
    expect(results.map((r) => [r.migrationName, r.status])).toEqual(
      Object.keys(migrations).map((name) => [name, 'Success']),
    );
    expect(await tableNames(store)).toEqual(expect.arrayContaining(appTables));

    // Built-in roles get Ids 1 to 3, and the next role gets 4 (the identity sequence moved on).
    const roles = await store.db
      .selectFrom('roles')
      .select(['id', 'name', 'is_admin', 'built_in'])
      .orderBy('id')
      .execute();
    expect(roles).toEqual([
      { id: 1, name: 'Administrator', is_admin: 1, built_in: 1 },
      { id: 2, name: 'User', is_admin: 0, built_in: 1 },
      { id: 3, name: 'Reader', is_admin: 0, built_in: 1 },
    ]);
    const added = await store.db
      .insertInto('roles')
      .values({ name: 'Sales' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(added.id).toBe(4);

    // Constraints hold: a duplicate username is refused, deleting a user cascades to its roles.
    const now = new Date().toISOString();
    const user = { username: 'ann', email: 'ann@example.com', created_at: now, updated_at: now };
    const { id } = await store.db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
    await expect(store.db.insertInto('users').values(user).execute()).rejects.toThrow();
    await store.db.insertInto('user_roles').values({ user_id: id, role_id: 2 }).execute();
    await store.db.deleteFrom('users').where('id', '=', id).execute();
    const left = await store.db
      .selectFrom('user_roles')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);

    // Running again applies nothing.
    expect(await migrateAppStore(store)).toEqual([]);
  } finally {
    await store.close();
  }
}

describe('app store migrations', () => {
  const dir = tempDir();
  let postgres: TestDatabase | undefined;
  afterAll(async () => {
    dir.remove();
    await postgres?.drop();
  });

  it('run on SQLite', async () => {
    await checkMigrations({ kind: 'sqlite', file: path.join(dir.path, 'app.db') });
  });

  it('run on PostgreSQL', async () => {
    postgres = await createPostgresDatabase('dbui_store');
    await checkMigrations({ kind: 'postgres', url: postgres.url });
  });
});
