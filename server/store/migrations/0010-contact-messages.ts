import type { Kysely } from 'kysely';
import { withId } from './portable.ts';

/*
 * Contact Us really sends (issue 15): every message is stored first, so none is lost when mail fails; then mailed to
 * CONTACT_TO when set (mail_status: 'not-configured', 'sent' or 'failed' with the reason); administrators read,
 * answer by mail (the answer kept beside it) and archive them.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('contact_messages'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('from_email', 'varchar(250)', (c) => c.notNull())
    .addColumn('from_name', 'varchar(250)')
    .addColumn('subject', 'varchar(50)', (c) => c.notNull())
    .addColumn('message', 'varchar(1000)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('mail_status', 'varchar(20)', (c) => c.notNull())
    .addColumn('mail_error', 'varchar(500)')
    .addColumn('answer', 'varchar(5000)')
    .addColumn('answered_at', 'varchar(30)')
    .addColumn('answered_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('archived_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('contact_messages_created')
    .on('contact_messages')
    .columns(['archived_at', 'created_at'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
