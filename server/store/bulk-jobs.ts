import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppDatabase, BulkJobsTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/*
 * Bulk changes' jobs and the rows of their audit entries (issue 38, migration 0016). Every state change of a job is
 * conditional on the state it leaves, so a cancel, a finish and a restart sweep racing each other cannot both win.
 */

export type BulkJobRow = Selectable<BulkJobsTable>;
export type BulkJobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
const activeStates: BulkJobState[] = ['queued', 'running'];

export interface NewBulkJob {
  id: string;
  userId: number;
  database: string;
  schema: string;
  table: string;
  action: string;
  request: string;
  rowsTotal: number;
  rowsTotalCapped: boolean;
}

export async function insertBulkJob(db: Db, job: NewBulkJob, now: string): Promise<void> {
  await db
    .insertInto('bulk_jobs')
    .values({
      id: job.id,
      user_id: job.userId,
      database_name: job.database,
      schema_name: job.schema,
      table_name: job.table,
      action: job.action,
      request: job.request,
      status: 'queued',
      rows_done: 0,
      rows_total: job.rowsTotal,
      rows_total_capped: job.rowsTotalCapped ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function findBulkJob(db: Db, id: string): Promise<BulkJobRow | undefined> {
  return db.selectFrom('bulk_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

/** queued → running with its audit entry; false when the job was cancelled meanwhile. */
export async function markBulkRunning(db: Db, id: string, auditId: number, now: string): Promise<boolean> {
  return changed(
    await db
      .updateTable('bulk_jobs')
      .set({ status: 'running', audit_id: auditId, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst(),
  );
}

/** The rows done so far (and the heartbeat); false when the job is no longer running (cancelled). */
export async function recordBulkProgress(
  db: Db,
  id: string,
  rowsDone: number,
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('bulk_jobs')
      .set({ rows_done: rowsDone, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst(),
  );
}

/** Ends a job that has not ended: done, failed or cancelled, with the rows done and why; false when it had ended. */
export async function endBulkJob(
  db: Db,
  id: string,
  end: { status: 'done' | 'failed' | 'cancelled'; error: string | null; rowsDone?: number },
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('bulk_jobs')
      .set({
        status: end.status,
        error: end.error,
        updated_at: now,
        ...(end.rowsDone === undefined ? {} : { rows_done: end.rowsDone }),
      })
      .where('id', '=', id)
      .where('status', 'in', activeStates)
      .executeTakeFirst(),
  );
}

/** The rows a job changed, whatever its state (a batch that committed while a cancel ended the job counts). */
export async function setBulkRowsDone(db: Db, id: string, rowsDone: number): Promise<void> {
  await db.updateTable('bulk_jobs').set({ rows_done: rowsDone }).where('id', '=', id).execute();
}

/** Fails every job in `states` (by default every one that has not ended) whose heartbeat is older than `staleBefore`
 * (a restart: in-process jobs end with their process); answers their ids. */
export async function failUnfinishedBulkJobs(
  db: Db,
  error: string,
  now: string,
  staleBefore: string = now,
  states: BulkJobState[] = activeStates,
): Promise<string[]> {
  const jobs = await db
    .selectFrom('bulk_jobs')
    .select('id')
    .where('status', 'in', states)
    .where('updated_at', '<=', staleBefore)
    .execute();
  for (const job of jobs) await endBulkJob(db, job.id, { status: 'failed', error }, now);
  return jobs.map((job) => job.id);
}

/** Writes one batch of a bulk entry's rows as an intent ('pending'), before the batch commits. */
export async function writeBulkBatch(
  db: Db,
  batch: { auditId: number; batch: number; rowCount: number; rows: string },
): Promise<void> {
  await db
    .insertInto('audit_bulk_batches')
    .values({
      audit_id: batch.auditId,
      batch: batch.batch,
      state: 'pending',
      row_count: batch.rowCount,
      rows: batch.rows,
    })
    .execute();
}

/** Marks a batch done (it committed), or drops it (it did not). */
export async function settleBulkBatch(
  db: Db,
  auditId: number,
  batch: number,
  committed: boolean,
): Promise<void> {
  if (committed)
    await db
      .updateTable('audit_bulk_batches')
      .set({ state: 'done' })
      .where('audit_id', '=', auditId)
      .where('batch', '=', batch)
      .execute();
  else
    await db
      .deleteFrom('audit_bulk_batches')
      .where('audit_id', '=', auditId)
      .where('batch', '=', batch)
      .where('state', '=', 'pending')
      .execute();
}

/** The batches of a bulk entry in order, `limit` at a time after `afterBatch` (read a batch at a time: memory flat). */
export async function bulkBatchesOf(
  db: Db,
  auditId: number,
  afterBatch = -1,
  limit = 10,
): Promise<{ batch: number; state: string; row_count: number; rows: string }[]> {
  return db
    .selectFrom('audit_bulk_batches')
    .select(['batch', 'state', 'row_count', 'rows'])
    .where('audit_id', '=', auditId)
    .where('batch', '>', afterBatch)
    .orderBy('batch')
    .limit(limit)
    .execute();
}

/** The row counts of a bulk entry's done batches in order, `limit` at a time after `afterBatch`, without their rows:
 * a reader finds the batch holding a row number without reading the rows before it. */
export async function doneBulkBatchSizes(
  db: Db,
  auditId: number,
  afterBatch = -1,
  limit = 1000,
): Promise<{ batch: number; row_count: number }[]> {
  return db
    .selectFrom('audit_bulk_batches')
    .select(['batch', 'row_count'])
    .where('audit_id', '=', auditId)
    .where('state', '=', 'done')
    .where('batch', '>', afterBatch)
    .orderBy('batch')
    .limit(limit)
    .execute();
}

/** The rows of one batch of a bulk entry, as stored (JSON text); undefined when there is no such batch. */
export async function bulkBatchRows(db: Db, auditId: number, batch: number): Promise<string | undefined> {
  const found = await db
    .selectFrom('audit_bulk_batches')
    .select('rows')
    .where('audit_id', '=', auditId)
    .where('batch', '=', batch)
    .executeTakeFirst();
  return found?.rows;
}

/** The rows a bulk entry's done batches hold together. */
export async function doneBulkRowCount(db: Db, auditId: number): Promise<number> {
  const found = await db
    .selectFrom('audit_bulk_batches')
    .select((eb) => eb.fn.sum<number | string | bigint | null>('row_count').as('rows'))
    .where('audit_id', '=', auditId)
    .where('state', '=', 'done')
    .executeTakeFirst();
  return Number(found?.rows ?? 0);
}
