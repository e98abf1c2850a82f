import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '#common/contract/envelope.ts';
import { healthResponse } from '#common/contract/health.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { checkHealth } from './service.ts';

/** GET /api/health: 200 when everything answers, 503 when something is down (the body says what). */
export function healthRoutes(store: AppStore, databases: DatabaseRegistry): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        schema: {
          tags: ['health'],
          summary: 'The app store and each registered database, up or down',
          response: { 200: envelope(healthResponse), 503: envelope(healthResponse) },
        },
      },
      async (_request, reply) => {
        const report = await checkHealth(store, databases);
        const up = report.status === 'up';
        return reply
          .code(up ? 200 : 503)
          .send({ isSuccess: up, data: report, message: up ? null : 'Something is down.' });
      },
    );
  };
}
