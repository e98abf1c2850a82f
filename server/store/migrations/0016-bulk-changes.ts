import type { Kysely } from 'kysely';
import { flag } from './portable.ts';

/*
 * Bulk changes (issue 38, docs/decisions/0068-bulk-changes.md). bulk_jobs: a job's state, which the status call reads
 * and the job writes after every batch (updated_at doubles as its heartbeat). audit_bulk_batches: the rows of one
 * bulk audit entry, one record per batch holding each row's key, before and after as JSON, so the entry stays one
 * line of audit_log and no read of it has to hold every row at once. A batch is written 'pending' in the batch's
 * transaction before it commits (the intent rule, decision 0022) and set 'done' once it committed.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_jobs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('database_name', 'text', (c) => c.notNull())
    .addColumn('schema_name', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('action', 'varchar(10)', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('rows_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rows_total', 'integer', (c) => c.notNull())
    .addColumn('rows_total_capped', 'integer', flag(0))
    .addColumn('audit_id', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bulk_jobs_status').on('bulk_jobs').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('audit_bulk_batches')
    .addColumn('audit_id', 'integer', (c) => c.notNull().references('audit_log.id').onDelete('cascade'))
    .addColumn('batch', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('rows', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_bulk_batches_key', ['audit_id', 'batch'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
