import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { analyticsEventsInput, analyticsQuery, analyticsReport } from '#common/contract/analytics.ts';
import { envelope } from '#common/contract/envelope.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireAdmin } from '#server/plugins/session.ts';
import { analyticsService, type AnalyticsDeps } from './service.ts';

/** Event calls one address may make a minute (a visitor sends one a page; an office shares one address). */
export const ANALYTICS_PER_MINUTE = 120;

/** The site's analytics: the events POST (anyone, no session, no cookie) and the administrators' report. */
export function analyticsRoutes(
  deps: AnalyticsDeps,
  perMinute = ANALYTICS_PER_MINUTE,
): FastifyPluginAsyncZod {
  const analytics = analyticsService(deps);
  return async (app) => {
    app.post(
      '/api/analytics/events',
      {
        config: {
          rateLimit: {
            max: perMinute,
            timeWindow: 60_000,
            // Counted per address, which is never stored.
            keyGenerator: (request: FastifyRequest) => `analytics:${request.ip}`,
          },
        },
        schema: {
          tags: ['analytics'],
          summary: 'Record page views and the consent choice (1 to 20 events); no session, no cookie',
          description:
            'Sent by the web app only with the visitor’s consent (a rejection is sent once, as the consent event). ' +
            'Stored: the event, the path without its query string, the instant and its UTC day, and the choice; ' +
            'never the address or the user. Rate limited per address.',
          body: analyticsEventsInput,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        await analytics.record(request.body.events);
        return success(null);
      },
    );
    app.get(
      '/api/admin/analytics',
      {
        // Before validation: a caller who may not call at all learns nothing from validation messages.
        preValidation: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'Page views per day and per page, and consent choices, over the last `days` UTC days',
          querystring: analyticsQuery,
          response: { 200: envelope(analyticsReport) },
        },
      },
      async (request) => success(await analytics.report(request.query.days)),
    );
  };
}
