import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { poolUseOf } from '#server/engines/pool-use.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { accountCounts } from './account-counts.ts';
import { requestTiming } from './request-timing.ts';

/** What GET /api/metrics answers: Prometheus's text and its content type. */
export interface MetricsScrape {
  contentType: string;
  text(): Promise<string>;
}

/**
 * The Prometheus metrics of this instance (issue 18), set up only when METRICS_TOKEN is set (prom-client loads
 * then, and the timing hook is added; with metrics off a request pays nothing): request rate and latency by route
 * (http_request_duration_seconds, its _count is the rate), pool use per registered database, export jobs by state,
 * sign-in failures and lockouts, and the process's defaults (CPU, memory, event loop lag, GC).
 */
export async function instanceMetrics(
  app: FastifyInstance,
  deps: { store: AppStore; databases: DatabaseRegistry },
): Promise<MetricsScrape> {
  const client = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });

  const timing = requestTiming(app);

  new client.Gauge({
    name: 'dbui_database_pool_connections',
    help: 'Connections of each registered database pool by state (open, idle, and requests waiting for one)',
    labelNames: ['database', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const engine of deps.databases.all()) {
        const use = poolUseOf(engine.db);
        if (!use) continue;
        this.set({ database: engine.name, state: 'open' }, use.open);
        this.set({ database: engine.name, state: 'idle' }, use.idle);
        this.set({ database: engine.name, state: 'waiting' }, use.waiting);
      }
    },
  });

  new client.Gauge({
    name: 'dbui_export_jobs',
    help: 'Export jobs in the app store by state (queued, running, done, failed, cancelled)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const rows = await deps.store.db
        .selectFrom('export_jobs')
        .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
        .groupBy('status')
        .execute();
      this.reset();
      for (const row of rows) this.set({ state: row.status }, Number(row.count));
    },
  });

  new client.Counter({
    name: 'dbui_sign_in_failures_total',
    help: 'Failed sign-in checks in this process, by the audit action that records them',
    labelNames: ['action'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [action, count] of accountCounts().signInFailures) this.inc({ action }, count);
    },
  });

  new client.Counter({
    name: 'dbui_lockouts_total',
    help: 'Accounts locked after repeated failures, in this process',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(accountCounts().lockouts);
    },
  });

  return {
    contentType: registry.contentType,
    text: async () => (await registry.metrics()) + timing.text(),
  };
}

/** Whether an Authorization header carries the metrics token (compared in constant time). */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
