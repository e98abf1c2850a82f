import type { FastifyBaseLogger } from 'fastify';
import { RunningJobs, type JobDefinition, type JobRunner } from './job-runner.ts';

/**
 * Runs jobs in this process, at most `concurrency` at a time, the rest waiting in order. Jobs are not kept
 * anywhere but in memory: a job still waiting or running when the process stops is failed by the next start
 * (the app store says which jobs had not ended). One instance only: with several, set REDIS_URL.
 */
export function inProcessRunner<P>(
  definition: JobDefinition<P>,
  options: { concurrency: number; log: FastifyBaseLogger },
): JobRunner<P> {
  const waiting: { id: string; payload: P }[] = [];
  const running = new RunningJobs();
  const settled = new Set<Promise<void>>();
  let closed = false;

  const next = () => {
    while (!closed && running.size < options.concurrency && waiting.length > 0) {
      const job = waiting.shift();
      if (!job) return;
      const work = running
        .run(job.id, (signal) => definition.handle(job.payload, { signal }))
        .catch((error: unknown) =>
          options.log.error({ err: error, job: job.id }, `${definition.name} job failed`),
        )
        .finally(() => {
          settled.delete(work);
          next();
        });
      settled.add(work);
    }
  };

  return {
    mode: 'in-process',
    async enqueue(id, payload) {
      if (closed) throw new Error('The job runner is closed.');
      waiting.push({ id, payload: definition.payload.parse(payload) });
      // Started on the next turn, so the caller answers before the job begins.
      setImmediate(next);
    },
    stop(id, reason) {
      const at = waiting.findIndex((job) => job.id === id);
      if (at >= 0) waiting.splice(at, 1);
      return running.stop(id, reason) || at >= 0;
    },
    async close() {
      closed = true;
      waiting.length = 0;
      running.stopAll('shutdown');
      await Promise.allSettled([...settled]);
    },
  };
}
