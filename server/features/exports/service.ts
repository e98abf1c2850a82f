import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ExportFormat, ExportStatus } from '#common/contract/exports.ts';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import type { Filter } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { exportMessages as em } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { ACCESS_DENIED, mayAccessTable, type AccessCaller, type TableRef } from '#server/access/policy.ts';
import { randomToken, safeEqual, sha256Hex } from '#server/crypto/tokens.ts';
import { openTable, ownsTableJob, type Caller } from '#server/access/table-access.ts';
import { exportContentTypes, exportFileIn } from '#server/jobs/export-files.ts';
import type { ExportJobDeps, ExportRequest } from '#server/jobs/export-job.ts';
import { openExportQueue } from '#server/jobs/export-queue.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import {
  activeExportsOf,
  activeStates,
  type ExportJobRow,
  deleteExportJob,
  endExport,
  findExportJob,
  insertExportJob,
  setDownloadToken,
  takeDownloadToken,
  type ExportState,
} from '#server/store/export-jobs.ts';
import { linksOfUser, userIsAdmin } from '#server/store/roles.ts';
import { sessionLives as storedSessionLives } from '#server/store/sessions.ts';

/*
 * Exports as background jobs (docs/decisions/0008-exports.md). Start checks access, the filter and the sort, counts
 * the rows, records a queued job and answers its id at once; the job queue (server/jobs/export-queue.ts) does the
 * writing. Status reads the job's row; when it is done it mints the download link's single-use token (stored hashed,
 * 5 minutes). A job belongs to the session that started it: its status, cancel and link work only while that session
 * lives (an administrator's lock ends it), read from the app store at every call (decision 0044). Files and rows go
 * after the retention time; a job a restart interrupted, or whose session ended, is failed with a reason, never left
 * running.
 */

/** How long a download link works. */
export const DOWNLOAD_TOKEN_TTL_MS = 5 * 60 * 1000;

export interface ExportContext {
  store: AppStore;
  databases: DatabaseRegistry;
  /** EXPORT_DIR: where files are written and downloaded from, shared by the instances. */
  exportDir: string;
  redisUrl: string | null;
  log: FastifyBaseLogger;
  /** The app's clock, which sessions live by (tests move it); by default the real time. */
  now?: () => Date;
  /** Tests: smaller chunks, sheets and progress intervals. */
  job?: Pick<ExportJobDeps, 'progressIntervalMs' | 'chunkSize' | 'rowsPerSheet'>;
}

export interface StartRequest {
  /** The spec's search terms (column → term). */
  filter: Filter;
  /** A filter document (POST …/query/export, issue 35), ANDed with the search terms. */
  where?: FilterDocument | undefined;
  orderBy: string | null;
  format: ExportFormat;
  bom: boolean;
}

/** A file ready to send. */
export interface ExportDownload {
  file: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface ExportService {
  readonly mode: 'in-process' | 'bullmq';
  start(caller: Caller, ref: TableRef, request: StartRequest): Promise<{ id: string }>;
  status(caller: Caller, ref: TableRef, id: string): Promise<ExportStatus>;
  /** Cancels a queued or running export; one that has already ended is answered with how it ended. */
  cancel(caller: Caller, ref: TableRef, id: string): Promise<ExportStatus>;
  download(
    account: AccessCaller | null,
    id: string,
    token: string,
    address: string | null,
  ): Promise<ExportDownload>;
  /** Retention and stale jobs (also run hourly). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** Opens the export service over its job queue (server/jobs/export-queue.ts: the runner, the clean-up after a
 * restart, the sweeps). */
export async function createExportService(context: ExportContext): Promise<ExportService> {
  const { store, exportDir, log } = context;
  const sessionTime = () => (context.now ?? (() => new Date()))().toISOString();
  /** Whether the job's session still lives (an administrator's lock ends it): the rule of every call on the job. */
  const sessionLives = (job: Pick<ExportJobRow, 'user_id' | 'session_id'>) =>
    storedSessionLives(store.db, job.session_id, job.user_id, sessionTime());
  const queue = await openExportQueue({
    store,
    databases: context.databases,
    exportDir,
    redisUrl: context.redisUrl,
    log,
    sessionLives,
    ...(context.job ? { job: context.job } : {}),
  });

  /** The caller's own job of this table, or a 404 that says nothing about other people's jobs. */
  async function ownJob(caller: Caller, ref: TableRef, id: string): Promise<ExportJobRow> {
    await openTable(context, caller, ref, 'read');
    const job = await findExportJob(store.db, id);
    if (!job || !ownsTableJob(job, caller, ref)) throw new ApiError(404, em.notFound);
    if (!(await sessionLives(job))) throw new ApiError(403, em.sessionEnded);
    return job;
  }

  return {
    mode: queue.mode,

    async start(caller, ref, request) {
      const { engine, table } = await openTable(context, caller, ref, 'read');
      // Checks the filter and the sort (a 400 naming what is wrong) before anything is recorded. A filter document that
      // scans is counted under the scan budget; the export itself is one stream, not held to it.
      const total = await engine.countRows(table, {
        filter: request.filter,
        where: request.where,
        orderBy: request.orderBy,
      });
      const userId = caller.account.userId;
      const sessionId = caller.account.sessionId;
      await queue.failOrphaned(userId);
      if ((await activeExportsOf(store.db, userId)).length > 0) throw new ApiError(409, em.alreadyRunning);
      const id = randomUUID();
      const stored: ExportRequest = {
        filter: request.filter,
        ...(request.where ? { where: request.where } : {}),
        orderBy: request.orderBy,
        bom: request.bom,
      };
      await insertExportJob(
        store.db,
        {
          id,
          userId,
          sessionId,
          database: ref.database,
          schema: ref.schema,
          table: ref.table,
          format: request.format,
          request: JSON.stringify(stored),
          rowsTotal: total.count,
          rowsTotalIsEstimate: !total.exact,
        },
        iso(),
      );
      // Two starts at once both passed the check above: the older job stays, the newer is withdrawn.
      const active = await activeExportsOf(store.db, userId);
      if (active.length > 1 && active[0]?.id !== id) {
        await deleteExportJob(store.db, id);
        throw new ApiError(409, em.alreadyRunning);
      }
      try {
        await queue.enqueue(id);
      } catch (error) {
        log.error({ err: error, job: id }, 'export could not be queued');
        await endExport(store.db, id, 'failed', em.failed, iso());
        throw new ApiError(
          503,
          'The export could not be queued because the job queue is not reachable. Please try again later.',
        );
      }
      await writeAudit(store.db, {
        userId,
        action: 'export.start',
        target: tablePath(ref.database, ref.schema, ref.table),
        detail: {
          id,
          format: request.format,
          filter: request.filter,
          ...(request.where ? { where: request.where } : {}),
          orderBy: request.orderBy,
        },
        address: caller.address,
      });
      return { id };
    },

    async status(caller, ref, id) {
      const job = await ownJob(caller, ref, id);
      let url: string | null = null;
      if (job.status === 'done') {
        const token = randomToken();
        await setDownloadToken(store.db, id, sha256Hex(token), iso(Date.now() + DOWNLOAD_TOKEN_TTL_MS));
        url = `/api/exports/${id}/file?t=${token}`;
      }
      return statusOf(job, url);
    },

    async cancel(caller, ref, id) {
      const job = await ownJob(caller, ref, id);
      // An export that has ended (done, failed, or cancelled before) is answered as it ended, not refused: a Cancel
      // clicked as it finished has one outcome, the export's own (issue 32).
      if (!activeStates.includes(job.status as ExportState)) return statusOf(job, null);
      if (!(await endExport(store.db, id, 'cancelled', em.cancelled, iso()))) {
        const ended = await findExportJob(store.db, id);
        return statusOf(ended ?? job, null);
      }
      // Here the job stops at once; on another instance it sees the cancel in its row within a second. Either way
      // its handler deletes the partial file.
      queue.stop(id, 'cancelled');
      const after = await findExportJob(store.db, id);
      return statusOf(after ?? job, null);
    },

    async download(account, id, token, address) {
      const job = await findExportJob(store.db, id);
      const valid =
        job?.status === 'done' &&
        job.download_token_hash !== null &&
        safeEqual(job.download_token_hash, sha256Hex(token)) &&
        (job.download_token_expires_at ?? '') > iso();
      if (!job || !valid) throw new ApiError(404, em.linkInvalid);
      const target = tablePath(job.database_name, job.schema_name, job.table_name);
      /** A refused download, audited under who was refused. */
      const refuse = async (userId: number, message: string) => {
        await writeAudit(store.db, {
          userId,
          action: 'access.denied',
          target,
          detail: { action: 'export.download', id },
          address,
        });
        return new ApiError(403, message);
      };
      // A signed-in caller must be the owner (a link passed to someone else does not work for them).
      if (account && account.userId !== job.user_id) throw await refuse(account.userId, em.notOwner);
      // The link ends with the session that started the export (an administrator's lock ends that session).
      if (!(await sessionLives(job))) throw await refuse(job.user_id, em.sessionEnded);
      // The owner must still be allowed to read the table.
      const owner: AccessCaller = account ?? {
        userId: job.user_id,
        isAdmin: await userIsAdmin(store.db, job.user_id),
        links: await linksOfUser(store.db, job.user_id),
      };
      const ref = { database: job.database_name, schema: job.schema_name, table: job.table_name };
      if (!(await mayAccessTable(store, owner, ref, 'read'))) throw await refuse(job.user_id, ACCESS_DENIED);
      if (!(await takeDownloadToken(store.db, id, sha256Hex(token), iso())))
        throw new ApiError(404, em.linkInvalid);
      const format = job.format as ExportFormat;
      // Only the job's id and format: any instance sharing EXPORT_DIR finds the file, whichever worker wrote it.
      const file = exportFileIn(exportDir, id, format);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) throw new ApiError(404, em.fileGone);
      await writeAudit(store.db, {
        userId: job.user_id,
        action: 'export.download',
        target,
        detail: { id },
        address,
      });
      return {
        file,
        fileName: job.file_name ?? `export.${format}`,
        contentType: exportContentTypes[format],
        size: stat.size,
      };
    },

    sweep: () => queue.sweep(),
    close: () => queue.close(),
  };
}

/** The spec's export status from a job's row. Percentages come from rows written over the count taken at start
 * (an estimate when rows_total_is_estimate); seconds remaining from the rows per second measured since it began. */
export function statusOf(job: ExportJobRow, url: string | null): ExportStatus {
  const state = job.status as ExportState;
  const written = Number(job.rows_done);
  const total = job.rows_total === null ? null : Number(job.rows_total);
  const done = state === 'done';
  const share = total && total > 0 ? Math.floor((written * 100) / total) : 0;
  const completed = done ? 100 : Math.min(99, share);
  let secondsRemaining: number | null = done ? 0 : null;
  if (state === 'running' && job.started_at && total !== null && written > 0) {
    const elapsed = (Date.parse(job.updated_at) - Date.parse(job.started_at)) / 1000;
    if (elapsed > 0) secondsRemaining = Math.ceil(Math.max(0, total - written) / (written / elapsed));
  }
  return {
    id: job.id,
    state,
    inProgress: activeStates.includes(state),
    percentageCompleted: completed,
    percentageRemaining: 100 - completed,
    secondsRemaining,
    data: done ? job.file_name : null,
    url,
    format: job.format as ExportFormat,
    rowsWritten: written,
    rowsTotal: total,
    rowsTotalIsEstimate: job.rows_total_is_estimate === 1,
    error: job.error,
  };
}
