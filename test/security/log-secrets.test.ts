import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAndDownload } from '#server/test/export-steps.ts';
import { openSecurityTarget, securityEngines, type SecurityTarget } from './harness.ts';

/*
 * Secrets in the request log (issue 11 finding 8): the export download's one-time `t` appeared in every log line of
 * its request. The log lines of real requests are read from pino's stream and searched for every secret the test
 * created or sent: none may appear, while the rest of each request's address stays readable.
 */

describe.each(securityEngines)('the request log on %s', (kind) => {
  let target: SecurityTarget;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    target = await openSecurityTarget(kind, { env: { LOG_LEVEL: 'info' }, logStream: stream });
  });
  afterAll(() => target?.close());

  /** The URL each logged request line shows. */
  const loggedUrls = () =>
    lines
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));

  it('never shows the one-time download token, nor any other secret sent in a query', async () => {
    const { t, admin } = target;
    const { status } = await exportAndDownload(t, admin, target.apiPath(target.canary));
    const downloadUrl = status.url ?? '';
    const token = new URL(downloadUrl, 'http://x').searchParams.get('t') ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const secret = () => randomBytes(12).toString('hex');
    const sent = {
      setup: secret(),
      code: secret(),
      state: secret(),
      pu: secret(),
      accessToken: secret(),
      clientSecret: secret(),
      password: secret(),
      encodedName: secret(),
    };
    for (const url of [
      `/setup?token=${sent.setup}`,
      `/api/account/login/google/callback?code=${sent.code}&state=${sent.state}`,
      `/account/login?pu=${sent.pu}&r=/home`,
      `/api/health?access_token=${sent.accessToken}&client_secret=${sent.clientSecret}&password=${sent.password}`,
      // An export link with the token's name percent-encoded, and one used again (refused, still logged).
      `${downloadUrl.split('?')[0]}?%74=${sent.encodedName}`,
      downloadUrl,
    ])
      await t.app.inject({ method: 'GET', url, headers: admin.headers });

    const log = lines.join('\n');
    for (const [name, value] of Object.entries({ token, ...sent, bearer: admin.token }))
      expect(log, `the log shows the ${name}`).not.toContain(value);

    // What is not secret stays: the path, the export id, the return address.
    const urls = loggedUrls();
    expect(urls).toContain(`${downloadUrl.split('?')[0]}?t=[redacted]`);
    expect(urls).toContain('/setup?token=[redacted]');
    expect(urls).toContain('/api/account/login/google/callback?code=[redacted]&state=[redacted]');
    expect(urls).toContain('/account/login?pu=[redacted]&r=/home');
    expect(urls).toContain(
      '/api/health?access_token=[redacted]&client_secret=[redacted]&password=[redacted]',
    );
  });
});
