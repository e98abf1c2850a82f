import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { problemWithin } from '#common/contract/filter.ts';
import { requestMessages as rm, storeMessages as sm } from '#common/messages.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { isUnwritable } from '#server/store/unwritable.ts';

/** A failure a service raises on purpose: its message is for the person and is sent as it is. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The spec's `{isSuccess, data, message}` for a failure; data is null but where a failure says more (a 409 of a
 * row changed since carries the row as it is now). */
export function failure<T = null>(message: string, data: T | null = null) {
  return { isSuccess: false as const, data, message };
}

/** The spec's `{isSuccess, data, message}` for a success. */
export function success<T>(data: T, message: string | null = null) {
  return { isSuccess: true as const, data, message };
}

/** A body limit in words: "32 MB", "1 MB", "512 KB". */
function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Fastify's own refusals of a request, in our words (its texts name its internals, such as content-type parsers). */
function frameworkMessage(error: FastifyError, request: FastifyRequest): string | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return rm.bodyTooLarge(sizeInWords(request.routeOptions.bodyLimit));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return rm.unsupportedMediaType;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return rm.bodyLengthWrong;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return rm.bodyEmpty;
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return rm.bodyNotJson(null);
    case 'FST_ERR_BAD_URL':
      return rm.addressBroken;
    default:
      return null;
  }
}

/**
 * Every error leaves as the envelope with a message a person can act on: validation problems name the field,
 * our own ApiErrors and EngineErrors say what to fix, Fastify's refusals of a body or an address get our sentences.
 * Anything else is logged with its stack and answered with a plain sentence and the request id, never its own text
 * (a RangeError, a TypeError, a driver's message): whatever status it carries, the text was not written for people.
 */
export function errorEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const path = first?.instancePath.replace(/^\//, '') ?? '';
      // A filter document's places as its conditions are named (`where.and[0].value`, issue 35); elsewhere the dotted
      // path the spec's texts use (`user.user_Details.0.email`).
      const field = (
        /^where(?:\/|$)/.test(path) ? path.replace(/\/(\d+)(?=\/|$)/g, '[$1]') : path
      ).replaceAll('/', '.');
      const where = error.validationContext === 'body' ? '' : `${error.validationContext} `;
      // A union that says which of its shapes went wrong starts with the path inside it (the filter document's
      // `and[0].op: …`): one path, `where.and[0].op: …`.
      const inner =
        first?.keyword === 'invalid_union' && field ? problemWithin(field, first.message ?? '') : null;
      const message = !first
        ? 'The request is not valid.'
        : inner
          ? `${where}${inner}`
          : `${field ? `${where}${field}: ` : ''}${first.message}`;
      return reply.code(400).send(failure(message));
    }
    if (error instanceof ApiError) return reply.code(error.statusCode).send(failure(error.message));
    // A database call that failed in a way a person can act on: 400/404/409, down 503, too slow 504.
    if (error instanceof EngineError) {
      if (error.statusCode >= 500) request.log.warn({ err: error.cause ?? error }, error.message);
      return reply.code(error.statusCode).send(failure(error.message, error.data));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const known = frameworkMessage(error, request);
      if (known) return reply.code(status).send(failure(known));
      request.log.warn({ err: error }, 'request refused');
      return reply.code(status).send(failure(rm.refused(status, request.id)));
    }
    // The app store cannot take a write (a full disk): the call needed one, and nothing a person sends will fix it.
    if (isUnwritable(error)) {
      request.log.error({ err: error }, 'the app store cannot be written');
      return reply.code(503).send(failure(sm.cannotSave));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(failure(rm.serverFailed(request.id)));
  });
}

/** The answer to Fastify's frameworkErrors (an address it cannot decode: a broken %-escape): the envelope, as for
 * every other refusal. Fastify runs no hook for these; the caller sets the headers every answer carries. */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode ?? 400;
  const known = status < 500 ? frameworkMessage(error, request) : null;
  if (!known) request.log[status < 500 ? 'warn' : 'error']({ err: error }, 'request refused');
  const message = known ?? (status < 500 ? rm.refused(status, request.id) : rm.serverFailed(request.id));
  void reply.code(status).send(failure(message));
}
