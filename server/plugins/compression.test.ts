import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import { COMPRESSED_ROUTES, COMPRESS_MIN_BYTES, negotiateEncoding } from '#server/plugins/compression.ts';
import { buildUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { tempDir } from '#server/test/temp-dir.ts';

/*
 * Decision 0055 against a real server on a port (plain node:http, which neither asks for nor undoes an encoding): the
 * web app's files go as the build's brotli or gzip copy by Accept-Encoding, with Vary; the page shell and the API's
 * data answers are compressed as they are sent; the answers that carry a secret are not.
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const dir = tempDir();
const web = path.join(dir.path, 'web');
// An asset well over the build's threshold, and its copies as scripts/precompress.ts writes them.
const script = Buffer.from(
  Array.from(
    { length: 400 },
    (_, i) => `export const value${i} = ${JSON.stringify(`text number ${i}`)};`,
  ).join('\n'),
);
const favicon = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
let t: TestApp;
let origin = '';
let headers: Record<string, string> = {};

function get(url: string, requestHeaders: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${url}`, { headers: requestHeaders }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The body as sent back to its own bytes, by the answer's Content-Encoding. */
function decoded(answer: Answer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  return answer.body;
}

beforeAll(async () => {
  fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(web, 'index.html'),
    `<!doctype html><html><head><style>body{margin:0}</style><title>DBUI</title></head><body><div id="root">${'<p>Starting Application...</p>'.repeat(60)}</div></body></html>`,
  );
  const asset = path.join(web, 'assets', 'app-1234.js');
  fs.writeFileSync(asset, script);
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(script));
  fs.writeFileSync(path.join(web, 'favicon.svg'), favicon);

  // A small SQLite database whose first page is well over the threshold.
  const file = path.join(dir.path, 'shop.db');
  const db = new SQLite(file);
  db.exec('create table items (id integer primary key, name text not null, note text)');
  const insert = db.prepare('insert into items (name, note) values (?, ?)');
  for (let i = 0; i < 40; i++)
    insert.run(`item ${i}`, 'a note long enough to make the page worth compressing');
  db.close();

  t = await buildTestApp({
    webRoot: web,
    databases: [await connectDatabase('shop', 'sqlite', `sqlite:${file}`)],
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  headers = (await buildUser(t, { links: ['*'] })).headers;
});
afterAll(async () => {
  await t.close();
  dir.remove();
});

describe("the web app's files", () => {
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
  ])('go as the build’s copy for Accept-Encoding "%s": %s, with Vary', async (accept, encoding) => {
    const answer = await get('/assets/app-1234.js', { 'accept-encoding': accept });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers.vary?.toLowerCase()).toBe('accept-encoding');
    expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.body.length).toBeLessThan(script.length / 2);
    expect(decoded(answer).equals(script)).toBe(true);
  });

  it('go plain without Accept-Encoding (or with only what the build did not write), still with Vary', async () => {
    for (const accept of [undefined, 'identity', 'deflate']) {
      const answer = await get('/assets/app-1234.js', accept ? { 'accept-encoding': accept } : {});
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary?.toLowerCase()).toBe('accept-encoding');
      expect(answer.body.equals(script)).toBe(true);
    }
  });

  it('go plain when the build wrote no copy (too small to gain), with Vary as every file', async () => {
    const answer = await get('/favicon.svg', { 'accept-encoding': 'gzip, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary?.toLowerCase()).toBe('accept-encoding');
    expect(answer.body.equals(favicon)).toBe(true);
  });

  it('never hand out a compressed copy by its own name', async () => {
    for (const name of ['/assets/app-1234.js.br', '/assets/app-1234.js.gz']) {
      const answer = await get(name, { 'accept-encoding': 'br' });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
    }
  });
});

describe('the page shell', () => {
  it('is compressed as it is sent, with its nonce, Vary and no-store; plain when not asked', async () => {
    const compressed = await get('/home', { 'accept-encoding': 'gzip, deflate, br' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toMatch(/Accept-Encoding/);
    expect(compressed.headers['cache-control']).toBe('no-store');
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
    const page = decoded(compressed).toString('utf8');
    const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(page)?.[1];
    expect(nonce).toBeTruthy();
    expect(page).toContain(`<style nonce="${nonce}">`);
    expect(compressed.headers['content-security-policy']).toContain(`'nonce-${nonce}'`);

    const plain = await get('/home');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.body.toString('utf8')).toContain('<meta name="csp-nonce"');
  });
});

describe('API answers', () => {
  it('compresses a page of rows as asked, and sends it plain when not asked', async () => {
    const url = '/api/sql/shop/main/items/page/1';
    const brotli = await get(url, { ...headers, 'accept-encoding': 'br' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    const rows = JSON.parse(decoded(brotli).toString('utf8')) as { isSuccess: boolean; data: unknown[] };
    expect(rows.isSuccess).toBe(true);

    const gzip = await get(url, { ...headers, 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzip).toString('utf8'))).toEqual(rows);

    const plain = await get(url, headers);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.body.length).toBeGreaterThanOrEqual(COMPRESS_MIN_BYTES);
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(rows);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 2);
  });

  it('compresses the public API description', async () => {
    const answer = await get('/api/docs/json', { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(answer).toString('utf8'))).toHaveProperty('openapi');
  });

  it('leaves small answers plain', async () => {
    const answer = await get('/api/health/alive', { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses an answer that carries a secret (a new authenticator secret and its QR code)', async () => {
    const answer = await get('/api/account/totp', { ...headers, 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    // Big enough that only the rule keeps it plain.
    expect(answer.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary ?? '').not.toMatch(/Accept-Encoding/i);
    expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ isSuccess: true });
  });

  it('compresses only the routes of the decision: data and administration, never account, setup or exports', () => {
    const compressed = (route: string) => COMPRESSED_ROUTES.some((pattern) => pattern.test(route));
    for (const route of [
      '/api/sql',
      '/api/sql/:db',
      '/api/sql/:db/:schema/:table',
      '/api/sql/:db/:schema/:table/page/:page',
      '/api/sql/:db/:schema/:table/page/:page/search',
      '/api/sql/:db/:schema/:table/query',
      '/api/sql/:db/:schema/:table/query/plan',
      '/api/sql/:db/:schema/:table/foreignkeys',
      '/api/admin/users',
      '/api/admin/audit',
      '/api/docs/json',
      '/api/metrics',
      '/api/health',
    ])
      expect(compressed(route), route).toBe(true);
    for (const route of [
      '/api/account/verify',
      '/api/account/login/verify',
      '/api/account/totp',
      '/api/account/recovery-codes',
      '/api/account/passkeys/register/options',
      '/api/setup',
      '/api/captcha',
      '/api/chat/:sessionId',
      '/api/contact',
      '/api/exports/:id/file',
      '/api/sql/:db/:schema/:table/export',
      '/api/sql/:db/:schema/:table/query/export',
      '/api/sql/:db/:schema/:table/export/:id',
      '/api/sql/:db/:schema/:table/export/:id/cancel',
      '/api/sqlite',
    ])
      expect(compressed(route), route).toBe(false);
  });
});

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['GZIP;Q=1, BR;Q=0.2', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['identity', null],
    ['deflate, zstd', null],
    ['br;q=0, gzip;q=0', null],
    ['*;q=0', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
