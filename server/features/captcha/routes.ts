import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { altchaChallenge, type Captcha } from './captcha.ts';

/**
 * GET /api/captcha: a fresh human-check challenge. Not wrapped in the envelope: the ALTCHA widget fetches it from
 * its `challenge` URL and reads the object as it is.
 */
export function captchaRoutes(captcha: Captcha): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/captcha',
      {
        schema: {
          tags: ['account'],
          summary: 'A human-check challenge (ALTCHA proof of work) for login, signup and forgot password',
          description:
            "Answered in ALTCHA's own JSON shape, not the envelope. Solve it (the ALTCHA widget does) and send the " +
            "widget's base64 payload as `token`; a challenge expires after a few minutes (5 by default) and each solution works once.",
          response: { 200: altchaChallenge },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return captcha.challenge();
      },
    );
  };
}
