import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { encodeBody, type PageResult, type Table } from '#common/contract/sql.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { EngineKind } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildAdmin, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { pageCursorKey, pageCursorMessages, readPageCursor, writePageCursor } from './page-cursor.ts';

/*
 * Page cursors over HTTP (docs/decisions/0036-stateless-paging.md): Next and Previous with the shown page's cursor
 * give the pages by number, on another instance sharing SECRET_KEY too; a cursor not signed by this key or of
 * another table, sort, filter or page size is a 400; a cursor of a page that is not a neighbour is ignored.
 */

type Kind = Exclude<EngineKind, 'mssql'>;
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];
const SHARED = 'a shared secret key of at least thirty-two characters';
const OTHER = 'another secret key, also of at least thirty-two characters';
const snake = (n: string) => n.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

describe.each(chosen)('page cursors on %s', (kind) => {
  const n = (pascal: string) => (kind === 'postgres' ? snake(pascal) : pascal);
  let database: TestDatabase;
  let schema: string;
  const apps: { t: TestApp; admin: TestUser }[] = [];

  beforeAll(async () => {
    database = await loadChinook(kind);
    schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : database.name;
    for (const key of [SHARED, SHARED, OTHER]) {
      const chinook = await connectDatabase('chinook', kind, database.url);
      const t = await buildTestApp({ databases: [chinook], env: { SECRET_KEY: key } });
      apps.push({ t, admin: await buildAdmin(t) });
    }
  }, 120_000);
  afterAll(async () => {
    for (const { t } of apps) await t.close();
    await database?.drop();
  });

  const trackPage = (page: number, query: Record<string, string | undefined> = {}) => {
    const search = new URLSearchParams(
      Object.entries({ pageSize: '100', ...query }).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return `/api/sql/chinook/${schema}/${n('Track')}/page/${page}?${search}`;
  };
  async function get(app: number, url: string): Promise<LightMyRequestResponse> {
    const { t, admin } = apps[app]!;
    return t.app.inject({ method: 'GET', url, headers: admin.headers });
  }
  async function page(app: number, url: string): Promise<PageResult> {
    const response = await get(app, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: PageResult }>().data;
  }
  const ids = (result: PageResult) => result.results.map((r) => Number(r[n('TrackId')]));

  it('answers a cursor with each page; Next and Previous with it give the pages by number', async () => {
    const orderBy = `-${n('Composer')}`;
    const byNumber = [];
    for (let p = 1; p <= 6; p++) byNumber.push(ids(await page(0, trackPage(p, { orderBy }))));
    let shown = await page(0, trackPage(1, { orderBy }));
    expect(shown.cursor).toMatch(/^[\w-]+\.[\w-]{43}$/);
    for (let p = 2; p <= 6; p++) {
      shown = await page(0, trackPage(p, { orderBy, cursor: shown.cursor! }));
      expect(ids(shown), `page ${p}`).toEqual(byNumber[p - 1]);
    }
    for (let p = 5; p >= 1; p--) {
      shown = await page(0, trackPage(p, { orderBy, cursor: shown.cursor! }));
      expect(ids(shown), `page ${p} back`).toEqual(byNumber[p - 1]);
    }
  });

  it('takes a cursor from another instance with the same SECRET_KEY, and refuses one signed with another', async () => {
    const first = await page(0, trackPage(3));
    const second = await page(1, trackPage(4, { cursor: first.cursor! }));
    expect(ids(second)).toEqual(ids(await page(0, trackPage(4))));
    const response = await get(2, trackPage(4, { cursor: first.cursor! }));
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(pageCursorMessages.invalid);
  });

  it('refuses a tampered, malformed or foreign cursor with a 400 that says to reload', async () => {
    const orderBy = n('Name');
    const cursor = (await page(0, trackPage(2, { orderBy }))).cursor!;
    const [body, signature] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: number; l: unknown[] };
    const forged = Buffer.from(JSON.stringify({ ...payload, l: ['zzz', 1] })).toString('base64url');
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1)!;
    for (const [label, url] of [
      ['forged values', trackPage(3, { orderBy, cursor: `${forged}.${signature}` })],
      ['changed signature', trackPage(3, { orderBy, cursor: `${body}.${flipped}` })],
      ['not a cursor', trackPage(3, { orderBy, cursor: 'hello' })],
      ['too long', trackPage(3, { orderBy, cursor: 'x'.repeat(5000) })],
      ['another sort', trackPage(3, { orderBy: `-${orderBy}`, cursor })],
      ['no sort', trackPage(3, { cursor })],
      ['another page size', trackPage(3, { orderBy, cursor, pageSize: '20' })],
      [
        'another table',
        `/api/sql/chinook/${schema}/${n('Album')}/page/3?pageSize=100&orderBy=${n('Title')}&cursor=${cursor}`,
      ],
    ] as const) {
      const response = await get(0, url);
      expect(response.statusCode, label).toBe(400);
      // (The length is checked with the query's schema, whose message names the parameter.)
      expect(response.json<{ message: string }>().message, label).toContain(pageCursorMessages.invalid);
    }
  });

  it('reads a page by number when the cursor is not a neighbour’s', async () => {
    const cursor = (await page(0, trackPage(2))).cursor!;
    expect(ids(await page(0, trackPage(9, { cursor })))).toEqual(ids(await page(0, trackPage(9))));
    expect(ids(await page(0, trackPage(2, { cursor })))).toEqual(ids(await page(0, trackPage(2))));
  });

  it('seeks with a filter through the search call, and refuses a cursor of another filter', async () => {
    const { t, admin } = apps[0]!;
    const search = (p: number, filter: Record<string, unknown>, cursor?: string) =>
      t.app.inject({
        method: 'POST',
        url: `${trackPage(p, { pageSize: '20', orderBy: `-${n('Milliseconds')}`, cursor })}`.replace(
          `/page/${p}?`,
          `/page/${p}/search?`,
        ),
        headers: { ...admin.headers, 'content-type': 'text/plain' },
        payload: encodeBody(filter),
      });
    const rock = { [n('GenreId')]: 1 };
    const first = (await search(1, rock)).json<{ data: PageResult }>().data;
    const next = await search(2, rock, first.cursor!);
    expect(next.statusCode, next.body).toBe(200);
    expect(ids(next.json<{ data: PageResult }>().data)).toEqual(
      ids((await search(2, rock)).json<{ data: PageResult }>().data),
    );
    const other = await search(2, { [n('GenreId')]: 2 }, first.cursor!);
    expect(other.statusCode).toBe(400);
  });

  it('documents the cursor parameter and field in OpenAPI', async () => {
    const doc = apps[0]!.t.app.swagger() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    for (const path of [
      '/api/sql/{db}/{schema}/{table}/page/{page}',
      '/api/sql/{db}/{schema}/{table}/page/{page}/search',
    ]) {
      const operation = Object.values(doc.paths[path] ?? {})[0];
      expect(
        operation?.parameters?.some((p) => p.name === 'cursor' && p.in === 'query'),
        path,
      ).toBe(true);
    }
    expect(JSON.stringify(doc)).toContain('send it back as ?cursor=');
  });
});

describe('a page cursor', () => {
  const column = (name: string, type: string) => ({
    id: 1,
    name,
    type,
    typeGroup: 'Number' as const,
    maxLength: 0,
    precision: 0,
    scale: 0,
    isNullable: false,
    isIndexed: true,
    isForeignKey: false,
    isForeignKeySource: false,
    isGuid: false,
    isIdentity: false,
    isHidden: false,
    isComputed: false,
    isPrimaryKey: name === 'id',
    defaultValue: null,
    defaultConstant: null,
    defaultIsExpression: false,
  });
  const table = (type: string): Table => ({
    id: 'db/s/t',
    schema: 's',
    name: 't',
    isView: false,
    numberOfColumns: 2,
    numberOfRows: 10,
    numberOfRowsIsEstimate: false,
    hasIdentity: false,
    hasGuid: false,
    primaryKey: ['id'],
    identityColumn: null,
    guidColumn: null,
    columns: [column('id', 'int'), column('n', type)],
    indexes: [],
    foreignKeys: [],
  });
  const key = pageCursorKey(Buffer.alloc(32, 7));
  const scope = { database: 'db', table: table('int'), orderBy: 'n', filter: { n: ' 5 ' }, pageSize: 20 };

  it('round-trips its page and boundary, the filter read as the engine reads it', () => {
    const boundary = { first: ['12345678901234567890', 1], last: [null, 'AAEC'] };
    const cursor = writePageCursor(key, scope, 4, boundary)!;
    expect(readPageCursor(key, { ...scope, filter: { n: '5', m: '' } }, cursor)).toEqual({
      page: 4,
      boundary,
    });
  });

  it('expires when the sort column changes type (the table was altered)', () => {
    const cursor = writePageCursor(key, scope, 4, { first: [1, 1], last: [2, 2] })!;
    expect(() => readPageCursor(key, { ...scope, table: table('bigint') }, cursor)).toThrow(
      pageCursorMessages.invalid,
    );
  });

  it('is signed with HMAC-SHA256 of the key, for keys shorter, as long as and longer than a block', () => {
    for (const length of [1, 32, 64, 65, 200]) {
      const someKey = Buffer.alloc(length, length);
      const [body, signature] = writePageCursor(someKey, scope, 2, { first: [1, 1], last: [2, 2] })!.split(
        '.',
      );
      expect(signature).toBe(createHmac('sha256', someKey).update(body!).digest('base64url'));
    }
  });

  it('is none for a page without a boundary or with sort values too long to send back', () => {
    expect(writePageCursor(key, scope, 1, null)).toBeNull();
    expect(writePageCursor(key, scope, 1, { first: ['x'.repeat(3000), 1], last: ['y', 2] })).toBeNull();
  });
});
