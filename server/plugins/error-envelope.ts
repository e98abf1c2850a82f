import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { storeMessages as sm } from '#common/messages.ts';
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

/** The spec's `{isSuccess, data, message}` for a failure. */
export function failure(message: string) {
  return { isSuccess: false as const, data: null, message };
}

/** The spec's `{isSuccess, data, message}` for a success. */
export function success<T>(data: T, message: string | null = null) {
  return { isSuccess: true as const, data, message };
}

/**
 * Every error leaves as the envelope with a message a person can act on: validation problems name the field,
 * our own ApiErrors say what to fix, anything unexpected is logged with its stack and answered without one.
 */
export function errorEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const where = error.validationContext === 'body' ? '' : `${error.validationContext} `;
      const message = first
        ? `${field ? `${where}${field}: ` : ''}${first.message}`
        : 'The request is not valid.';
      return reply.code(400).send(failure(message));
    }
    if (error instanceof ApiError) return reply.code(error.statusCode).send(failure(error.message));
    // A database call that failed in a way a person can act on: 400/404/409, down 503, too slow 504.
    if (error instanceof EngineError) {
      if (error.statusCode >= 500) request.log.warn({ err: error.cause ?? error }, error.message);
      return reply.code(error.statusCode).send(failure(error.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(failure(error.message));
    // The app store cannot take a write (a full disk): the call needed one, and nothing a person sends will fix it.
    if (isUnwritable(error)) {
      request.log.error({ err: error }, 'the app store cannot be written');
      return reply.code(503).send(failure(sm.cannotSave));
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send(failure(`Something went wrong on the server. It was logged with request id ${request.id}.`));
  });
}
