import type { Kysely } from 'kysely';
import { flag, withId } from './portable.ts';

/*
 * Accounts (docs/decisions/0005-accounts.md): server secrets, pre-sign-in keys, codes tied to a sign-in or to
 * the address being confirmed, a pending authenticator secret and the last TOTP step used, re-authentication and
 * password-reset marks on sessions, recovery codes, and the human-check solutions already used.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('sign_in_attempts'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('allowed', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .addColumn('email_sent_at', 'varchar(30)')
    .addColumn('phone_sent_at', 'varchar(30)')
    .addColumn('address', 'varchar(64)')
    .execute();
  await db.schema.createIndex('sign_in_attempts_user').on('sign_in_attempts').column('user_id').execute();
  await db.schema
    .createIndex('sign_in_attempts_expires')
    .on('sign_in_attempts')
    .column('expires_at')
    .execute();

  await db.schema
    .alterTable('one_time_codes')
    .addColumn('attempt_id', 'integer', (c) => c.references('sign_in_attempts.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('one_time_codes').addColumn('target', 'varchar(250)').execute();
  await db.schema.alterTable('one_time_codes').addColumn('failures', 'integer', flag(0)).execute();

  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'varchar(255)').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();

  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'varchar(30)').execute();
  await db.schema.alterTable('sessions').addColumn('reset_password', 'integer', flag(0)).execute();
  await db.schema.alterTable('sessions').addColumn('method', 'varchar(10)').execute();
  await db.schema.alterTable('sessions').addColumn('address', 'varchar(64)').execute();

  await withId(db, db.schema.createTable('recovery_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').column('user_id').execute();

  await db.schema
    .createTable('captcha_claims')
    .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_claims_expires').on('captcha_claims').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
