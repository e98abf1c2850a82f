import type { Kysely } from 'kysely';
import { flag, withId } from './portable.ts';

/*
 * Passkeys (docs/decisions/0005-accounts.md, 0009-passkeys.md): one row per WebAuthn credential, removed with its
 * account. Their challenges live in one_time_codes (purpose passkey-register or passkey-sign-in), hashed with what
 * they are bound to, for 5 minutes and once.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('passkeys'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url of up to 1023 bytes (WebAuthn's limit for a credential id).
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    // The signature counter is an unsigned 32-bit number: more than an integer column holds.
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'varchar(200)')
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(30)')
    .addColumn('backed_up', 'integer', flag(0))
    .addColumn('device_type', 'varchar(20)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
