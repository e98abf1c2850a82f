import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestMessages as rm } from '#common/messages.ts';
import { ApiError } from './error-envelope.ts';

/**
 * The deepest nesting of objects and arrays a JSON body may have. Real bodies (rows, filters, account forms) nest
 * a few levels, a JSON column's value a few more; thousands of levels only make recursive code (a reviver, a
 * validator, a serializer) run out of stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests objects and arrays deeper than `max`: one pass over the characters, before any parsing,
 * that stops at the first level too deep. Brackets inside strings do not count. */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** What is wrong with JSON text, in our words, from the SyntaxError JSON.parse threw: where, or that it ends too
 * early; null when the engine's text says neither (its own words are not passed on). */
export function jsonSyntaxProblem(error: unknown): string | null {
  if (!(error instanceof SyntaxError)) return null;
  const at = /\bposition (\d+)/.exec(error.message)?.[1];
  if (at !== undefined) return `at character ${Number(at) + 1}`;
  if (/unexpected end/i.test(error.message)) return 'it ends before the JSON is complete';
  return null;
}

/** Refuses JSON text that nests too deeply, with a sentence that says so (400). */
export function refuseDeepJson(text: string): void {
  if (nestsDeeperThan(text)) throw new ApiError(400, rm.bodyTooDeep(MAX_JSON_DEPTH));
}

/**
 * Replaces Fastify's JSON body parser: the depth is checked first, then Fastify's own parser (secure-json-parse,
 * refusing `__proto__` and `constructor.prototype` keys) reads it; every way a body can be wrong is answered 400
 * with a sentence of ours. Routes with a parser of their own (the encoded bodies of api/sql) call refuseDeepJson.
 */
export function jsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(new ApiError(400, rm.bodyEmpty));
      if (nestsDeeperThan(text)) return done(new ApiError(400, rm.bodyTooDeep(MAX_JSON_DEPTH)));
      parse(request, text, (error, value) => {
        if (!error) return done(null, value);
        // Fastify's parser says only that it failed: plain JSON.parse tells a syntax error from a forbidden key.
        try {
          JSON.parse(text);
          done(new ApiError(400, rm.bodyForbiddenKey));
        } catch (syntax) {
          done(new ApiError(400, rm.bodyNotJson(jsonSyntaxProblem(syntax))));
        }
      });
    },
  );
}
