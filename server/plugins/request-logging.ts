import { randomUUID } from 'node:crypto';
import { LogController, type FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from '#server/config.ts';

/** Query parameters whose value is a secret: the export download's one-time `t`, the setup link's `token`, the
 * OAuth callback's `code` and `state`, the pre-sign-in `pu`, and anything named like a token, key or password. */
const SECRET_PARAMETER =
  /^(?:t|pu|code|state|key|otp|nonce|sig|signature|ticket)$|token|secret|passw|credential|session|api[-_]?key/i;

function decodedName(raw: string): string {
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

/** The URL as a log line may show it: each secret query parameter's value replaced by [redacted]. */
export function redactedUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_PARAMETER.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, mark + 1)}${query.join('&')}`;
}

/** What a log line says of a request (Fastify's own fields), with the secrets of its query redacted. */
function requestInLog(request: {
  method?: string;
  url?: string;
  host?: unknown;
  ip?: unknown;
  socket?: { remotePort?: number } | null;
}) {
  return {
    method: request.method,
    url: redactedUrl(request.url ?? ''),
    host: typeof request.host === 'string' ? request.host : undefined,
    remoteAddress: typeof request.ip === 'string' ? request.ip : undefined,
    remotePort: request.socket?.remotePort,
  };
}

/** Fastify's logging options: pino, one JSON line per event, each request's lines carry `requestId`. An incoming
 * `X-Request-Id` (from a proxy) is kept when it looks sane, so one id follows a request across services. Secrets
 * never reach a line (issue 11 finding 8): a request is logged through `requestInLog`, which names no header (so no
 * credential, cookie or anti-forgery token), and query parameters that carry one are redacted. pino's own `redact`
 * of the headers is not used: nothing logs them, and it cloned every request's log object (issue 17). Lines go to
 * stdout, or to `stream` (tests read them). */
export function requestLogging(
  config: Pick<Config, 'logLevel'>,
  stream?: DestinationStream,
): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      serializers: { req: requestInLog },
      ...(stream ? { stream } : {}),
    },
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
  };
}
