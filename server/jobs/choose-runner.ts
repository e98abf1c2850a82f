import type { FastifyBaseLogger } from 'fastify';
import { inProcessRunner } from './in-process-runner.ts';
import type { JobDefinition, JobRunner } from './job-runner.ts';

/** What choosing a runner needs: REDIS_URL (null: in-process), the queue's name when shared, how many jobs one
 * instance runs at once, and what to do with a job BullMQ gives up on (its worker died). */
export interface RunnerChoice {
  redisUrl: string | null;
  /** The BullMQ queue's name, asked only with REDIS_URL (it is kept in the app store, shared by its instances). */
  queueName: () => Promise<string>;
  concurrency: number;
  log: FastifyBaseLogger;
  onAbandoned?: (id: string) => Promise<void>;
}

/**
 * The job runner every kind of job uses (exports, bulk changes and their undos): BullMQ with REDIS_URL, so any
 * instance sharing the app store may run a job and watch or cancel it through the store; in-process without.
 */
export async function chooseRunner<P>(
  definition: JobDefinition<P>,
  choice: RunnerChoice,
): Promise<JobRunner<P>> {
  if (!choice.redisUrl)
    return inProcessRunner(definition, { concurrency: choice.concurrency, log: choice.log });
  // Loaded only when REDIS_URL asks for it: BullMQ and ioredis take a third of a second to load.
  const { bullmqRunner } = await import('./bullmq-runner.ts');
  return bullmqRunner(definition, {
    redisUrl: choice.redisUrl,
    queueName: await choice.queueName(),
    concurrency: choice.concurrency,
    log: choice.log,
    ...(choice.onAbandoned ? { onAbandoned: choice.onAbandoned } : {}),
  });
}
