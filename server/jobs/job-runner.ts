import type { z } from 'zod';

/*
 * Background jobs (docs/decisions/0008-exports.md): a job is a typed definition (a name, a payload schema and a
 * handler); its state lives in the app store where the status call reads it, not in the runner. Without REDIS_URL
 * jobs run in this process; with it they go on a BullMQ queue that every instance sharing the app store works
 * on, so any instance can start, watch or cancel a job.
 */

/** Why a running job was told to stop. */
export type StopReason = 'cancelled' | 'shutdown';

/** What a handler gets besides its payload: a signal that aborts with a StopReason. */
export interface JobContext {
  signal: AbortSignal;
}

/** A kind of job: the payload is checked against `payload` before `handle` sees it. */
export interface JobDefinition<P> {
  name: string;
  payload: z.ZodType<P>;
  /** Does the work; records its own state (the runner only runs it). Should not throw: a throw is logged. */
  handle(payload: P, context: JobContext): Promise<void>;
}

/** Runs jobs of one definition. */
export interface JobRunner<P> {
  readonly mode: 'in-process' | 'bullmq';
  /** Queues a job under `id` (unique: the job's row id). */
  enqueue(id: string, payload: P): Promise<void>;
  /** Tells the job to stop if this instance is running it; false when it is not running here. */
  stop(id: string, reason: StopReason): boolean;
  /** Stops taking jobs, tells running ones to stop ('shutdown') and waits for their handlers to return. */
  close(): Promise<void>;
}

/** Signals of the jobs a runner has in hand, by id. */
export class RunningJobs {
  private readonly controllers = new Map<string, AbortController>();

  /** Runs `work` with a signal registered under `id` until it settles. */
  async run(id: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    this.controllers.set(id, controller);
    try {
      await work(controller.signal);
    } finally {
      this.controllers.delete(id);
    }
  }

  stop(id: string, reason: StopReason): boolean {
    const controller = this.controllers.get(id);
    if (!controller) return false;
    controller.abort(reason);
    return true;
  }

  stopAll(reason: StopReason): void {
    for (const controller of this.controllers.values()) controller.abort(reason);
  }

  get size(): number {
    return this.controllers.size;
  }
}

/** The StopReason a signal was aborted with, or null when it was not aborted by a runner. */
export function stopReasonOf(signal: AbortSignal): StopReason | null {
  return signal.aborted && (signal.reason === 'cancelled' || signal.reason === 'shutdown')
    ? signal.reason
    : null;
}
