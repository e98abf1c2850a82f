import type { FastifyBaseLogger } from 'fastify';
import type { AppStore } from '#server/store/app-store.ts';
import { deleteAuditBefore } from '#server/store/audit.ts';

/** How often the sweep runs after the one at start. */
export const AUDIT_SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** The audit retention (AUDIT_RETENTION_DAYS): a sweep at start and then daily. */
export interface AuditRetention {
  /** Deletes the entries older than the retention now; answers how many went. */
  sweep(): Promise<number>;
  /** Sweeps once and starts the daily timer (unref'd: it never keeps the process alive). */
  start(): Promise<void>;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** The retention of the audit trail: entries older than `days` (by the app's clock) are deleted. */
export function auditRetention(options: {
  store: AppStore;
  days: number;
  now: () => Date;
  log: FastifyBaseLogger;
}): AuditRetention {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function sweepOnce(): Promise<number> {
    const before = new Date(options.now().getTime() - options.days * 86_400_000).toISOString();
    const deleted = await deleteAuditBefore(options.store.db, before);
    if (deleted > 0) options.log.info({ deleted, before }, 'audit entries past their retention deleted');
    return deleted;
  }

  const retention: AuditRetention = {
    sweep() {
      // One sweep at a time: a slow one is not overtaken by the next day's.
      running ??= sweepOnce().finally(() => {
        running = null;
      });
      return running;
    },
    async start() {
      await retention.sweep().catch((error: unknown) => {
        options.log.error({ err: error }, 'audit retention sweep failed');
      });
      if (timer) return;
      timer = setInterval(() => {
        retention.sweep().catch((error: unknown) => {
          options.log.error({ err: error }, 'audit retention sweep failed');
        });
      }, AUDIT_SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
  return retention;
}
