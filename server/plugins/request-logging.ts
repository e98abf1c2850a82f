import { randomUUID } from 'node:crypto';
import { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from '#server/config.ts';

/** Fastify's logging options: pino, one JSON line per event, each request's lines carry `requestId`. An incoming
 * `X-Request-Id` (from a proxy) is kept when it looks sane, so one id follows a request across services. */
export function requestLogging(config: Pick<Config, 'logLevel'>): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-xsrf-token"]'],
    },
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
  };
}
