import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withXsrf } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { openSecurityTarget, securityEngines, type SecurityTarget } from './harness.ts';

/*
 * Browser security headers (issue 10, finding 3). The session token lives in browser storage, so injected script
 * must not run: every answer carries a Content-Security-Policy whose scripts come only from the app's own origin
 * (no inline script, no eval), styles only from the origin or with the page's one-time nonce, no framing; and the
 * other headers that stop sniffing, framing and referrer leaks. API answers are never cached.
 */

/** The directives of a Content-Security-Policy header, by name. */
function policyOf(answer: LightMyRequestResponse): Map<string, string[]> {
  const header = answer.headers['content-security-policy'];
  expect(header, `${answer.statusCode} answer without a Content-Security-Policy`).toBeTypeOf('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name.toLowerCase(), values]),
  );
}

/** The headers every answer carries, whatever it is. */
function expectBrowserHeaders(answer: LightMyRequestResponse): Map<string, string[]> {
  const policy = policyOf(answer);
  const where = `${answer.statusCode} ${answer.headers['content-type'] ?? ''}`;
  expect(policy.get('default-src'), where).toEqual(["'self'"]);
  expect(policy.get('script-src'), where).toEqual(["'self'"]);
  expect(policy.get('object-src'), where).toEqual(["'none'"]);
  expect(policy.get('base-uri'), where).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors'), where).toEqual(["'none'"]);
  const header = String(answer.headers['content-security-policy']);
  expect(header).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|\*/);
  expect(answer.headers['x-frame-options'], where).toBe('DENY');
  expect(answer.headers['x-content-type-options'], where).toBe('nosniff');
  expect(answer.headers['referrer-policy'], where).toBe('no-referrer');
  expect(answer.headers['cross-origin-opener-policy'], where).toBe('same-origin');
  return policy;
}

/** An API answer is never stored by a browser or a proxy. */
function expectApiAnswer(answer: LightMyRequestResponse): void {
  expectBrowserHeaders(answer);
  expect(answer.headers['cache-control'], `${answer.statusCode} ${answer.body}`).toBe('no-store');
}

/** A built web app as Vite writes it: the start-up loader's inline style, the entry script, hashed assets. */
function writeWebApp(dir: string): string {
  const web = path.join(dir, 'web');
  fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(web, 'index.html'),
    [
      '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>DBUI</title>',
      '<style>.dbui-starting{display:flex}</style>',
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
      '<link rel="stylesheet" crossorigin href="/assets/index-abc123.css">',
      '</head><body><div id="root"></div></body></html>',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(web, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(web, 'assets', 'index-abc123.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return web;
}

describe('browser security headers', () => {
  const dir = tempDir('dbui-headers-');
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ webRoot: writeWebApp(dir.path) });
  });
  afterAll(async () => {
    await t?.close();
    dir.remove();
  });

  it('a page: scripts from the origin only, styles from the origin or with this answer’s nonce', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/home' });
    expect(first.statusCode).toBe(200);
    const policy = expectBrowserHeaders(first);
    const styles = policy.get('style-src') ?? [];
    expect(styles[0]).toBe("'self'");
    const nonce = /^'nonce-([A-Za-z0-9+/_-]{22,}=*)'$/.exec(styles[1] ?? '')?.[1];
    expect(nonce, `style-src ${styles.join(' ')}`).toBeDefined();
    expect(styles).toHaveLength(2);
    // The inline loader style carries the nonce, and the web app (Mantine, ALTCHA) reads it from the meta tag.
    expect(first.body).toContain(`<style nonce="${nonce}">.dbui-starting{display:flex}</style>`);
    expect(first.body).toContain(`<meta name="csp-nonce" content="${nonce}">`);
    expect(first.body).not.toMatch(/<script[^>]*nonce/);
    // Images may be data: URLs (QR codes, profile images); workers may be the blob: of the human check's solver.
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    // A page with a one-time nonce is not kept.
    expect(first.headers['cache-control']).toBe('no-store');

    const second = await t.app.inject({ method: 'GET', url: '/home' });
    const again = policyOf(second).get('style-src')?.[1];
    expect(again).not.toBe(`'nonce-${nonce}'`);
    expect(second.body).not.toContain(nonce);
  });

  it('an unknown page and the raw index.html carry the same policy', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/no/such/page' });
    expect(missing.statusCode).toBe(404);
    expect(policyOf(missing).get('style-src')?.[1]).toMatch(/^'nonce-/);
    expectBrowserHeaders(missing);
    const raw = await t.app.inject({ method: 'GET', url: '/index.html' });
    expectBrowserHeaders(raw);
    expect(raw.body).not.toMatch(/<style>/);
  });

  it('hashed assets keep their long cache, and carry the headers too', async () => {
    for (const url of ['/assets/index-abc123.js', '/assets/index-abc123.css']) {
      const asset = await t.app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expectBrowserHeaders(asset);
    }
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expectBrowserHeaders(icon);
  });

  it('API answers, successes and refusals alike, are never stored', async () => {
    expectApiAnswer(await t.app.inject({ method: 'GET', url: '/api/health' }));
    expectApiAnswer(await t.app.inject({ method: 'GET', url: '/api/setup' }));
    expectApiAnswer(await t.app.inject({ method: 'GET', url: '/api/nothing-here' }));
    expectApiAnswer(await t.app.inject({ method: 'GET', url: '/api/sql' }));
    expectApiAnswer(await t.app.inject({ method: 'POST', url: '/api/account/login', payload: {} }));
    const xsrf = await withXsrf(t, { 'content-type': 'application/json' });
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      headers: xsrf,
      payload: '{"username": ',
    });
    expect(malformed.statusCode).toBe(400);
    expectApiAnswer(malformed);
    const badUrl = await t.app.inject({ method: 'GET', url: '/api/%zz' });
    expect(badUrl.statusCode).toBe(400);
    expectApiAnswer(badUrl);
  });

  it('sends no HSTS over plain http', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect(policyOf(answer).has('upgrade-insecure-requests')).toBe(false);
  });

  it('the API documentation page works under its own policy, still without inline script', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    const policy = policyOf(page);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(String(page.headers['content-security-policy'])).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    // Its scripts are files of the origin, and nothing in the page is inline.
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]/);
    expect(page.body).not.toMatch(/<style|style="/);
    const script = /<script src="([^"]+swagger-initializer\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const initializer = await t.app.inject({
      method: 'GET',
      url: `/api/docs/${script!.replace(/^\.\//, '')}`,
    });
    expect(initializer.statusCode).toBe(200);
  });
});

describe('HSTS when PUBLIC_URL is https', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://dbui.example.com' } });
  });
  afterAll(() => t?.close());

  it('tells browsers to use https for a year, and to upgrade any http resource', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(policyOf(answer).get('upgrade-insecure-requests')).toEqual([]);
    expectApiAnswer(answer);
  });
});

describe.each(securityEngines)('data answers on %s', (kind) => {
  let target: SecurityTarget;
  beforeAll(async () => {
    target = await openSecurityTarget(kind);
  });
  afterAll(() => target?.close());

  it('a page of rows, a refused call and a missing table are never stored', async () => {
    const { t, admin } = target;
    for (const table of target.tables) {
      const page = await t.app.inject({
        method: 'GET',
        url: target.apiPath(table, '/page/1'),
        headers: admin.headers,
      });
      expect(page.statusCode, `${table}: ${page.body}`).toBe(200);
      expectApiAnswer(page);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: target.apiPath(target.canary, '/page/1') });
    expect(anonymous.statusCode).toBe(401);
    expectApiAnswer(anonymous);
    const missing = await t.app.inject({
      method: 'GET',
      url: target.apiPath('no such table', '/page/1'),
      headers: admin.headers,
    });
    expect(missing.statusCode).toBe(404);
    expectApiAnswer(missing);
    await target.expectCanaryIntact();
  });
});
