import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAdmin } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { redactedUrl } from './request-logging.ts';

describe('request logging', () => {
  let t: TestApp;
  let lines: string[];

  beforeEach(async () => {
    lines = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({ env: { LOG_LEVEL: 'info' }, logStream });
  });
  afterEach(() => t.close());

  it('logs each request with its id, method, redacted URL and status, and no credential of its headers', async () => {
    const admin = await buildAdmin(t);
    const xsrf = admin.headers['x-xsrf-token'] ?? '';
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout?token=the-query-secret&page=2&pass%77ord=hunter2',
      headers: { ...admin.headers, 'x-request-id': 'req-1.a' },
    });
    expect(answer.statusCode).toBeLessThan(500);
    const logged = lines.join('\n');
    for (const secret of [admin.token, xsrf, 'the-query-secret', 'hunter2'])
      expect(logged).not.toContain(secret);
    const request = lines.map((line) => JSON.parse(line)).filter((entry) => entry.requestId === 'req-1.a');
    expect(request.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
    expect(request[0].req).toEqual({
      method: 'POST',
      url: '/api/account/logout?token=[redacted]&page=2&pass%77ord=[redacted]',
      host: 'localhost:80',
      remoteAddress: '127.0.0.1',
    });
    expect(request[1].res.statusCode).toBe(answer.statusCode);
  });

  it('redacts secret query parameters by their decoded names and leaves the rest as sent', () => {
    expect(redactedUrl('/a')).toBe('/a');
    expect(redactedUrl('/a?x=1&t=2&api%5Fkey=3&%74oken=4&my+secret=5&flag')).toBe(
      '/a?x=1&t=[redacted]&api%5Fkey=[redacted]&%74oken=[redacted]&my+secret=[redacted]&flag',
    );
    expect(redactedUrl('/a?%E0%A4%A=1')).toBe('/a?%E0%A4%A=1');
  });
});
