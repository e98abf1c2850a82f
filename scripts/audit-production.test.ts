import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * scripts/audit-production.mjs runs the real `npm audit` on this project's lockfile against an advisory endpoint
 * of the test's own on 127.0.0.1 (npm_config_registry), which answers as the registry would: an advisory, none,
 * or 405 (a mirror without the audit endpoint).
 */

type Answer = 'advisory' | 'browser' | 'none' | 'unavailable';
let answer: Answer = 'none';
let registry = '';
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    if (request.method !== 'POST' || !request.url?.includes('/-/npm/v1/security/advisories/bulk')) {
      // Package documents npm asks for to say whether a fix exists: none here.
      response.statusCode = 404;
      response.end('{}');
      return;
    }
    if (answer === 'unavailable') {
      response.statusCode = 405;
      response.end();
      return;
    }
    const advisory = {
      id: 1,
      url: 'https://example.com/advisory/1',
      title: 'A made-up hole',
      severity: 'high',
      vulnerable_versions: '<999.0.0',
      cwe: [],
      cvss: { score: 8, vectorString: null },
    };
    response.setHeader('content-type', 'application/json');
    // fastify is a production dependency; react-dom a development one npm would leave out (--omit=dev) that the
    // web app bundles into every page; vitest a development one that ships nowhere.
    const hit = { advisory: 'fastify', browser: 'react-dom', none: 'vitest' }[answer];
    response.end(JSON.stringify({ [hit]: [advisory] }));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function audit(env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/audit-production.mjs'], {
      env: { ...process.env, npm_config_registry: registry, AUDIT_STRICT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the production audit', () => {
  it('fails on a high advisory in a production dependency, naming it', async () => {
    answer = 'advisory';
    const { code, output } = await audit();
    expect(code).toBe(1);
    expect(output).toContain('fastify [high]: A made-up hole (https://example.com/advisory/1, <999.0.0)');
  });

  it('fails on a high advisory in a package the web app ships to the browser, though npm calls it a dev one', async () => {
    answer = 'browser';
    const { code, output } = await audit();
    expect(code).toBe(1);
    expect(output).toContain('react-dom [high]: A made-up hole (https://example.com/advisory/1, <999.0.0)');
  });

  it('passes when the only advisory is in a development dependency that ships nowhere', async () => {
    answer = 'none';
    const { code, output } = await audit();
    expect(code).toBe(0);
    expect(output).toContain(
      "npm audit: no high or critical advisory in production dependencies or the web app's packages",
    );
    // The web app's own libraries are named as audited.
    expect(output).toMatch(/Web packages audited beside the production ones: .*@mantine\/core.*react-router/);
  });

  it('says plainly that nothing was audited when the endpoint cannot be asked, and fails only when strict', async () => {
    answer = 'unavailable';
    const soft = await audit();
    expect(soft.code).toBe(0);
    expect(soft.output).toMatch(
      /the advisory service could not be asked \(.*405.*\); production dependencies were NOT audited/,
    );
    const strict = await audit({ AUDIT_STRICT: '1' });
    expect(strict.code).toBe(1);
  });
});
