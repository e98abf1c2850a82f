import type { FastifyPluginAsync } from 'fastify';
import { failureEnvelope } from '#common/contract/envelope.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { carriesToken, type MetricsScrape } from './service.ts';

/**
 * GET /api/metrics: Prometheus's text format for a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`.
 * Without METRICS_TOKEN the route answers 404, as if it did not exist; a missing or wrong token, 401.
 */
export function metricsRoutes(settings: {
  token: string | null;
  scrape: MetricsScrape | null;
}): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/api/metrics',
      {
        schema: {
          tags: ['health'],
          summary:
            'Prometheus metrics (text format) for a scraper with the bearer METRICS_TOKEN; 404 when METRICS_TOKEN is not set',
          response: { '4xx': failureEnvelope },
        },
      },
      async (request, reply) => {
        const { token, scrape } = settings;
        if (!token || !scrape)
          throw new ApiError(404, 'Metrics are off on this server: set METRICS_TOKEN to turn them on.');
        if (!carriesToken(request.headers.authorization, token))
          throw new ApiError(401, 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.');
        return reply
          .type(scrape.contentType)
          .header('cache-control', 'no-store')
          .send(await scrape.text());
      },
    );
  };
}
