import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { linkMatcher, tablePath } from '#common/links.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { migrateAppStore, openAppStore, type AppStoreTarget } from './app-store.ts';
import { migrations } from './migrations/index.ts';
import type { AppDatabase } from './schema.ts';

/*
 * 0008-link-segments on both app stores: links, TableIds and audit targets stored raw by an older version are
 * rewritten with each name one encoded segment, read the way the old matcher read them; plain ones are untouched.
 */

const BEFORE = '0006-audit';

async function migrateTo(db: Kysely<AppDatabase>, name: string) {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'dbui_migrations',
    migrationLockTableName: 'dbui_migrations_lock',
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}

async function checkMigration(target: AppStoreTarget) {
  const store = openAppStore(target);
  try {
    await migrateTo(store.db, BEFORE);
    const { id: roleId } = await store.db
      .insertInto('roles')
      .values({ name: 'legacy' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const legacyLinks = [
      '/db/shop/*',
      '/db/pg/pub/x/*',
      '/db/x/main/two words',
      '/db/x/main/star*',
      '/db/x/main/per%cent',
      '/a/',
      '/a',
      '/db/y/main/a b',
      '/db/y/main/a%20b',
    ];
    await store.db
      .insertInto('role_links')
      .values(legacyLinks.map((link) => ({ role_id: roleId, link })))
      .execute();
    await store.db
      .insertInto('role_permissions')
      .values(
        ['shop/main/orders', 'x/main/two words', 'pg/pub/x/secret2', 'y/main/a b', 'y/main/a%20b'].map(
          (table_id) => ({ role_id: roleId, table_id, can_insert: 1, can_update: 0, can_delete: 0 }),
        ),
      )
      .execute();
    const at = new Date().toISOString();
    const targets = [
      '/db/shop/main/orders',
      '/db/x/main/two words',
      '/db/pg/pub/x/secret2',
      '/db/x/main/ünï',
      '/db/x',
      '/admin/app/main/role_links',
      'role:4',
    ];
    await store.db
      .insertInto('audit_log')
      .values(targets.map((target) => ({ at, action: 'data.update', target })))
      .execute();

    await migrateAppStore(store);

    const links = await store.db
      .selectFrom('role_links')
      .select('link')
      .where('role_id', '=', roleId)
      .orderBy('id')
      .execute();
    expect(links.map((l) => l.link)).toEqual([
      '/db/shop/*',
      '/db/pg/pub/x/*',
      '/db/x/main/two%20words',
      '/db/x/main/star%2A',
      '/db/x/main/per%25cent',
      '/a',
      '/db/y/main/a%20b',
      '/db/y/main/a%2520b',
    ]);
    // Each migrated link allows what the old matcher allowed of it, read one way, and no new table.
    const allows = linkMatcher(links.map((l) => l.link));
    expect(allows.path(tablePath('x', 'main', 'two words'))).toBe(true);
    expect(allows.path(tablePath('x', 'main', 'star*'))).toBe(true);
    expect(allows.path(tablePath('x', 'main', 'starry'))).toBe(false);
    expect(allows.path(tablePath('x', 'main', 'per%cent'))).toBe(true);
    expect(allows.path(tablePath('y', 'main', 'a b'))).toBe(true);
    expect(allows.path(tablePath('y', 'main', 'a%20b'))).toBe(true);
    expect(allows.path(tablePath('pg', 'pub', 'x/secret2'))).toBe(false);
    expect(allows.path(tablePath('pg', 'pub/x', 'secret2'))).toBe(false);

    const permissions = await store.db
      .selectFrom('role_permissions')
      .select(['table_id', 'can_insert'])
      .where('role_id', '=', roleId)
      .orderBy('id')
      .execute();
    expect(permissions).toEqual(
      ['shop/main/orders', 'x/main/two%20words', 'pg/pub/x%2Fsecret2', 'y/main/a%20b', 'y/main/a%2520b'].map(
        (table_id) => ({ table_id, can_insert: 1 }),
      ),
    );

    const audited = await store.db.selectFrom('audit_log').select('target').orderBy('id').execute();
    expect(audited.map((a) => a.target)).toEqual([
      '/db/shop/main/orders',
      '/db/x/main/two%20words',
      '/db/pg/pub/x%2Fsecret2',
      '/db/x/main/%C3%BCn%C3%AF',
      '/db/x',
      '/admin/app/main/role_links',
      'role:4',
    ]);

    // The built-in roles' links are plain and stay as they were.
    const builtIn = await store.db
      .selectFrom('role_links')
      .select('link')
      .where('role_id', '<=', 3)
      .orderBy('id')
      .execute();
    expect(builtIn.map((l) => l.link)).toEqual(['*', '/account/*', '/account', '/contact-us', '/db/*']);

    // A link longer than the old columns held fits now (PostgreSQL enforced varchar(500)).
    const long = `/db/x/main/${'%C3%A9'.repeat(300)}`;
    await store.db.insertInto('role_links').values({ role_id: roleId, link: long }).execute();
  } finally {
    await store.close();
  }
}

describe('0008-link-segments', () => {
  const dir = tempDir();
  let postgres: TestDatabase | undefined;
  afterAll(async () => {
    dir.remove();
    await postgres?.drop();
  });

  it('rewrites raw names on SQLite', async () => {
    await checkMigration({ kind: 'sqlite', file: path.join(dir.path, 'app.db') });
  });

  it('rewrites raw names on PostgreSQL', async () => {
    postgres = await createPostgresDatabase();
    await checkMigration({ kind: 'postgres', url: postgres.url });
  });
});
