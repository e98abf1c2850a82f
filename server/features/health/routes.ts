import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '#common/contract/envelope.ts';
import { healthResponse } from '#common/contract/health.ts';
import { storeMessages as sm } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { checkHealth } from './service.ts';

/** GET /api/health: 200 when everything answers, 503 when something is down (the body says what); 200 'degraded'
 * when the app store answers but cannot be written, since reads still work and should keep coming (0013). */
export function healthRoutes(store: AppStore, databases: DatabaseRegistry): FastifyPluginAsyncZod {
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
  };
}
