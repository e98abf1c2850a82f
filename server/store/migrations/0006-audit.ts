import type { Kysely } from 'kysely';

/*
 * The audit trail as an API (docs/decisions/0006-access-control.md): indexes for its filters (the table filter is a
 * target, the action filter an action; both newest first) and the undo of a data change. A `data.undo` entry names
 * the entry it undid in `undo_of`, unique, so one change is undone at most once even when two undos race.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('undo_of', 'integer').execute();
  await db.schema.createIndex('audit_log_undo_of').on('audit_log').column('undo_of').unique().execute();
  await db.schema.createIndex('audit_log_target_at').on('audit_log').columns(['target', 'at']).execute();
  await db.schema.createIndex('audit_log_action_at').on('audit_log').columns(['action', 'at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
