import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bulkCountChanged,
  bulkJobParams,
  bulkPreview,
  bulkPreviewBody,
  bulkRunBody,
  bulkStarted,
  bulkStatus,
} from '#common/contract/bulk.ts';
import { envelope } from '#common/contract/envelope.ts';
import { FILTER_CALL_RULES } from '#common/contract/filter.ts';
import { tableParams } from '#common/contract/sql.ts';
import { callerOf, refOf } from '#server/access/table-access.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { FastifyBaseLogger } from 'fastify';
import { chooseRunner } from '#server/jobs/choose-runner.ts';
import type { JobRunner } from '#server/jobs/job-runner.ts';
import type { BulkUndoStarter } from '#server/features/audit/undo-service.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireSignedIn } from '#server/plugins/session.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { endBulkJob, failUnfinishedBulkJobs } from '#server/store/bulk-jobs.ts';
import { sharedSecret } from '#server/store/settings.ts';
import { bulkMessages } from '#common/contract/bulk.ts';
import { bulkJob, recoverBulkJobs, type BulkJobDeps, type BulkPayload } from './bulk-job.ts';
import { bulkUndoStarter } from './bulk-undo.ts';
import {
  bulkStatus as statusOf,
  cancelBulk,
  previewBulk,
  startBulk,
  type BulkContext,
} from './bulk-service.ts';

/** Jobs one instance runs at once. */
const CONCURRENCY = 2;
/** With several instances (REDIS_URL), a job whose heartbeat is older than this lost its worker. */
const STALE_MS = 60_000;

/** The bulk changes' job runner and the undo starter the audit's undo call uses. */
export interface BulkQueue {
  runner: JobRunner<BulkPayload>;
  undo: BulkUndoStarter;
  close(): Promise<void>;
}

/** The BullMQ queue of an app store's bulk changes: every instance sharing the store shares it (its name is kept in
 * the store, as the exports' is). */
export async function bulkQueueName(store: AppStore): Promise<string> {
  return `dbui-bulk-${await sharedSecret(store.db, 'bulk-queue', () => randomUUID())}`;
}

/** Opens the bulk changes' runner (in-process, or BullMQ with REDIS_URL, as exports choose); the jobs a restart
 * interrupted are failed and their pending batches settled in the background. */
export async function openBulkQueue(
  context: { store: AppStore; databases: DatabaseRegistry; redisUrl: string | null; log: FastifyBaseLogger },
  options: Pick<BulkJobDeps, 'batchSize' | 'beforeBatch' | 'pipeline'> = {},
): Promise<BulkQueue> {
  const { store, databases, log } = context;
  const settle = (ids: string[]) =>
    // Their batches left pending are settled in the background: the start does not wait for a database.
    void recoverBulkJobs({ store, databases }, ids).catch((error: unknown) =>
      log.error({ err: error }, 'interrupted bulk changes could not be settled'),
    );
  // In-process jobs end with their process: whatever had not ended was interrupted by a restart. With REDIS_URL
  // other instances may be running theirs, and queued jobs wait in Redis for any worker: only running jobs whose
  // heartbeat stopped are failed.
  const at = new Date();
  settle(
    await failUnfinishedBulkJobs(
      store.db,
      bulkMessages.restarted,
      at.toISOString(),
      new Date(at.getTime() - (context.redisUrl ? STALE_MS : 0)).toISOString(),
      context.redisUrl ? ['running'] : undefined,
    ),
  );
  const runner = await chooseRunner(bulkJob({ store, databases, log, ...options }), {
    redisUrl: context.redisUrl,
    queueName: () => bulkQueueName(store),
    concurrency: CONCURRENCY,
    log,
    // A job whose worker died (a crashed instance), seen by another instance's worker: failed as a restart fails it.
    onAbandoned: async (id) => {
      if (
        await endBulkJob(
          store.db,
          id,
          { status: 'failed', error: bulkMessages.restarted },
          new Date().toISOString(),
        )
      )
        settle([id]);
    },
  });
  return { runner, undo: bulkUndoStarter({ store, databases, runner }), close: () => runner.close() };
}

/** Bulk changes (issue 38): preview, run, status and cancel, on the queue the app opened. */
export function bulkRoutes(context: {
  store: AppStore;
  databases: DatabaseRegistry;
  queue: BulkQueue;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const { store, databases } = context;
    const service: BulkContext = { store, databases, runner: context.queue.runner };
    app.addHook('onRequest', requireSignedIn);
    const tags = ['sql'];

    app.post(
      '/api/sql/:db/:schema/:table/bulk/preview',
      {
        schema: {
          tags,
          summary:
            'Preview a bulk change (update: CanUpdate, delete: CanDelete) of the rows a filter document keeps, or of ' +
            'a hand-made selection by key: the count (exact up to 1,000,000), the first 20 rows before and after, and ' +
            'for a delete the foreign keys that point at the table with their ON DELETE rule',
          description: FILTER_CALL_RULES,
          params: tableParams,
          body: bulkPreviewBody,
          response: { 200: envelope(bulkPreview) },
        },
      },
      async (request) =>
        success(await previewBulk(service, callerOf(request), refOf(request.params), request.body)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/bulk',
      {
        schema: {
          tags,
          summary:
            'Run a bulk change as a job in batches by key, audited as one entry; answers the job id. A count that no ' +
            'longer matches expectedCount is 409 with the new count, and nothing changes',
          description: FILTER_CALL_RULES,
          params: tableParams,
          body: bulkRunBody,
          response: { 202: envelope(bulkStarted), 409: envelope(bulkCountChanged) },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(success(await startBulk(service, callerOf(request), refOf(request.params), request.body))),
    );
    app.get(
      '/api/sql/:db/:schema/:table/bulk/:id',
      {
        schema: {
          tags,
          summary:
            'A bulk change’s status: progress, rows done of the total, its audit entry, why it stopped',
          params: bulkJobParams,
          response: { 200: envelope(bulkStatus) },
        },
      },
      async (request) =>
        success(await statusOf(service, callerOf(request), refOf(request.params), request.params.id)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/bulk/:id/cancel',
      {
        schema: {
          tags,
          summary:
            'Cancel a bulk change: it stops after the batch in hand; the rows changed before stay, audited',
          params: bulkJobParams,
          response: { 200: envelope(bulkStatus) },
        },
      },
      async (request) =>
        success(await cancelBulk(service, callerOf(request), refOf(request.params), request.params.id)),
    );
  };
}
