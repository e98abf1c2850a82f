import type { Kysely, Selectable, Transaction } from 'kysely';
import type { exportStates } from '#common/contract/exports.ts';
import type { ExportJobsTable, AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/*
 * Export jobs (issue 6): the row a status call reads and the job runner writes. Every state change is conditional
 * on the state it leaves, so a cancel, a finish and a restart sweep racing each other cannot both win.
 */

export type ExportState = (typeof exportStates)[number];
/** The states of a job that has not ended. */
export const activeStates: ExportState[] = ['queued', 'running'];

export type ExportJobRow = Selectable<ExportJobsTable>;

/** A new job as the start call records it. */
export interface NewExportJob {
  id: string;
  userId: number;
  /** The session that starts it: the job is reachable only while that session lives (decision 0044). */
  sessionId: number;
  database: string;
  schema: string;
  table: string;
  format: string;
  /** The filter, sort and options as JSON. */
  request: string;
  rowsTotal: number;
  rowsTotalIsEstimate: boolean;
}

export async function insertExportJob(db: Db, job: NewExportJob, now: string): Promise<void> {
  await db
    .insertInto('export_jobs')
    .values({
      id: job.id,
      user_id: job.userId,
      session_id: job.sessionId,
      database_name: job.database,
      schema_name: job.schema,
      table_name: job.table,
      format: job.format,
      request: job.request,
      status: 'queued',
      rows_done: 0,
      rows_total: job.rowsTotal,
      rows_total_is_estimate: job.rowsTotalIsEstimate ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function findExportJob(db: Db, id: string): Promise<ExportJobRow | undefined> {
  return db.selectFrom('export_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's jobs that have not ended, oldest first. */
export async function activeExportsOf(db: Db, userId: number): Promise<ExportJobRow[]> {
  return db
    .selectFrom('export_jobs')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', activeStates)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function deleteExportJob(db: Db, id: string): Promise<void> {
  await db.deleteFrom('export_jobs').where('id', '=', id).execute();
}

const changed = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows > 0n;

/** queued → running; false when the job was cancelled or failed meanwhile. */
export async function markExportRunning(db: Db, id: string, now: string): Promise<boolean> {
  return changed(
    await db
      .updateTable('export_jobs')
      .set({ status: 'running', started_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst(),
  );
}

/** Progress and heartbeat of a running job; false when it no longer runs (cancelled, or failed by a sweep). */
export async function recordExportProgress(
  db: Db,
  id: string,
  rowsDone: number,
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('export_jobs')
      .set({ rows_done: rowsDone, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst(),
  );
}

/** running → done with the file's name; false when it was cancelled meanwhile. */
export async function finishExport(
  db: Db,
  id: string,
  done: { rowsDone: number; fileName: string },
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('export_jobs')
      .set({
        status: 'done',
        rows_done: done.rowsDone,
        file_name: done.fileName,
        updated_at: now,
        finished_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst(),
  );
}

/** A job that has not ended → failed (or cancelled) with a reason a person can read. */
export async function endExport(
  db: Db,
  id: string,
  state: 'failed' | 'cancelled',
  reason: string,
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('export_jobs')
      .set({ status: state, error: reason, updated_at: now, finished_at: now })
      .where('id', '=', id)
      .where('status', 'in', activeStates)
      .executeTakeFirst(),
  );
}

/** Jobs that have not ended (optionally only those whose heartbeat is older than `staleBefore`) → failed with
 * `reason`; answers the ids and formats of the jobs failed. */
export async function failUnfinishedExports(
  db: Db,
  reason: string,
  now: string,
  options: { staleBefore?: string; states?: ExportState[] } = {},
): Promise<{ id: string; format: string }[]> {
  let query = db
    .selectFrom('export_jobs')
    .select(['id', 'format'])
    .where('status', 'in', options.states ?? activeStates);
  if (options.staleBefore) query = query.where('updated_at', '<', options.staleBefore);
  const stuck = await query.execute();
  const failed: { id: string; format: string }[] = [];
  for (const job of stuck) {
    if (await endExport(db, job.id, 'failed', reason, now)) failed.push(job);
  }
  return failed;
}

/** Jobs that ended before `before` (kept no longer), with their formats so their files can go too. */
export async function endedExportsBefore(db: Db, before: string): Promise<{ id: string; format: string }[]> {
  return db
    .selectFrom('export_jobs')
    .select(['id', 'format'])
    .where('status', 'not in', activeStates)
    .where('updated_at', '<', before)
    .execute();
}

/** Every job id there is (to find files no job owns). */
export async function allExportIds(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom('export_jobs').select('id').execute();
  return new Set(rows.map((row) => row.id));
}

/** Replaces the job's download token (only the newest link works). */
export async function setDownloadToken(
  db: Db,
  id: string,
  tokenHash: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('export_jobs')
    .set({ download_token_hash: tokenHash, download_token_expires_at: expiresAt })
    .where('id', '=', id)
    .where('status', '=', 'done')
    .execute();
}

/** Uses up the download token: true once for a token that matches and has not expired. */
export async function takeDownloadToken(
  db: Db,
  id: string,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  return changed(
    await db
      .updateTable('export_jobs')
      .set({ download_token_hash: null, download_token_expires_at: null })
      .where('id', '=', id)
      .where('status', '=', 'done')
      .where('download_token_hash', '=', tokenHash)
      .where('download_token_expires_at', '>', now)
      .executeTakeFirst(),
  );
}
