import path from 'node:path';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import { migrateAppStore, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { claimUndo, deleteAuditBefore, findUndoOf, listAudit } from '#server/store/audit.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { AUDIT_SWEEP_INTERVAL_MS, auditRetention } from './audit-retention.ts';

/*
 * The audit trail API (administrators only): newest first, paged, narrowed by user, table, actions and time; and
 * its retention (AUDIT_RETENTION_DAYS), swept when the app is ready and then daily.
 */

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

interface Entry {
  id: number;
  at: string;
  userId: number | null;
  username: string | null;
  action: string;
  target: string | null;
  detail: unknown;
  address: string | null;
  undoneBy: number | null;
  state: 'done' | 'pending' | 'uncertain';
}

describe('the audit API', () => {
  const dir = tempDir();
  let t: TestApp;
  let admin: TestUser;
  let clerk: TestUser;
  let firstOwnId: number;

  const get = (url: string, user: TestUser | null) =>
    t.app.inject({ method: 'GET', url, headers: user?.headers ?? {} });
  const page = async (query: string) => {
    const answer = await get(`/api/admin/audit${query}`, admin);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: { results: Entry[]; count: number } }>().data;
  };

  beforeAll(async () => {
    const file = path.join(dir.path, 'shop.db');
    const db = new SQLite(file);
    db.exec('create table orders (id integer primary key, customer varchar(50))');
    db.close();
    t = await buildTestApp({ databases: [await connectDatabase('shop', 'sqlite', `sqlite:${file}`)] });
    admin = await buildAdmin(t, { username: 'boss' });
    clerk = await buildUser(t, {
      username: 'clerk',
      links: ['/db/shop/*'],
      permissions: [{ table: 'shop/main/orders', canInsert: true, canUpdate: true }],
    });
    // Only the entries of this test: what the factories wrote goes first.
    await t.store.db.deleteFrom('audit_log').execute();
    const entry = (at: string, userId: number | null, action: string, target: string | null) => ({
      at,
      user_id: userId,
      action,
      target,
      detail: JSON.stringify({ n: at }),
      address: '10.0.0.1',
    });
    await t.store.db
      .insertInto('audit_log')
      .values([
        entry('2026-01-01T10:00:00.000Z', clerk.userId, 'data.insert', '/db/shop/main/orders'),
        entry('2026-01-02T10:00:00.000Z', clerk.userId, 'data.update', '/db/shop/main/orders'),
        entry('2026-01-03T10:00:00.000Z', admin.userId, 'data.update', '/db/shop/main/customers'),
        entry('2026-01-04T10:00:00.000Z', admin.userId, 'admin.role.updated', 'role:4'),
        entry('2026-01-05T10:00:00.000Z', null, 'account.login.failed', null),
      ])
      .execute();
    firstOwnId = (
      await t.store.db.selectFrom('audit_log').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  it('is for administrators only', async () => {
    expect((await get('/api/admin/audit', null)).statusCode).toBe(401);
    const refused = await get('/api/admin/audit', clerk);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only administrators can do that.');
  });

  it('answers the entries newest first, paged, with the author and the parsed detail', async () => {
    const all = await page('');
    expect(all.count).toBe(5);
    expect(all.results.map((e) => e.at.slice(0, 10))).toEqual([
      '2026-01-05',
      '2026-01-04',
      '2026-01-03',
      '2026-01-02',
      '2026-01-01',
    ]);
    expect(all.results[4]).toEqual({
      id: firstOwnId,
      at: '2026-01-01T10:00:00.000Z',
      userId: clerk.userId,
      username: 'clerk',
      action: 'data.insert',
      target: '/db/shop/main/orders',
      detail: { n: '2026-01-01T10:00:00.000Z' },
      address: '10.0.0.1',
      undoneBy: null,
      state: 'done',
    });
    expect(all.results[0]).toMatchObject({ userId: null, username: null, target: null });

    const second = await page('?page=2&pageSize=2');
    expect(second.count).toBe(5);
    expect(second.results.map((e) => e.at.slice(0, 10))).toEqual(['2026-01-03', '2026-01-02']);
    expect((await page('?page=3&pageSize=2')).results).toHaveLength(1);
    expect((await page('?page=4&pageSize=2')).results).toEqual([]);
    expect((await page('?pageSize=100')).results).toHaveLength(5);
  });

  it('narrows by user, table, actions and time', async () => {
    const dates = async (query: string) => {
      const { results, count } = await page(query);
      expect(count).toBe(results.length);
      return results.map((e) => e.at.slice(0, 10));
    };
    expect(await dates(`?userId=${clerk.userId}`)).toEqual(['2026-01-02', '2026-01-01']);
    expect(await dates('?table=shop/main/orders')).toEqual(['2026-01-02', '2026-01-01']);
    expect(await dates('?table=shop/main/customers')).toEqual(['2026-01-03']);
    expect(await dates('?action=data.update')).toEqual(['2026-01-03', '2026-01-02']);
    expect(await dates('?action=data.insert,admin.role.updated')).toEqual(['2026-01-04', '2026-01-01']);
    expect(await dates('?from=2026-01-02T10:00:00Z&to=2026-01-04T10:00:00Z')).toEqual([
      '2026-01-03',
      '2026-01-02',
    ]);
    // An offset is an instant like any other: 11:00 at +01:00 is 10:00 UTC.
    expect(await dates('?from=2026-01-04T11:00:00%2B01:00')).toEqual(['2026-01-05', '2026-01-04']);
    expect(await dates(`?userId=${admin.userId}&action=data.update&table=shop/main/customers`)).toEqual([
      '2026-01-03',
    ]);
    expect(await dates('?table=shop/main/nothing')).toEqual([]);
  });

  it('says what is wrong with a query', async () => {
    const problem = async (query: string) => {
      const answer = await get(`/api/admin/audit${query}`, admin);
      expect(answer.statusCode, query).toBe(400);
      return answer.json<{ message: string }>().message;
    };
    expect(await problem('?pageSize=101')).toBe('querystring pageSize: pageSize can be at most 100.');
    expect(await problem('?page=0')).toMatch(/^querystring page: /);
    expect(await problem('?from=yesterday')).toBe(
      'querystring from: from must be an ISO instant such as 2026-11-21T10:00:00Z.',
    );
    expect(await problem('?table=orders')).toBe(
      'querystring table: table must be a TableId: {db}/{schema}/{table}.',
    );
    expect(await problem('?from=2026-01-05T00:00:00Z&to=2026-01-01T00:00:00Z')).toBe(
      'querystring from: from must not be after to.',
    );
  });

  it('records real data changes with their table as target', async () => {
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/sql/shop/main/orders',
      headers: { ...clerk.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ customer: 'Ann' }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const { results } = await page('?table=shop/main/orders&pageSize=1');
    expect(results[0]).toMatchObject({
      action: 'data.insert',
      username: 'clerk',
      detail: { key: { id: 1 }, before: null, after: { id: 1, customer: 'Ann' } },
    });
  });
});

describe('audit retention', () => {
  const dir = tempDir();
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(() => dir.remove());

  async function storeWithEntries(file: string, ages: number[]): Promise<AppStore> {
    const store = openAppStore({ kind: 'sqlite', file });
    await migrateAppStore(store);
    await store.db
      .insertInto('audit_log')
      .values(ages.map((age) => ({ at: daysAgo(age), user_id: null, action: `age.${age}` })))
      .execute();
    return store;
  }
  let postgres: TestDatabase | undefined;
  afterAll(async () => {
    await postgres?.drop();
  });
  const actions = async (store: AppStore) =>
    (await store.db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((r) => r.action);

  it('deletes the entries past AUDIT_RETENTION_DAYS when the app starts', async () => {
    const file = path.join(dir.path, 'start.db');
    await (await storeWithEntries(file, [400, 31, 29, 1])).close();
    const t = await buildTestApp({ env: { APP_DB_URL: `sqlite:${file}`, AUDIT_RETENTION_DAYS: '30' } });
    try {
      expect(await actions(t.store)).toEqual(['age.29', 'age.1']);
    } finally {
      await t.close();
    }
  });

  it('keeps a year by default', async () => {
    const file = path.join(dir.path, 'default.db');
    await (await storeWithEntries(file, [366, 364])).close();
    const t = await buildTestApp({ env: { APP_DB_URL: `sqlite:${file}` } });
    try {
      expect(await actions(t.store)).toEqual(['age.364']);
    } finally {
      await t.close();
    }
  });

  it('sweeps again every day by the app clock, and stops when closed', async () => {
    const store = await storeWithEntries(path.join(dir.path, 'daily.db'), [20, 5]);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let offset = 0;
    const retention = auditRetention({
      store,
      days: 30,
      now: () => new Date(Date.now() + offset),
      log: pino({ level: 'silent' }),
    });
    try {
      await retention.start();
      expect(await actions(store)).toEqual(['age.20', 'age.5']);
      offset = 12 * DAY; // the 20-day-old entry is now 32 days old
      vi.advanceTimersByTime(AUDIT_SWEEP_INTERVAL_MS);
      await vi.waitFor(async () => expect(await actions(store)).toEqual(['age.5']));
      await retention.stop();
      offset = 40 * DAY;
      vi.advanceTimersByTime(2 * AUDIT_SWEEP_INTERVAL_MS);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await actions(store)).toEqual(['age.5']);
    } finally {
      await retention.stop();
      await store.close();
    }
  });

  it.each(['sqlite', 'postgres'] as const)(
    'deletes a large backlog in batches, and claims an undo once, on %s',
    async (kind) => {
      if (kind === 'postgres') postgres = await createPostgresDatabase('dbui_audit');
      const store = openAppStore(
        kind === 'sqlite'
          ? { kind, file: path.join(dir.path, 'batches.db') }
          : { kind, url: postgres?.url ?? '' },
      );
      try {
        await migrateAppStore(store);
        const old = Array.from({ length: 2500 }, () => ({ at: daysAgo(100), user_id: null, action: 'old' }));
        for (let i = 0; i < old.length; i += 500) {
          await store.db
            .insertInto('audit_log')
            .values(old.slice(i, i + 500))
            .execute();
        }
        await store.db
          .insertInto('audit_log')
          .values({ at: daysAgo(1), user_id: 7, action: 'new' })
          .execute();
        expect(await deleteAuditBefore(store.db, daysAgo(30), 1000)).toBe(2500);
        expect(await actions(store)).toEqual(['new']);

        const { rows, count } = await listAudit(
          store.db,
          { userId: 7, actions: ['new'] },
          { offset: 0, limit: 5 },
        );
        expect([count, rows.map((r) => r.action)]).toEqual([1, ['new']]);
        const of = rows[0]?.id ?? 0;
        const claim = { userId: 7, target: null, of, address: null, at: new Date().toISOString() };
        const first = await claimUndo(store.db, claim);
        expect(first).toEqual(expect.any(Number));
        expect(await claimUndo(store.db, claim)).toBeNull();
        expect(await findUndoOf(store.db, of)).toMatchObject({ id: first });
      } finally {
        await store.close();
      }
    },
  );
});
