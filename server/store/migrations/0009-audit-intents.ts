import type { Kysely } from 'kysely';

/*
 * Audit entries written as intents (docs/decisions/0022-audit-intents.md): a data change's entry is written
 * 'pending' before the change commits in the browsed database and set 'done' after, so a crash between the two
 * leaves an intent that the next start resolves by reading the row, never a change without its entry. 'uncertain'
 * is an intent the row could not decide (it changed again since). Entries written before this migration are done.
 * The index finds the few open intents among millions of done entries.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('audit_log')
    .addColumn('state', 'varchar(10)', (c) => c.notNull().defaultTo('done'))
    .execute();
  await db.schema.createIndex('audit_log_state').on('audit_log').columns(['state', 'at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
