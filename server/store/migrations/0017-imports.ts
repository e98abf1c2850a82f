import type { Kysely } from 'kysely';

/*
 * Imports (issue 39, docs/decisions/0069-imports.md). import_jobs: an uploaded file's import, from the upload to the
 * end of its last run: who, which table, the file (its name as sent, size, how it is read), the state the status call
 * reads, the counts and the first failures of the last run (every failure is in a file beside the upload). updated_at
 * doubles as the heartbeat of a running check and dates the import for the retention sweep.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('database_name', 'text', (c) => c.notNull())
    .addColumn('schema_name', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('request', 'text')
    .addColumn('dry_run', 'integer')
    .addColumn('percentage', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inserted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'text')
    .addColumn('audit_id', 'integer')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('ended_at', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('import_jobs_status')
    .on('import_jobs')
    .columns(['status', 'updated_at'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
