import type { Kysely } from 'kysely';
import { withId } from './portable.ts';

/*
 * Social sign-in (docs/decisions/0005-accounts.md, "Social sign-in"): the identities linked to an account, found by
 * provider and subject (never by email; the email is only what the provider last said), and the OAuth transactions
 * in flight: the state (stored as SHA-256), nonce and PKCE verifier of one authorization request, what it is for
 * (sign-in, or linking to an account), where to go afterwards, ten minutes to live, used once.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('user_identities'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(250)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(30)')
    .addUniqueConstraint('user_identities_provider_subject', ['provider', 'subject'])
    // One identity of each provider per account: unlinking names the provider.
    .addUniqueConstraint('user_identities_user_provider', ['user_id', 'provider'])
    .execute();

  await withId(db, db.schema.createTable('oauth_transactions'))
    .addColumn('state_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('mode', 'varchar(10)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('nonce', 'varchar(128)')
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('return_to', 'varchar(500)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('oauth_transactions_expires')
    .on('oauth_transactions')
    .column('expires_at')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
