import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppDatabase, ImportJobsTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/*
 * Imports' rows (issue 39, migration 0017). As bulk_jobs, every state change is conditional on the state it leaves,
 * so a cancel, an end and a restart sweep racing each other cannot both win.
 */

export type ImportJobRow = Selectable<ImportJobsTable>;
const activeStates = ['queued', 'running'];

export interface NewImportJob {
  id: string;
  userId: number;
  database: string;
  schema: string;
  table: string;
  fileName: string;
  fileSize: number;
  options: string;
}

export async function insertImportJob(db: Db, job: NewImportJob, now: string): Promise<void> {
  await db
    .insertInto('import_jobs')
    .values({
      id: job.id,
      user_id: job.userId,
      database_name: job.database,
      schema_name: job.schema,
      table_name: job.table,
      file_name: job.fileName,
      file_size: job.fileSize,
      options: job.options,
      status: 'uploaded',
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function findImportJob(db: Db, id: string): Promise<ImportJobRow | undefined> {
  return db.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

/** A new run queued with its body, the last run's counts cleared; false while a run is under way. */
export async function queueImportRun(
  db: Db,
  id: string,
  run: { request: string; dryRun: boolean },
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('import_jobs')
      .set({
        status: 'queued',
        request: run.request,
        dry_run: run.dryRun ? 1 : 0,
        percentage: 0,
        inserted: 0,
        updated: 0,
        skipped: 0,
        failed: 0,
        errors: null,
        error: null,
        audit_id: null,
        ended_at: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', 'not in', activeStates)
      .executeTakeFirst(),
  );
}

/** queued → running; false when it was cancelled meanwhile. */
export async function markImportRunning(db: Db, id: string, now: string): Promise<boolean> {
  return changed(
    await db
      .updateTable('import_jobs')
      .set({ status: 'running', updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst(),
  );
}

/** The counts and first failures so far; false when the run is no longer running (cancelled). */
export interface ImportProgress {
  percentage: number;
  inserted: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: string;
}

export async function recordImportProgress(
  db: Db,
  id: string,
  progress: ImportProgress,
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('import_jobs')
      .set({ ...progress, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst(),
  );
}

/** Ends a run that has not ended (with its last counts when given); false when it had ended. */
export async function endImportRun(
  db: Db,
  id: string,
  end: { status: 'done' | 'failed' | 'cancelled'; error: string | null; progress?: ImportProgress },
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('import_jobs')
      .set({ status: end.status, error: end.error, ...end.progress, updated_at: now, ended_at: now })
      .where('id', '=', id)
      .where('status', 'in', activeStates)
      .executeTakeFirst(),
  );
}

/** Fails every run that has not ended and whose heartbeat is older than `staleBefore`. */
export async function failUnfinishedImports(
  db: Db,
  error: string,
  now: string,
  staleBefore: string = now,
): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ status: 'failed', error, updated_at: now, ended_at: now })
    .where('status', 'in', activeStates)
    .where('updated_at', '<=', staleBefore)
    .execute();
}

/** Imports not touched since `before` and not running: the retention sweep removes them with their files. */
export async function importsIdleSince(db: Db, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('import_jobs')
    .select('id')
    .where('status', 'not in', activeStates)
    .where('updated_at', '<', before)
    .execute();
  return rows.map((row) => row.id);
}

export async function allImportIds(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('import_jobs').select('id').execute();
  return new Set(rows.map((row) => row.id));
}

export async function deleteImportJob(db: Db, id: string): Promise<void> {
  await db.deleteFrom('import_jobs').where('id', '=', id).execute();
}

/** The audit entry of a run that writes (issue 39's run, decision 0070), set when the run starts. */
export async function setImportAudit(db: Db, id: string, auditId: number | null): Promise<void> {
  await db.updateTable('import_jobs').set({ audit_id: auditId }).where('id', '=', id).execute();
}

/** The runs that write and had not ended (a restart's sweep settles their audited batches before failing them). */
export async function unfinishedImportAudits(
  db: Db,
): Promise<Pick<ImportJobRow, 'id' | 'audit_id' | 'database_name' | 'schema_name' | 'table_name'>[]> {
  return db
    .selectFrom('import_jobs')
    .select(['id', 'audit_id', 'database_name', 'schema_name', 'table_name'])
    .where('status', 'in', activeStates)
    .where('audit_id', 'is not', null)
    .execute();
}
