import type { Kysely } from 'kysely';
import { flag } from './portable.ts';

/*
 * Exports (issue 6): when the job began writing (throughput for secondsRemaining), whether rows_total is an
 * estimate (a capped or estimated count), and the download link's single-use token (SHA-256, never the token) with
 * its expiry. updated_at doubles as the running job's heartbeat.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('export_jobs').addColumn('started_at', 'varchar(30)').execute();
  await db.schema.alterTable('export_jobs').addColumn('rows_total_is_estimate', 'integer', flag(0)).execute();
  await db.schema.alterTable('export_jobs').addColumn('download_token_hash', 'varchar(64)').execute();
  await db.schema.alterTable('export_jobs').addColumn('download_token_expires_at', 'varchar(30)').execute();
  await db.schema
    .createIndex('export_jobs_status')
    .on('export_jobs')
    .columns(['status', 'updated_at'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
