import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { exportMessages as em } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  activeStates,
  allExportIds,
  deleteExportJob,
  endExport,
  endedExportsBefore,
  failUnfinishedExports,
  findExportJob,
  type ExportJobRow,
} from '#server/store/export-jobs.ts';
import { sharedSecret } from '#server/store/settings.ts';
import { orphanExportFiles, removeExportFile } from './export-files.ts';
import { exportJob, type ExportJobDeps, type ExportPayload } from './export-job.ts';
import { chooseRunner } from './choose-runner.ts';
import type { JobRunner, StopReason } from './job-runner.ts';

/*
 * The export jobs' queue (docs/decisions/0008-exports.md, 0050): the runner (in-process, or BullMQ with REDIS_URL),
 * the clean-up at start of the jobs a restart interrupted, the hourly sweep (retention, stale and orphaned jobs,
 * files without a job), the stale check of a shared queue, and the close. The export feature
 * (features/exports/service.ts) answers the requests and tells it whether a job's session still lives.
 */

/** How long export files and their jobs are kept after the job ended. */
export const EXPORT_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A running job whose heartbeat (written every second) is older than this has lost its worker (a crashed or killed
 * instance): fifteen beats missed, which a live worker under load does not come near (decision 0023). */
export const EXPORT_STALE_MS = 15 * 1000;
/** With jobs on a shared queue (REDIS_URL), how often running jobs are checked for a lost worker: a restarted
 * instance cannot tell a dead worker from another live instance's, so their jobs end by the heartbeat, within
 * EXPORT_STALE_MS + this of the crash, rather than when BullMQ's lock expires or the hourly sweep comes. */
export const EXPORT_STALE_CHECK_MS = 5 * 1000;
/** How often retention and stale jobs are swept. */
export const EXPORT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Jobs one instance writes at once (each holds one database connection and one core while it formats). */
const CONCURRENCY = 2;

/** What the queue needs: where jobs and files live, the queue's Redis, and the feature's session rule. */
export interface ExportQueueContext {
  store: AppStore;
  databases: DatabaseRegistry;
  /** EXPORT_DIR: where files are written and downloaded from, shared by the instances. */
  exportDir: string;
  redisUrl: string | null;
  log: FastifyBaseLogger;
  /** Whether the session that started a job still lives (the export feature's rule, by the app's clock). */
  sessionLives(job: Pick<ExportJobRow, 'user_id' | 'session_id'>): Promise<boolean>;
  /** Tests: smaller chunks, sheets and progress intervals. */
  job?: Pick<ExportJobDeps, 'progressIntervalMs' | 'chunkSize' | 'rowsPerSheet'>;
}

/** The export jobs' runner and upkeep. */
export interface ExportQueue {
  readonly mode: 'in-process' | 'bullmq';
  /** Queues the job of an export_jobs row. */
  enqueue(id: string): Promise<void>;
  /** Tells the job to stop if this instance is running it. */
  stop(id: string, reason: StopReason): boolean;
  /** Fails the jobs that have not ended but whose session no longer lives, and deletes their files; `userId`: only
   * that user's. */
  failOrphaned(userId?: number): Promise<void>;
  /** Retention and stale jobs (also run hourly). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** The BullMQ queue of an app store: every instance sharing the store shares it (its name is kept in the store). */
export async function exportQueueName(store: AppStore): Promise<string> {
  return `dbui-exports-${await sharedSecret(store.db, 'exports-queue', () => randomUUID())}`;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** Opens the export queue: the job runner (in-process, or BullMQ with REDIS_URL) and the sweeps; on start the jobs
 * a restart interrupted are failed and their partial files deleted. */
export async function openExportQueue(context: ExportQueueContext): Promise<ExportQueue> {
  const { store, exportDir, log, sessionLives } = context;
  const definition = exportJob({
    store,
    databases: context.databases,
    exportDir,
    log,
    ...context.job,
  });
  const failAndRemove = async (jobs: { id: string; format: string }[]) => {
    for (const job of jobs) await removeExportFile(exportDir, job.id, job.format);
  };

  if (context.redisUrl) {
    // Other instances may be running jobs of this queue: only jobs whose heartbeat stopped lost their worker.
    await failAndRemove(
      await failUnfinishedExports(store.db, em.restarted, iso(), {
        staleBefore: iso(Date.now() - EXPORT_STALE_MS),
        states: ['running'],
      }),
    );
  } else {
    // In-process jobs live in this process only: whatever had not ended was interrupted by the restart.
    await failAndRemove(await failUnfinishedExports(store.db, em.restarted, iso()));
  }
  const runner: JobRunner<ExportPayload> = await chooseRunner(definition, {
    redisUrl: context.redisUrl,
    queueName: () => exportQueueName(store),
    concurrency: CONCURRENCY,
    log,
    onAbandoned: async (id) => {
      const job = await findExportJob(store.db, id);
      if (job && (await endExport(store.db, id, 'failed', em.restarted, iso())))
        await removeExportFile(exportDir, id, job.format);
    },
  });

  /** Fails the jobs that have not ended but whose session no longer lives (no one can reach them, and one would hold
   * its owner's next export back) and deletes their files; `userId`: only that user's. */
  const failOrphaned = async (userId?: number) => {
    let query = store.db
      .selectFrom('export_jobs')
      .select(['id', 'format', 'user_id', 'session_id'])
      .where('status', 'in', activeStates);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    for (const job of await query.execute()) {
      if (await sessionLives(job)) continue;
      if (await endExport(store.db, job.id, 'failed', em.sessionEnded, iso())) {
        runner.stop(job.id, 'cancelled');
        await removeExportFile(exportDir, job.id, job.format);
      }
    }
  };
  const failStale = async () =>
    failAndRemove(
      await failUnfinishedExports(store.db, em.restarted, iso(), {
        staleBefore: iso(Date.now() - EXPORT_STALE_MS),
        states: ['running'],
      }),
    );
  const sweep = async () => {
    await failStale();
    await failOrphaned();
    for (const job of await endedExportsBefore(store.db, iso(Date.now() - EXPORT_RETENTION_MS))) {
      await removeExportFile(exportDir, job.id, job.format);
      await deleteExportJob(store.db, job.id);
    }
    // Files whose job row is gone (deleted with its user, or a crash between the two deletes above).
    for (const file of await orphanExportFiles(exportDir, await allExportIds(store.db), 10 * 60 * 1000))
      await fs.promises.rm(file, { force: true });
  };
  await sweep();
  const sweeper = setInterval(() => {
    sweep().catch((error: unknown) => log.error({ err: error }, 'export sweep failed'));
  }, EXPORT_SWEEP_INTERVAL_MS);
  sweeper.unref();
  const staleChecker =
    runner.mode === 'bullmq'
      ? setInterval(() => {
          failStale().catch((error: unknown) => log.error({ err: error }, 'export stale check failed'));
        }, EXPORT_STALE_CHECK_MS)
      : null;
  staleChecker?.unref();

  return {
    mode: runner.mode,
    enqueue: (id) => runner.enqueue(id, { jobId: id }),
    stop: (id, reason) => runner.stop(id, reason),
    failOrphaned,
    sweep,
    async close() {
      clearInterval(sweeper);
      if (staleChecker) clearInterval(staleChecker);
      await runner.close();
      // In-process: anything still queued was never started and never will be.
      if (runner.mode === 'in-process')
        await failAndRemove(await failUnfinishedExports(store.db, em.restarted, iso()));
    },
  };
}
