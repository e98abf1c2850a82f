import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatStreamLine } from '#common/contract/chat.ts';
import type { DatabaseSummary, RowConflict, TableListItem } from '#common/contract/sql.ts';
import { databaseSummary } from '#common/contract/sql.ts';
import { z } from 'zod';
import { apiGet, apiPost, apiPostEncoded } from '#web/api/client.ts';
import { albumTable } from '#web/features/browser/test-tables.ts';
import {
  chatStream,
  createFakeApi,
  fail,
  ok,
  raw,
  reply,
  transportError,
  type FakeApiControl,
} from '#web/test/fake-api.ts';
import { findContractRoute } from '#web/test/contract-routes.ts';

let control: FakeApiControl;
beforeEach(() => {
  control = createFakeApi();
  vi.stubGlobal('fetch', control.api.fetch);
});
afterEach(() => vi.unstubAllGlobals());

const databases: DatabaseSummary[] = [{ name: 'chinook', engine: 'sqlite' }];

describe('the fake API', () => {
  it('serves a canned answer as the server does: the envelope, its status, JSON', async () => {
    control.api.on('GET', '/api/sql', ok(databases, 'Two databases.'));
    const response = await fetch('/api/sql', { method: 'GET' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(await response.json()).toEqual({ isSuccess: true, data: databases, message: 'Two databases.' });
    const result = await apiGet('/api/sql', { schema: z.array(databaseSummary) });
    expect(result).toEqual({ isSuccess: true, data: databases, message: 'Two databases.' });
    control.api.on('POST', '/api/sql/:db/:schema/:table/export', ok({ id: 'e1' }));
    expect((await fetch('/api/sql/chinook/main/Album/export', { method: 'POST' })).status).toBe(202);
  });

  it('refuses a canned answer that the contract refuses, naming the route and the issue', () => {
    const broken = { ...albumTable, rights: { canInsert: 'yes' } };
    expect(() => control.api.on('GET', '/api/sql/chinook', ok([broken]))).toThrow(
      /GET \/api\/sql\/chinook is not what the server sends \(contract of GET \/api\/sql\/:db\):[\s\S]*canInsert/,
    );
    expect(() => control.api.on('GET', '/api/sql', ok([{ name: 'chinook' }]))).toThrow(/engine/);
    // The message of an envelope is a string or null.
    expect(() => control.api.on('GET', '/api/sql', ok(databases, 42 as unknown as string))).toThrow(
      /message/,
    );
  });

  it('fails the test when an answer made at request time breaks the contract', async () => {
    control.api.on('GET', '/api/sql/:db', () => ok([{ ...albumTable, columns: 'none' }]));
    const result = await apiGet<TableListItem[]>('/api/sql/chinook');
    expect(result.isSuccess).toBe(false);
    expect(control.violations()).toEqual([
      expect.stringMatching(/GET \/api\/sql\/chinook is not what the server sends[\s\S]*columns/),
    ]);
    control.reset();
    expect(control.violations()).toEqual([]);
  });

  it('takes failures with the data only where the route carries some', async () => {
    const conflict: RowConflict = { current: { AlbumId: 1, Title: 'Theirs' } };
    control.api.on('POST', '/api/sql/:db/:schema/:table', fail(409, 'The row changed.', conflict));
    const response = await fetch('/api/sql/chinook/main/Album', { method: 'POST', body: '' });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ isSuccess: false, data: conflict, message: 'The row changed.' });
    expect(() => control.api.on('POST', '/api/account/login', fail(401, 'No.', { key: 'k' }))).toThrow(
      /401 failure carries data null/,
    );
    expect(() => control.api.on('POST', '/api/account/login', fail(200, 'No.'))).toThrow(/400 or more/);
    expect(() =>
      control.api.on('POST', '/api/sql/:db/:schema/:table', fail(409, 'x', { current: 1 })),
    ).toThrow(/current/);
  });

  it('serves an envelope as it is where the server sends one that is neither', async () => {
    const failed = {
      id: 'e1',
      state: 'failed',
      inProgress: false,
      percentageCompleted: 10,
      percentageRemaining: 90,
      secondsRemaining: null,
      data: null,
      url: null,
      format: 'csv',
      rowsWritten: 3,
      rowsTotal: 30,
      rowsTotalIsEstimate: false,
      error: 'The export failed.',
    };
    const body = { isSuccess: false, data: failed, message: 'The export failed.' };
    control.api.on('GET', '/api/sql/:db/:schema/:table/export/:id', reply(200, body));
    const response = await fetch('/api/sql/c/main/t/export/e1');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(body);
    expect(() =>
      control.api.on(
        'GET',
        '/api/sql/:db/:schema/:table/export/:id',
        reply(200, { ...body, data: { id: 1 } }),
      ),
    ).toThrow(/state/);
    expect(() => control.api.on('GET', '/api/setup', reply(500, { ...body, data: { id: 1 } }))).toThrow(
      /500 failure carries data null/,
    );
  });

  it('knows only the routes the server has', async () => {
    expect(() => control.api.on('GET', '/api/sqll', ok(null))).toThrow(
      'fake API: the server has no route GET /api/sqll',
    );
    expect(() => control.api.on('PUT', '/api/sql', ok(databases))).toThrow(/no route PUT \/api\/sql/);
    const result = await apiGet('/api/nowhere');
    expect(result).toMatchObject({ isSuccess: false, status: 404 });
    expect(control.violations()).toEqual([
      'fake API: the app asked for GET /api/nowhere, a route the server does not have.',
    ]);
  });

  it('lets unchecked answers stand outside the contract, and only those', async () => {
    control.api.on('PUT', '*', raw(new Response('<html>proxy</html>', { status: 502 })));
    control.api.on('GET', '/api/nowhere', transportError(new TypeError('offline')));
    expect((await fetch('/api/anything', { method: 'PUT' })).status).toBe(502);
    expect((await fetch('https://elsewhere.example/x', { method: 'PUT' })).status).toBe(502);
    expect((await apiGet('/api/nowhere')).message).toBe('offline');
    expect(() => control.api.on('GET', '*', ok(null))).toThrow(/no route GET \*/);
    control.api.on('GET', '/api/elsewhere', () => ok(null));
    expect((await apiGet('/api/elsewhere')).isSuccess).toBe(false);
    expect(control.violations()).toEqual([
      expect.stringMatching(/GET \/api\/elsewhere: the server has no such route/),
    ]);
  });

  it('picks the route as the server does: a literal segment before a parameter', () => {
    expect(findContractRoute('POST', '/api/admin/users/3/roles')?.route.path).toBe(
      '/api/admin/users/:id/roles',
    );
    expect(findContractRoute('POST', '/api/admin/chinook/main/Album')?.route.path).toBe(
      '/api/admin/:db/:schema/:table',
    );
    expect(findContractRoute('GET', '/api/sql/sales%20db')?.params).toEqual({ db: 'sales db' });
    expect(findContractRoute('GET', '/api/account/eotp/verify/123456')?.route.path).toBe(
      '/api/account/eotp/verify/:code',
    );
  });

  it('answers a request nothing answers with a 404 failure envelope', async () => {
    const result = await apiGet('/api/sql');
    expect(result).toMatchObject({ isSuccess: false, status: 404 });
    expect(result.message).toBe('fake API: the test gives no answer for GET /api/sql');
    expect(control.violations()).toEqual([]);
  });

  it('lets the last answer win, one-time answers first, and matches patterns and queries', async () => {
    control.api.on('GET', '/api/sql', ok([]));
    control.api.on('GET', '/api/sql', ok(databases));
    control.api.once('GET', '/api/sql', ok([{ name: 'first', engine: 'postgres' }]));
    control.api.once('GET', '/api/sql', ok([{ name: 'second', engine: 'postgres' }]));
    const names = async () =>
      ((await apiGet<DatabaseSummary[]>('/api/sql')).data ?? []).map((database) => database.name);
    expect(await names()).toEqual(['first']);
    expect(await names()).toEqual(['second']);
    expect(await names()).toEqual(['chinook']);

    control.api.on('GET', '/api/admin/users', ok({ results: [], count: 0 }));
    control.api.on('GET', '/api/admin/users?page=2', ok({ results: [], count: 99 }));
    control.api.on('GET', '/api/admin/users/:id', (request) => fail(404, `No user ${request.params.id}.`));
    expect((await apiGet<{ count: number }>('/api/admin/users?page=1')).data?.count).toBe(0);
    expect((await apiGet<{ count: number }>('/api/admin/users?search=a&page=2')).data?.count).toBe(99);
    expect((await apiGet('/api/admin/users/7')).message).toBe('No user 7.');
  });

  it('keeps every request with its body as the server reads it', async () => {
    control.api.on(
      'POST',
      '/api/account/login',
      ok({ key: 'k', allowed2fa: ['Email'], preferred2fa: 'Email', disableSelect2fa: true }),
    );
    await apiPost('/api/account/login', { username: 'ada', password: 'secret' });
    await apiPostEncoded('/api/sql/chinook/main/Album/search', { Title: 'Rock & Roll' });
    expect(control.api.requests().map((request) => request.url)).toEqual([
      '/api/account/login',
      '/api/sql/chinook/main/Album/search',
    ]);
    expect(control.api.requests('POST', '/api/account/login')[0]?.body).toEqual({
      username: 'ada',
      password: 'secret',
    });
    const search = control.api.requests('POST', '/api/sql/:db/:schema/:table/search')[0];
    expect(search?.body).toEqual({ Title: 'Rock & Roll' });
    expect(search?.params).toEqual({ db: 'chinook', schema: 'main', table: 'Album' });
    expect(control.api.fetch.mock.calls[0]?.[0]).toBe('/api/account/login');
  });

  it('serves raw answers, transport errors, streams and aborts unchecked by the envelope', async () => {
    control.api.on(
      'GET',
      '/api/exports/:id/file',
      raw(() => new Response('a,b\n', { status: 200 })),
    );
    expect(await (await fetch('/api/exports/e1/file')).text()).toBe('a,b\n');
    control.api.on('GET', '/api/sql', transportError());
    expect((await apiGet('/api/sql')).message).toBe('Failed to fetch');

    expect(() =>
      control.api.on('POST', '/api/chat/:id/add', chatStream({ type: 'delta', text: 'x' })),
    ).not.toThrow();
    expect(() =>
      control.api.on(
        'POST',
        '/api/chat/:id/add',
        chatStream({ type: 'done', data: { remaining: 'many' } } as unknown as ChatStreamLine),
      ),
    ).toThrow(/remaining/);
    expect(() => control.api.on('GET', '/api/sql', chatStream())).toThrow(/only POST \/api\/chat/);

    control.api.on('GET', '/api/setup', () => new Promise(() => undefined));
    const aborted = new AbortController();
    const pending = apiGet('/api/setup', { signal: aborted.signal });
    aborted.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
