import type { Kysely } from 'kysely';

/*
 * An export belongs to the session that started it (issue 32 item 2, docs/decisions/0044-export-links-and-sessions.md):
 * its status, cancel and download link work only while that session lives and its owner is not locked. Jobs recorded
 * before this have no session, so their links no longer work (at most a day's worth: jobs go after 24 hours).
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('export_jobs').addColumn('session_id', 'integer').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
