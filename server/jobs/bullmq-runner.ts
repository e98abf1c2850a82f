import type { FastifyBaseLogger } from 'fastify';
import { Queue, Worker } from 'bullmq';
import { withTimeout } from '#server/engines/engine.ts';
import { RunningJobs, type JobDefinition, type JobRunner } from './job-runner.ts';

/** How long a call to Redis may take before the caller gives up on it. */
const REDIS_TIMEOUT_MS = 5000;

/** What a BullMQ runner needs: Redis, the queue's name (shared by the instances that share an app store), how many
 * jobs one instance runs at once, and what to do with a job BullMQ gives up on (its worker died). */
export interface BullmqRunnerOptions {
  redisUrl: string;
  queueName: string;
  concurrency: number;
  log: FastifyBaseLogger;
  /** A job whose worker stopped answering (a crashed instance): BullMQ fails it instead of running it again. */
  onAbandoned?: (id: string) => Promise<void>;
}

/**
 * Runs jobs through a BullMQ queue: any instance may add a job, any instance's worker may run it. A job runs at
 * most once (no retries, and a job whose worker died is failed, not run again: an export half written is not
 * resumed). Stopping a job works on the instance that runs it; the handler also watches the app store, where a
 * cancel from any instance is recorded.
 */
export function bullmqRunner<P>(definition: JobDefinition<P>, options: BullmqRunnerOptions): JobRunner<P> {
  // BullMQ's blocking worker connection needs maxRetriesPerRequest null.
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const queue = new Queue(options.queueName, { connection });
  const running = new RunningJobs();
  const worker = new Worker(
    options.queueName,
    async (job) => {
      const payload = definition.payload.parse(job.data);
      // A handler records its own failures; one that throws anyway is logged here, so BullMQ's 'failed' below
      // only reports jobs it gave up on itself.
      await running
        .run(String(job.id), (signal) => definition.handle(payload, { signal }))
        .catch((error: unknown) =>
          options.log.error({ err: error, job: job.id }, `${definition.name} job failed`),
        );
    },
    { connection, concurrency: options.concurrency, maxStalledCount: 0 },
  );
  worker.on('failed', (job, error) => {
    if (!job?.id) return;
    options.log.warn({ err: error, job: job.id }, `${definition.name} job failed in the queue`);
    void options
      .onAbandoned?.(job.id)
      .catch((failure: unknown) =>
        options.log.error({ err: failure, job: job.id }, 'could not record an abandoned job'),
      );
  });
  // Redis going away is reported by the workers' reconnect attempts; without a listener an 'error' would throw.
  worker.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  queue.on('error', (error) => options.log.error({ err: error }, 'job queue error'));

  return {
    mode: 'bullmq',
    async enqueue(id, payload) {
      // Commands wait for Redis to come back (maxRetriesPerRequest null): a start must not wait with them.
      await withTimeout(
        queue.add(definition.name, definition.payload.parse(payload), {
          jobId: id,
          attempts: 1,
          removeOnComplete: true,
          removeOnFail: true,
        }),
        REDIS_TIMEOUT_MS,
        `Redis did not take the job within ${REDIS_TIMEOUT_MS} ms`,
      );
    },
    stop: (id, reason) => running.stop(id, reason),
    async close() {
      running.stopAll('shutdown');
      // With Redis gone the worker cannot close cleanly; the process is stopping anyway.
      await Promise.allSettled([
        withTimeout(worker.close(), REDIS_TIMEOUT_MS, 'the job worker did not close'),
        withTimeout(queue.close(), REDIS_TIMEOUT_MS, 'the job queue did not close'),
      ]);
    },
  };
}
