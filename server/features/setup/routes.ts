import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '#common/contract/envelope.ts';
import { setupRequest, setupStatus } from '#common/contract/setup.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { completeSetup, setupRequired } from './service.ts';

/** The first-administrator setup behind the link printed at the first start. */
export function setupRoutes(store: AppStore): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/setup',
      {
        schema: {
          tags: ['setup'],
          summary: 'Whether the first administrator still has to be created',
          response: { 200: envelope(setupStatus) },
        },
      },
      async () => success({ required: await setupRequired(store) }),
    );
    app.post(
      '/api/setup',
      {
        schema: {
          tags: ['setup'],
          summary: 'Create the first administrator with the one-time setup token',
          body: setupRequest,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        await completeSetup(store, request.body);
        return success(null, 'The administrator was created. Sign in to continue.');
      },
    );
  };
}
