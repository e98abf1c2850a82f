import { PassThrough } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '#server/engines/engine-error.ts';
import { ApiError, errorEnvelope } from './error-envelope.ts';

/*
 * The error envelope passes on only text written for people: our ApiErrors and EngineErrors. Any other error, with
 * whatever status it carries, is answered with a plain sentence and the request id, and logged with its own text.
 */

/** An error as a library throws it: its own text, and a status code set on it. */
function libraryError(error: Error, statusCode: number, code?: string): Error {
  return Object.assign(error, { statusCode, ...(code ? { code } : {}) });
}

describe('the error envelope', () => {
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    app = Fastify({ logger: { level: 'info', stream } });
    errorEnvelope(app);
    app.get('/ours', () => {
      throw new ApiError(409, 'That name is taken. Choose another.');
    });
    app.get('/engine', () => {
      throw new EngineError(404, 'The table "x" was not found.');
    });
    app.get('/stack', () => {
      throw libraryError(new RangeError('Maximum call stack size exceeded'), 400);
    });
    app.get('/type', () => {
      throw libraryError(new TypeError("Cannot read properties of undefined (reading 'id')"), 422);
    });
    app.get('/driver', () => {
      throw libraryError(
        new Error("ER_PARSE_ERROR: You have an error in your SQL syntax near 'x'"),
        400,
        'ER_PARSE_ERROR',
      );
    });
    app.get('/crash', () => {
      throw new TypeError("Cannot read properties of null (reading 'rows')");
    });
    await app.ready();
  });
  afterAll(() => app?.close());

  it('passes on the sentences written for people', async () => {
    const ours = await app.inject({ method: 'GET', url: '/ours' });
    expect(ours.statusCode).toBe(409);
    expect(ours.json()).toEqual({
      isSuccess: false,
      data: null,
      message: 'That name is taken. Choose another.',
    });
    const engine = await app.inject({ method: 'GET', url: '/engine' });
    expect(engine.statusCode).toBe(404);
    expect(engine.json().message).toBe('The table "x" was not found.');
  });

  it.each([
    ['/stack', 400, 'Maximum call stack size exceeded'],
    ['/type', 422, 'Cannot read properties of undefined'],
    ['/driver', 400, 'You have an error in your SQL syntax'],
  ])(
    'answers %s (%i) with a plain sentence and the request id, and logs the real error',
    async (url, status, text) => {
      const answer = await app.inject({ method: 'GET', url, headers: { 'x-request-id': `probe-${status}` } });
      expect(answer.statusCode).toBe(status);
      const body = answer.json<{ isSuccess: boolean; message: string }>();
      expect(body.isSuccess).toBe(false);
      expect(body.message).not.toContain(text);
      expect(body.message).not.toMatch(/Error|ER_/);
      expect(body.message).toMatch(
        new RegExp(`^The server could not take this request \\(HTTP ${status}\\)\\. .*request id \\S+\\.$`),
      );
      const requestId = /request id (\S+)\.$/.exec(body.message)?.[1];
      const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; err?: { message?: string } });
      expect(logged.some((line) => line.reqId === requestId && line.err?.message?.includes(text))).toBe(true);
    },
  );

  it('answers an unexpected failure with 500, a plain sentence and the request id', async () => {
    const answer = await app.inject({ method: 'GET', url: '/crash' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json().message).toMatch(
      /^Something went wrong on the server\. It was logged with request id \S+\.$/,
    );
    expect(answer.body).not.toContain('rows');
  });
});
