import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withXsrf } from '#server/test/factories.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  quoteName,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';

/*
 * Malformed, deep and oversized bodies (issue 10 finding 7): each is refused with 400, 413 or 415 and a sentence
 * that says what to send, never internal text ("Maximum call stack size exceeded", a JSON.parse message, a
 * framework's code); nothing is written, the canary stays as it was, and the process answers after.
 */

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
/** The spec's encoding of a body: base64 of encodeURIComponent of the JSON text. */
const encoded = (json: string) => Buffer.from(encodeURIComponent(json)).toString('base64');

/** A refusal: the status, the envelope, a sentence matching `message`, and no internal text. */
function expectRefused(answer: LightMyRequestResponse, status: number, message: RegExp): void {
  expect(answer.statusCode, answer.body).toBe(status);
  const body = answer.json<{ isSuccess: boolean; data: unknown; message: string }>();
  expect(body.isSuccess).toBe(false);
  expect(body.data).toBeNull();
  expect(body.message).toMatch(message);
  expect(body.message).toMatch(/\.$/);
  expect(body.message).not.toMatch(/FST_|Unexpected token|Unsupported Media Type|Request body is too large/);
  expectNoLeak(answer);
}

const TOO_DEEP = /nests objects or arrays more than 64 levels deep/;

describe.each(securityEngines)('malformed bodies on %s', (kind) => {
  let target: SecurityTarget;
  const rowsBefore = new Map<string, unknown[]>();

  const rowsOf = (table: string) =>
    target.run(`SELECT id, name, note FROM ${quoteName(kind, table)} ORDER BY id`);

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    for (const table of [target.canary, ...target.tables]) rowsBefore.set(table, await rowsOf(table));
  });
  afterAll(() => target?.close());

  const write = (table: string, type: string, payload: string | Buffer, rest = '') =>
    target.t.app.inject({
      method: 'POST',
      url: target.apiPath(table, rest),
      headers: { ...target.admin.headers, 'content-type': type },
      payload,
    });

  it('refuses deeply nested JSON, plain, encoded or as an encoded string, on every table', async () => {
    for (const table of target.tables) {
      expectRefused(await write(table, 'application/json', deepArray(100_000)), 400, TOO_DEEP);
      expectRefused(await write(table, 'application/json', `{"name":${deepObject(50_000)}}`), 400, TOO_DEEP);
      expectRefused(
        await write(table, 'text/plain', encoded(`{"name":${deepArray(20_000)}}`)),
        400,
        TOO_DEEP,
      );
      expectRefused(
        await write(table, 'application/json', JSON.stringify(encoded(deepObject(20_000)))),
        400,
        TOO_DEEP,
      );
      expectRefused(await write(table, 'application/json', deepArray(100_000), '/delete'), 400, TOO_DEEP);
    }
    // A filter too: the page search reads the same bodies.
    expectRefused(
      await write(target.canary, 'text/plain', encoded(deepArray(5000)), '/page/1/search'),
      400,
      TOO_DEEP,
    );
  });

  it('refuses malformed JSON and encodings with a sentence of its own', async () => {
    const table = target.tables[0] ?? target.canary;
    expectRefused(await write(table, 'application/json', '{"name": '), 400, /^The row is not valid JSON/);
    expectRefused(await write(table, 'application/json', '{"name": x}'), 400, /^The row is not valid JSON/);
    expectRefused(await write(table, 'text/plain', encoded('{"name": ')), 400, /is not valid JSON/);
    expectRefused(await write(table, 'text/plain', '@@not base64@@'), 400, /is not valid base64/);
    expectRefused(await write(table, 'application/json', '{"__proto__": {"id": 1}}'), 400, /__proto__/);
  });

  it('refuses bodies of other types', async () => {
    const table = target.tables[0] ?? target.canary;
    for (const type of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ])
      expectRefused(
        await write(table, type, '<row><name>x</name></row>'),
        415,
        /send it as text\/plain or application\/json/,
      );
  });

  it('refuses huge bodies: over the limit, and encoded garbage under it', async () => {
    const table = target.tables[0] ?? target.canary;
    const overLimit = 'A'.repeat(33 * 1024 * 1024);
    expectRefused(
      await write(table, 'text/plain', overLimit),
      413,
      /larger than the 32 MB this call accepts/,
    );
    expectRefused(
      await write(table, 'application/json', `{"name":"${overLimit}"}`),
      413,
      /larger than the 32 MB this call accepts/,
    );
    const garbage = Buffer.from('%'.repeat(3 * 1024 * 1024)).toString('base64');
    expectRefused(await write(table, 'text/plain', garbage), 400, /URL encoding is broken/);
  });

  it('refuses the same on a plain JSON route (sign-in), before anything reads the body', async () => {
    const headers = await withXsrf(target.t, { 'content-type': 'application/json' });
    const login = (payload: string, type = 'application/json') =>
      target.t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        headers: { ...headers, 'content-type': type },
        payload,
      });
    expectRefused(await login(deepArray(100_000)), 400, TOO_DEEP);
    expectRefused(await login(`{"username":${deepObject(10_000)}}`), 400, TOO_DEEP);
    expectRefused(await login('{"username": '), 400, /^The request body is not valid JSON/);
    expectRefused(await login(''), 400, /^The request body is empty/);
    expectRefused(await login('{"__proto__": {"isAdmin": 1}}'), 400, /__proto__/);
    expectRefused(await login('<login/>', 'application/xml'), 415, /Content-Type: application\/json/);
    expectRefused(
      await login(JSON.stringify({ username: 'x'.repeat(3 * 1024 * 1024) })),
      413,
      /larger than the 1 MB/,
    );
  });

  it('wrote nothing, and the process is healthy', async () => {
    for (const [table, rows] of rowsBefore) expect(await rowsOf(table), table).toEqual(rows);
    await target.expectCanaryIntact();
    await expectHealthy(target);
  });
});
