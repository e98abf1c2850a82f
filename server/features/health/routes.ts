import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '#common/contract/envelope.ts';
import { aliveResponse, healthResponse, readyResponse } from '#common/contract/health.ts';
import { healthMessages as hm, storeMessages as sm } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { readiness } from './readiness.ts';
import { checkHealth } from './service.ts';

/**
 * GET /api/health: 200 when everything answers, 503 when something is down (the body says what); 200 'degraded'
 * when the app store answers but cannot be written, since reads still work and should keep coming (0013).
 * GET /api/health/alive and /api/health/ready: the liveness and readiness a balancer or orchestrator polls
 * (issue 18): alive asks nothing; ready asks the app store and Redis, at most once per READY_CACHE_MS.
 */
export function healthRoutes(
  store: AppStore,
  databases: DatabaseRegistry,
  settings: { redisUrl: string | null },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        schema: {
          tags: ['health'],
          summary: 'The app store (answering, writable) and each registered database, up or down',
          response: { 200: envelope(healthResponse), 503: envelope(healthResponse) },
        },
      },
      async (request, reply) => {
        const report = await checkHealth(store, databases, request.log);
        const down = report.status === 'down';
        const message = down ? 'Something is down.' : report.status === 'degraded' ? sm.notWritable : null;
        return reply.code(down ? 503 : 200).send({ isSuccess: !down, data: report, message });
      },
    );

    app.get(
      '/api/health/alive',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness: 200 while the process answers; no dependency is asked',
          response: { 200: envelope(aliveResponse) },
        },
      },
      async () => ({
        isSuccess: true,
        data: { alive: true as const, uptimeSeconds: Math.round(process.uptime()) },
        message: null,
      }),
    );

    const ready = readiness({ store, redisUrl: settings.redisUrl, log: app.log });
    app.addHook('onClose', () => ready.close());
    app.get(
      '/api/health/ready',
      {
        schema: {
          tags: ['health'],
          summary:
            'Readiness: 200 when the app store and (with REDIS_URL) Redis answer, 503 naming what is down; ' +
            'the answer is reused for 1.5 s',
          response: { 200: envelope(readyResponse), 503: envelope(readyResponse) },
        },
      },
      async (_request, reply) => {
        const answer = await ready.check();
        if (answer.ready) return reply.send({ isSuccess: true, data: answer, message: null });
        const down = [
          ...(answer.appStore === 'down' ? [hm.storeDown] : []),
          ...(answer.redis === 'down' ? [hm.redisDown] : []),
        ];
        return reply
          .code(503)
          .send({ isSuccess: false, data: answer, message: `${hm.notReady} ${down.join(' ')}` });
      },
    );
  };
}
