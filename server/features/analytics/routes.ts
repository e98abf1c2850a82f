import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { analyticsEventsInput, analyticsQuery, analyticsReport } from '#common/contract/analytics.ts';
import { envelope } from '#common/contract/envelope.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireAdmin } from '#server/plugins/session.ts';
import { analyticsService, utcDay, type AnalyticsDeps } from './service.ts';

/** Event calls one address may make a minute (a visitor sends one a page; an office shares one address). */
export const ANALYTICS_PER_MINUTE = 120;

/** The site's analytics: the events POST (anyone, no session, no cookie) and the administrators' report. */
export function analyticsRoutes(
  deps: AnalyticsDeps,
  perMinute = ANALYTICS_PER_MINUTE,
): FastifyPluginAsyncZod {
  const analytics = analyticsService(deps);
  return async (app) => {
    // When a UTC day ends its key and marks are deleted: at the start, then just after each midnight (and at the
    // day's first call, whichever comes first), so nothing that could tie a count to an address outlives its day.
    let dayEnd: NodeJS.Timeout | null = null;
    const endPastDays = () => {
      analytics.endPastDays().catch((error: unknown) => {
        deps.log.error({ err: error }, 'analytics could not delete the keys of ended days');
      });
      const now = deps.now();
      const midnight = Date.parse(`${utcDay(new Date(now.getTime() + 86_400_000))}T00:00:00.000Z`);
      dayEnd = setTimeout(endPastDays, midnight - now.getTime() + 1000);
      dayEnd.unref();
    };
    app.addHook('onReady', async () => endPastDays());
    app.addHook('onClose', async () => {
      if (dayEnd) clearTimeout(dayEnd);
    });

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
            'Counted per UTC day: views per page (the path without its query string), each visitor (address) once ' +
            'per page a day and for at most 50 pages, and choices, a visitor’s first of the day; never the ' +
            'address or the user (decision 0043). Rate limited per address.',
          body: analyticsEventsInput,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        await analytics.record(request.body.events, request.ip);
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
