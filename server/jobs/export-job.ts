import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { exportFormat } from '#common/contract/exports.ts';
import { filterDocument } from '#common/contract/filter.ts';
import { filter } from '#common/contract/sql.ts';
import { exportMessages as em } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  endExport,
  findExportJob,
  finishExport,
  markExportRunning,
  recordExportProgress,
} from '#server/store/export-jobs.ts';
import { downloadName, exportFileIn, exportId } from './export-files.ts';
import { writeExportFile, XLSX_MAX_ROWS } from './export-formats.ts';
import { stopReasonOf, type JobDefinition } from './job-runner.ts';

/*
 * The export job: streams a table's rows (filtered and sorted as the page shows them) into a file of the exports
 * folder, recording progress and a heartbeat in its export_jobs row every second. It stops when told to (cancel,
 * shutdown) or when its row says it no longer runs (cancelled from another instance, failed by a sweep); a file
 * not finished is deleted.
 */

/** What goes on the queue: the job's id only; everything else is in its row. */
export const exportPayload = z.object({ jobId: exportId });
export type ExportPayload = z.infer<typeof exportPayload>;

/** What the start call records in the row's `request`. */
export const exportRequest = z.object({
  filter,
  /** The filter document of POST …/query/export (issue 35); absent for the spec's export. */
  where: filterDocument.optional(),
  orderBy: z.string().nullable(),
  bom: z.boolean(),
});
export type ExportRequest = z.infer<typeof exportRequest>;

export interface ExportJobDeps {
  store: AppStore;
  databases: DatabaseRegistry;
  /** EXPORT_DIR: the (possibly shared) folder of export files. */
  exportDir: string;
  log: FastifyBaseLogger;
  /** How often progress and the heartbeat are written (ms). */
  progressIntervalMs?: number;
  chunkSize?: number;
  rowsPerSheet?: number;
}

/** Defaults of the tuning knobs above, shared by every export job of the process (tests lower them to watch
 * progress on small tables). */
export const exportJobTuning = { progressIntervalMs: 1000, chunkSize: 1000, rowsPerSheet: XLSX_MAX_ROWS };

/** The export job's definition. */
export function exportJob(deps: ExportJobDeps): JobDefinition<ExportPayload> {
  return {
    name: 'export',
    payload: exportPayload,
    handle: (payload, context) => runExport(deps, payload.jobId, context.signal),
  };
}

const now = () => new Date().toISOString();

async function runExport(deps: ExportJobDeps, id: string, runnerSignal: AbortSignal): Promise<void> {
  const db = deps.store.db;
  // Cancelled or failed while it waited: nothing to do.
  if (!(await markExportRunning(db, id, now()))) return;
  const job = await findExportJob(db, id);
  if (!job) return;
  // Recorded by the start call from the same schema; a row that does not parse is failed, not left running.
  const format = exportFormat.safeParse(job.format);
  if (!format.success) {
    await endExport(db, id, 'failed', em.failed, now());
    return;
  }
  const file = exportFileIn(deps.exportDir, id, format.data);
  const stopped = new AbortController();
  const stop = () => stopped.abort(runnerSignal.reason);
  if (runnerSignal.aborted) stop();
  else runnerSignal.addEventListener('abort', stop, { once: true });
  let rowsDone = 0;
  let ended = false;
  const heartbeat = setInterval(() => {
    recordExportProgress(db, id, rowsDone, now())
      .then((running) => {
        // The row says the job no longer runs: cancelled elsewhere, or failed by a sweep.
        if (!running && !stopped.signal.aborted) {
          ended = true;
          stopped.abort('ended');
        }
      })
      .catch((error: unknown) => deps.log.warn({ err: error, job: id }, 'export progress not recorded'));
  }, deps.progressIntervalMs ?? exportJobTuning.progressIntervalMs);
  try {
    const request = exportRequest.parse(JSON.parse(job.request));
    const engine = deps.databases.get(job.database_name);
    if (!engine) throw new EngineError(404, em.databaseGone);
    const table = await engine.table(job.schema_name, job.table_name);
    await fs.promises.mkdir(deps.exportDir, { recursive: true });
    await writeExportFile({
      engine,
      table,
      query: { filter: request.filter, where: request.where, orderBy: request.orderBy },
      format: format.data,
      bom: request.bom,
      file,
      signal: stopped.signal,
      onRows: (rows) => {
        rowsDone += rows;
      },
      chunkSize: deps.chunkSize ?? exportJobTuning.chunkSize,
      rowsPerSheet: deps.rowsPerSheet ?? exportJobTuning.rowsPerSheet,
    });
    clearInterval(heartbeat);
    const fileName = downloadName(job.table_name, job.created_at, format.data);
    if (!(await finishExport(db, id, { rowsDone, fileName }, now())))
      await fs.promises.rm(file, { force: true });
  } catch (error) {
    clearInterval(heartbeat);
    await fs.promises.rm(file, { force: true });
    const reason = stopReasonOf(runnerSignal);
    if (reason === 'cancelled' || ended) return; // the cancel (or the sweep) recorded the state already
    if (reason === 'shutdown') {
      await endExport(db, id, 'failed', em.restarted, now());
      return;
    }
    if (!(error instanceof EngineError)) deps.log.error({ err: error, job: id }, 'export failed');
    const reasonOfFailure =
      error instanceof EngineError ? error.message : folderIsFull(error) ? em.folderFull : em.failed;
    await endExport(db, id, 'failed', reasonOfFailure, now());
  } finally {
    clearInterval(heartbeat);
    runnerSignal.removeEventListener('abort', stop);
  }
}

/** Whether a failure is the export folder running out of space (a full disk or a quota), anywhere in its causes. */
function folderIsFull(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}
