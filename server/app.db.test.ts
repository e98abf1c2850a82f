import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthMessages } from '#common/messages.ts';
import { connectDatabase } from './engines/connect.ts';
import { createMysqlDatabase, createPostgresDatabase, type TestDatabase } from './test/server-databases.ts';
import { withXsrf } from './test/factories.ts';
import { buildTestApp, type TestApp } from './test/test-app.ts';
import { tempDir } from './test/temp-dir.ts';

describe('the API server', () => {
  const dir = tempDir();
  let postgres: TestDatabase;
  let mysql: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    [postgres, mysql] = await Promise.all([createPostgresDatabase(), createMysqlDatabase()]);
    const sqliteFile = path.join(dir.path, 'local.db');
    new SQLite(sqliteFile).close();
    const web = path.join(dir.path, 'web');
    fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>DBUI</title><div id="root"></div>');
    fs.writeFileSync(path.join(web, 'assets', 'app-1234.js'), 'console.log(1)');
    t = await buildTestApp({
      webRoot: web,
      databases: [
        await connectDatabase('local', 'sqlite', `sqlite:${sqliteFile}`),
        await connectDatabase('pg', 'postgres', postgres.url),
        await connectDatabase('maria', 'mysql', mysql.url),
      ],
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([postgres.drop(), mysql.drop()]);
    dir.remove();
  });

  it('reports the app store and every database up', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      isSuccess: true,
      message: null,
      data: {
        status: 'up',
        appStore: { engine: 'sqlite', status: 'up', writable: true },
        databases: [
          { name: 'local', engine: 'sqlite', status: 'up' },
          { name: 'pg', engine: 'postgres', status: 'up' },
          { name: 'maria', engine: 'mysql', status: 'up' },
        ],
      },
    });
  });

  it('reports a database that does not answer as down, with 503, and keeps serving', async () => {
    const down = await buildTestApp({
      databases: [await connectDatabase('gone', 'postgres', 'postgres://postgres@127.0.0.1:1/none')],
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.isSuccess).toBe(false);
      expect(body.data.status).toBe('down');
      expect(body.data.appStore.status).toBe('up');
      expect(body.data.databases[0]).toMatchObject({ name: 'gone', status: 'down' });
      // Health is public: plain words, never the driver's text (which can name hosts, users and addresses).
      expect(body.data.databases[0].error).toBe(healthMessages.databaseDown);
      expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|:1\b/);
      expect((await down.app.inject({ method: 'GET', url: '/api/setup' })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
  });

  it('gives every answer a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'proxy-42' },
    });
    expect(kept.headers['x-request-id']).toBe('proxy-42');
  });

  it('documents itself with OpenAPI from the zod schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/setup']));
    const setupBody = doc.paths['/api/setup'].post.requestBody.content['application/json'].schema;
    expect(setupBody.required).toEqual(expect.arrayContaining(['token', 'username', 'email', 'password']));
    // A save's row version and its 409 (decision 0045).
    const save = doc.paths['/api/sql/{db}/{schema}/{table}'].post;
    expect(save.description).toContain('$version');
    expect(Object.keys(save.responses)).toEqual(expect.arrayContaining(['200', '409']));
    expect(JSON.stringify(save.responses['409'])).toContain('current');
    expect(Object.keys(doc.paths['/api/sql/{db}/{schema}/{table}/delete'].post.responses)).toContain('409');
    // The filter calls (issue 35): the filter document's recursive schema, the page's parameters, the plan.
    const query = doc.paths['/api/sql/{db}/{schema}/{table}/query'].post;
    const queryBody = JSON.stringify(query.requestBody.content);
    expect(queryBody).toContain('search');
    expect(queryBody).toContain('"$ref":"#/components/schemas/FilterInput"');
    const filterSchema = JSON.stringify(doc.components.schemas.FilterInput);
    expect(filterSchema).toContain('"$ref":"#/components/schemas/FilterInput"');
    for (const word of ['and', 'or', 'not', 'column', 'contains', 'isNotNull', 'values'])
      expect(filterSchema, `the filter document's schema documents ${word}`).toContain(`"${word}"`);
    expect(query.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'pageSize', 'orderBy', 'cursor']),
    );
    expect(query.description).toContain('where.and[1].or[0]');
    const plan = doc.paths['/api/sql/{db}/{schema}/{table}/query/plan'].post;
    expect(JSON.stringify(plan.responses['200'])).toContain('estimatedRows');
    const exported = doc.paths['/api/sql/{db}/{schema}/{table}/query/export'].post;
    expect(JSON.stringify(exported.requestBody.content)).toContain('xlsx');
    expect(Object.keys(exported.responses)).toContain('202');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('answers an unknown API path with a 404 envelope that says where the API is described', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      isSuccess: false,
      data: null,
      message: 'There is no GET /api/nothing-here. The API is described at /api/docs.',
    });
  });

  it('serves the web app for page paths and caches hashed assets', async () => {
    for (const url of [
      '/',
      '/home',
      '/HOME/',
      '/db',
      '/db/demo',
      '/db/demo/main/orders',
      '/account/login?r=/x',
      '/news/The%20Future%20of%20Software',
      '/services/cloud',
      '/privacy-policy',
      '/admin/roles',
      '/admin/home',
      '/admin/users',
      '/admin/users/1',
      '/admin/audit',
      '/admin/messages',
      '/admin/analytics',
      '/admin/chats',
      '/error/unauthorized',
      '/setup?token=abc',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/home' })).statusCode).toBe(200);
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('answers unknown page paths 404, still with the app shell that shows its 404 page', async () => {
    for (const url of [
      '/no/such/page',
      '/homes',
      '/db/demo/main',
      '/db/demo/main/orders/more',
      '/account/login/x',
      '/admin/users/1/more',
      '/index.html',
      '/assets/',
      '/assets/missing-1234.js',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    const posted = await t.app.inject({ method: 'POST', url: '/home', headers: await withXsrf(t) });
    expect(posted.statusCode).toBe(404);
    expect(posted.json().isSuccess).toBe(false);
  });

  it('answers malformed input with 400 and a message naming the field, never a stack trace', async () => {
    const xsrf = await withXsrf(t);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      headers: xsrf,
      payload: {
        token: 'x',
        username: 'ad min',
        email: 'a@b.co',
        password: 'Admin#12345',
        passwordConfirm: 'Admin#12345',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      isSuccess: false,
      data: null,
      message: 'username: Contains invalid characters.',
    });

    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      headers: { ...xsrf, 'content-type': 'application/json' },
      payload: '{"token": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().isSuccess).toBe(false);
    expect(broken.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});

describe("the page's outside addresses (MASTODON_URL, SOURCE_CODE_URL, SHOP_URL, SUPPORT_EMAIL)", () => {
  const dir = tempDir();
  const apps: TestApp[] = [];
  let web: string;

  beforeAll(() => {
    web = path.join(dir.path, 'web');
    fs.mkdirSync(web, { recursive: true });
    fs.writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><head><title>DBUI</title></head><div id="root">',
    );
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    dir.remove();
  });

  async function pageOf(env: Record<string, string>): Promise<string> {
    const app = await buildTestApp({ webRoot: web, env });
    apps.push(app);
    const res = await app.app.inject({ method: 'GET', url: '/home' });
    expect(res.statusCode).toBe(200);
    return res.body;
  }

  it('are written into every page as <meta> tags for the web app, escaped; unset ones are left out', async () => {
    const page = await pageOf({
      SOURCE_CODE_URL: 'https://code.example.org/dbui?tab="readme"&x=<y>',
      SUPPORT_EMAIL: 'help@example.org',
    });
    expect(page).toContain(
      '<meta name="dbui-link-source-code" content="https://code.example.org/dbui?tab=&#34;readme&#34;&#38;x=&#60;y&#62;">',
    );
    expect(page).toContain('<meta name="dbui-support-email" content="help@example.org">');
    expect(page).not.toContain('dbui-link-mastodon');
    expect(page).not.toContain('dbui-link-shop');
    expect(await pageOf({})).not.toMatch(/dbui-link|dbui-support/);
  });
});
