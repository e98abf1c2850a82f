import type { Kysely } from 'kysely';
import { flag, withId } from './portable.ts';

/*
 * The first app store schema: users, roles with links and per-table permissions, sessions, one-time codes,
 * export jobs and the audit log, plus the three built-in roles (Ids 1 to 3; docs/decisions/0003-app-store.md).
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('username', 'varchar(50)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)')
    .addColumn('is_admin', 'integer', flag(0))
    .addColumn('email', 'varchar(250)', (c) => c.notNull())
    .addColumn('email_verified_at', 'varchar(30)')
    .addColumn('phone', 'varchar(20)')
    .addColumn('phone_verified_at', 'varchar(30)')
    .addColumn('totp_secret', 'varchar(255)')
    .addColumn('totp_verified_at', 'varchar(30)')
    .addColumn('preferred_2fa', 'varchar(10)')
    .addColumn('first_name', 'varchar(50)')
    .addColumn('last_name', 'varchar(50)')
    .addColumn('password_changed_at', 'varchar(30)')
    .addColumn('password_expired', 'integer', flag(0))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'varchar(30)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();

  await withId(db, db.schema.createTable('user_images'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('file_type', 'varchar(100)', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('roles'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('is_admin', 'integer', flag(0))
    .addColumn('built_in', 'integer', flag(0))
    .execute();

  await withId(db, db.schema.createTable('role_links'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('link', 'varchar(500)', (c) => c.notNull())
    .addUniqueConstraint('role_links_role_link', ['role_id', 'link'])
    .execute();

  await withId(db, db.schema.createTable('role_permissions'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('table_id', 'varchar(500)', (c) => c.notNull())
    .addColumn('can_insert', 'integer', flag(0))
    .addColumn('can_update', 'integer', flag(0))
    .addColumn('can_delete', 'integer', flag(0))
    .addUniqueConstraint('role_permissions_role_table', ['role_id', 'table_id'])
    .execute();

  await withId(db, db.schema.createTable('user_roles'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addUniqueConstraint('user_roles_user_role', ['user_id', 'role_id'])
    .execute();

  await withId(db, db.schema.createTable('sessions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('absolute_expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await withId(db, db.schema.createTable('one_time_codes'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(30)', (c) => c.notNull())
    .addColumn('channel', 'varchar(10)')
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('one_time_codes_user_purpose')
    .on('one_time_codes')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('export_jobs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('database_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('schema_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('table_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('format', 'varchar(10)', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('rows_done', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('rows_total', 'bigint')
    .addColumn('file_name', 'varchar(255)')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('export_jobs_user').on('export_jobs').columns(['user_id', 'status']).execute();

  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', 'varchar(30)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('action', 'varchar(50)', (c) => c.notNull())
    .addColumn('target', 'varchar(500)')
    .addColumn('detail', 'text')
    .addColumn('address', 'varchar(64)')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_user_at').on('audit_log').columns(['user_id', 'at']).execute();

  await seedBuiltInRoles(db);
}

/** The three built-in roles. Inserted first into an empty table, in order, they get Ids 1 to 3 on both stores
 * (the spec shows Delete only above Id 3); the migration test checks it. */
async function seedBuiltInRoles(db: Kysely<unknown>): Promise<void> {
  const store = db as Kysely<{
    roles: { name: string; is_admin: number; built_in: number };
    role_links: { role_id: number; link: string };
  }>;
  await store
    .insertInto('roles')
    .values([
      { name: 'Administrator', is_admin: 1, built_in: 1 },
      { name: 'User', is_admin: 0, built_in: 1 },
      { name: 'Reader', is_admin: 0, built_in: 1 },
    ])
    .execute();
  await store
    .insertInto('role_links')
    .values([
      { role_id: 1, link: '*' },
      { role_id: 2, link: '/account/*' },
      { role_id: 2, link: '/account' },
      { role_id: 2, link: '/contact-us' },
      { role_id: 3, link: '/db/*' },
    ])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
