import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { migrateAppStore, openAppStore, type AppStore, type AppStoreTarget } from './app-store.ts';
import { migrations } from './migrations/index.ts';

const appTables = [
  'audit_bulk_batches',
  'audit_log',
  'bulk_jobs',
  'captcha_claims',
  'export_jobs',
  'import_jobs',
  'oauth_transactions',
  'one_time_codes',
  'passkeys',
  'recovery_codes',
  'role_links',
  'role_permissions',
  'roles',
  'saved_view_roles',
  'saved_views',
  'sessions',
  'settings',
  'sign_in_attempts',
  'user_identities',
  'user_images',
  'user_roles',
  'users',
];

async function tableNames(store: AppStore): Promise<string[]> {
  const tables = await store.db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}

/** The names of the audit log's indexes, from each store's own catalog. */
async function auditIndexes(store: AppStore): Promise<string[]> {
  const rows =
    store.kind === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'index' and tbl_name = 'audit_log'`.execute(store.db)
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = 'audit_log'`.execute(store.db);
  return rows.rows.map((r) => r.name);
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
    // …and to everything else that belongs to the account (0002): sessions, sign-ins, codes, recovery codes.
    const later = new Date(Date.now() + 60_000).toISOString();
    await store.db
      .insertInto('sessions')
      .values({
        user_id: id,
        token_hash: 'h',
        created_at: now,
        last_seen_at: now,
        expires_at: later,
        absolute_expires_at: later,
      })
      .execute();
    const attempt = await store.db
      .insertInto('sign_in_attempts')
      .values({
        user_id: id,
        key_hash: 'k',
        purpose: 'sign-in',
        allowed: 'Email',
        created_at: now,
        expires_at: later,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await store.db
      .insertInto('one_time_codes')
      .values({
        user_id: id,
        attempt_id: attempt.id,
        purpose: 'sign-in',
        code_hash: 'c',
        created_at: now,
        expires_at: later,
      })
      .execute();
    await store.db
      .insertInto('recovery_codes')
      .values({ user_id: id, code_hash: 'r', created_at: now })
      .execute();
    // …and its passkeys (0004), whose credential ids are unique and whose counter holds 32 unsigned bits.
    const passkey = {
      user_id: id,
      credential_id: 'cred',
      public_key: 'pk',
      counter: 4_294_967_295,
      name: 'Laptop',
      created_at: now,
      device_type: 'singleDevice',
    };
    await store.db.insertInto('passkeys').values(passkey).execute();
    await expect(store.db.insertInto('passkeys').values(passkey).execute()).rejects.toThrow();
    const stored = await store.db.selectFrom('passkeys').select('counter').executeTakeFirstOrThrow();
    expect(Number(stored.counter)).toBe(4_294_967_295);
    // …and its social identities and OAuth transactions (0005); a provider's subject links to one account only.
    const identity = { user_id: id, provider: 'google', subject: 's1', created_at: now };
    await store.db.insertInto('user_identities').values(identity).execute();
    await expect(store.db.insertInto('user_identities').values(identity).execute()).rejects.toThrow();
    await store.db
      .insertInto('oauth_transactions')
      .values({
        state_hash: 's',
        provider: 'google',
        mode: 'link',
        user_id: id,
        code_verifier: 'v',
        created_at: now,
        expires_at: later,
      })
      .execute();
    // The audit trail (0006): a change is undone at most once (undo_of is unique; entries without it are many).
    const entry = { at: now, user_id: id, action: 'data.update', target: '/db/x/main/t' };
    const { id: changeId } = await store.db
      .insertInto('audit_log')
      .values(entry)
      .returning('id')
      .executeTakeFirstOrThrow();
    await store.db.insertInto('audit_log').values(entry).execute();
    const undo = { at: now, user_id: id, action: 'data.undo', target: '/db/x/main/t', undo_of: changeId };
    await store.db.insertInto('audit_log').values(undo).execute();
    await expect(store.db.insertInto('audit_log').values(undo).execute()).rejects.toThrow();
    expect(await auditIndexes(store)).toEqual(
      expect.arrayContaining(['audit_log_action_at', 'audit_log_target_at', 'audit_log_undo_of']),
    );
    // Saved views (0015): one name per table and owner; a role's deletion takes it off the views shared with it,
    // the owner's deletion takes their views (below).
    const view = {
      database_name: 'x',
      schema_name: 'main',
      table_name: 't',
      user_id: id,
      name: 'Mine',
      definition: '{}',
      sharing: 'roles',
      created_at: now,
      updated_at: now,
    };
    const { id: viewId } = await store.db
      .insertInto('saved_views')
      .values(view)
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(store.db.insertInto('saved_views').values(view).execute()).rejects.toThrow();
    await store.db
      .insertInto('saved_views')
      .values({ ...view, table_name: 'other' })
      .execute();
    await store.db
      .insertInto('saved_view_roles')
      .values([
        { view_id: viewId, role_id: 2 },
        { view_id: viewId, role_id: added.id },
      ])
      .execute();
    await store.db.deleteFrom('roles').where('id', '=', added.id).execute();
    expect(await store.db.selectFrom('saved_view_roles').selectAll().execute()).toEqual([
      { view_id: viewId, role_id: 2 },
    ]);
    await store.db.deleteFrom('users').where('id', '=', id).execute();
    for (const table of [
      'saved_views',
      'saved_view_roles',
      'user_roles',
      'sessions',
      'sign_in_attempts',
      'one_time_codes',
      'recovery_codes',
      'passkeys',
      'user_identities',
      'oauth_transactions',
    ] as const) {
      const left = await store.db
        .selectFrom(table)
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBe(0);
    }

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

  it('refuse a store that a newer DBUI has migrated further', async () => {
    const store = openAppStore({ kind: 'sqlite', file: path.join(dir.path, 'newer.db') });
    try {
      await migrateAppStore(store);
      await sql`insert into dbui_migrations (name, timestamp) values ('9999-from-a-newer-build', '2099-01-01')`.execute(
        store.db,
      );
      await expect(migrateAppStore(store)).rejects.toThrow(/9999-from-a-newer-build/);
    } finally {
      await store.close();
    }
  });
});
