import type { Kysely } from 'kysely';
import { withId } from './portable.ts';

/*
 * Titan, the support chat (issue 16): a session belongs to the browser that started it (owner_hash: the SHA-256 of
 * the HttpOnly chat cookie's secret), optionally to the signed-in account; its messages are kept for the
 * administrators' reading at /admin/chats. No address is stored.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('chat_sessions'))
    .addColumn('public_id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('owner_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('last_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('visitor_messages', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('chat_sessions_last').on('chat_sessions').column('last_at').execute();
  await withId(db, db.schema.createTable('chat_messages'))
    .addColumn('session_id', 'integer', (c) => c.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('role', 'varchar(10)', (c) => c.notNull())
    .addColumn('origin', 'varchar(20)', (c) => c.notNull())
    .addColumn('text', 'varchar(8000)', (c) => c.notNull())
    .addColumn('sources', 'varchar(2000)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_messages_session').on('chat_messages').column('session_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
