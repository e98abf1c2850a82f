import type { Kysely } from 'kysely';
import { withId } from './portable.ts';

/*
 * First-party analytics (issue 15): PageView and consent events sent by the web app only with consent (a rejection
 * is recorded once, as the consent event itself). No address, no user, no cookie: the event, the page's path, the
 * instant and its UTC day (for the charts' grouping by day on every store).
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('analytics_events'))
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('path', 'varchar(500)', (c) => c.notNull())
    .addColumn('at', 'varchar(30)', (c) => c.notNull())
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('value', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('analytics_events_day')
    .on('analytics_events')
    .columns(['day', 'name'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
