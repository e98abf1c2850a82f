import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsReport } from '#common/contract/analytics.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { ANALYTICS_PER_MINUTE } from './routes.ts';
import { ANALYTICS_KEEP_DAYS, ANALYTICS_SWEEP_INTERVAL_MS, storedPath, utcDay } from './service.ts';

/*
 * The site's analytics on a SQLite and a PostgreSQL app store: POST /api/analytics/events (anyone, no session, no
 * cookie, limited per address; stores the event, the bare path, the instant, its UTC day and the choice, never the
 * address or user) and the administrators' GET /api/admin/analytics (every day of the range, the top pages, the
 * consent choices of the range).
 */

const DAY = 24 * 60 * 60 * 1000;

describe.each(['sqlite', 'postgres'] as const)('analytics on a %s app store', (storeKind) => {
  let t: TestApp;
  let store: TestDatabase | undefined;
  let admin: TestUser;
  let clerk: TestUser;
  let anonymous: Record<string, string>;

  beforeAll(async () => {
    store = storeKind === 'postgres' ? await createPostgresDatabase('dbui_store') : undefined;
    t = await buildTestApp(store ? { env: { APP_DB_URL: store.url } } : {});
    admin = await buildAdmin(t, { username: 'boss' });
    clerk = await buildUser(t, { username: 'clerk' });
    anonymous = await withXsrf(t);
  });
  afterAll(async () => {
    await t?.close();
    await store?.drop();
  });

  const send = (events: unknown, headers = anonymous, remoteAddress?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      headers,
      payload: { events },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  const report = async (query = ''): Promise<AnalyticsReport> => {
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/admin/analytics${query}`,
      headers: admin.headers,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: AnalyticsReport }>().data;
  };
  /** Runs `work` with the app's clock `days` days in the past. */
  const daysAgo = async (days: number, work: () => Promise<unknown>) => {
    t.clock.advance(-days * DAY);
    try {
      await work();
    } finally {
      t.clock.advance(days * DAY);
    }
  };
  const clear = () => t.store.db.deleteFrom('analytics_events').execute();

  it('stores the events of anyone without a session, sets no cookie and keeps neither address nor user', async () => {
    await clear();
    const answer = await send(
      [
        { name: 'PageView', path: '/services/sql?utm_source=mail&email=a@example.com#top' },
        { name: 'consent', path: '/news', value: 'accepted' },
      ],
      anonymous,
      '203.0.113.7',
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ isSuccess: true, data: null, message: null });
    expect(answer.headers['set-cookie']).toBeUndefined();

    // A signed-in visitor's events are stored the same way: nothing ties them to the account.
    expect((await send([{ name: 'PageView', path: '/about-us' }], clerk.headers)).statusCode).toBe(200);

    const rows = await t.store.db.selectFrom('analytics_events').selectAll().orderBy('id').execute();
    const now = t.clock.now();
    expect(rows.map(({ name, path, day, value }) => ({ name, path, day, value }))).toEqual([
      { name: 'PageView', path: '/services/sql', day: utcDay(now), value: null },
      { name: 'consent', path: '/news', day: utcDay(now), value: 'accepted' },
      { name: 'PageView', path: '/about-us', day: utcDay(now), value: null },
    ]);
    for (const row of rows) expect(Math.abs(Date.parse(row.at) - now.getTime())).toBeLessThan(60_000);
    // No column for an address, a user or a session.
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(['at', 'day', 'id', 'name', 'path', 'value']);
    const stored = JSON.stringify(rows);
    for (const secret of ['203.0.113.7', '127.0.0.1', 'clerk', 'utm', 'example.com'])
      expect(stored).not.toContain(secret);
  });

  it('refuses malformed events with the rule that failed, storing nothing', async () => {
    await clear();
    const refused: [unknown, string][] = [
      [[], 'events must hold at least one event.'],
      [Array.from({ length: 21 }, () => ({ name: 'PageView', path: '/' })), 'events can hold at most 20'],
      [[{ name: 'consent', path: '/' }], "value must be 'accepted' or 'rejected'."],
      [[{ name: 'consent', path: '/', value: 'maybe' }], "value must be 'accepted' or 'rejected'."],
      [[{ name: 'PageView', path: '/', value: 'accepted' }], 'A PageView event has no value.'],
      [[{ name: 'Click', path: '/' }], "name must be 'PageView' or 'consent'."],
      [[{ name: 'PageView', path: 'services' }], 'path must start with /'],
      [[{ name: 'PageView', path: `/${'a'.repeat(500)}` }], 'path can be at most 500 characters.'],
      [[{ name: 'PageView', path: '/a\nb' }], 'path cannot contain spaces or control characters.'],
      ['PageView', 'events must be a list of events.'],
    ];
    for (const [events, message] of refused) {
      const answer = await send(events);
      expect(answer.statusCode, JSON.stringify(events).slice(0, 80)).toBe(400);
      expect(answer.json<{ message: string }>().message).toContain(message);
    }
    expect(await t.store.db.selectFrom('analytics_events').selectAll().execute()).toEqual([]);
    // 20 events and a path of 500 characters are within the limits.
    const twenty = Array.from({ length: 20 }, () => ({ name: 'PageView', path: `/${'a'.repeat(499)}` }));
    expect((await send(twenty)).statusCode).toBe(200);
  });

  it('needs the anti-forgery token like every other POST', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: [{ name: 'PageView', path: '/' }] },
    });
    expect(answer.statusCode).toBe(403);
  });

  it(`limits each address to ${ANALYTICS_PER_MINUTE} calls a minute, another address unaffected`, async () => {
    const event = [{ name: 'PageView', path: '/' }];
    for (let i = 0; i < ANALYTICS_PER_MINUTE; i++)
      expect((await send(event, anonymous, '198.51.100.1')).statusCode).toBe(200);
    const limited = await send(event, anonymous, '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ isSuccess: boolean }>().isSuccess).toBe(false);
    expect((await send(event, anonymous, '198.51.100.2')).statusCode).toBe(200);
  });

  it('is read by administrators only', async () => {
    const asClerk = await t.app.inject({
      method: 'GET',
      url: '/api/admin/analytics',
      headers: clerk.headers,
    });
    expect(asClerk.statusCode).toBe(403);
    const asNobody = await t.app.inject({ method: 'GET', url: '/api/admin/analytics' });
    expect(asNobody.statusCode).toBe(401);
  });

  it('reports every day of the range, the most viewed pages and the consent choices of the range', async () => {
    await clear();
    const view = (path: string) => ({ name: 'PageView', path });
    await send([view('/'), view('/'), view('/news'), { name: 'consent', path: '/', value: 'accepted' }]);
    await daysAgo(2, () =>
      send([view('/news'), view('/news'), { name: 'consent', path: '/', value: 'rejected' }]),
    );
    await daysAgo(6, () => send([view('/about-us'), { name: 'consent', path: '/', value: 'accepted' }]));
    // Outside the 7 days, inside the 30.
    await daysAgo(10, () => send([view('/old'), { name: 'consent', path: '/', value: 'rejected' }]));

    const today = t.clock.now();
    const week = await report('?days=7');
    expect(week.pageViewsByDay.map((d) => d.day)).toEqual(
      Array.from({ length: 7 }, (_, i) => utcDay(new Date(today.getTime() - (6 - i) * DAY))),
    );
    expect(week.pageViewsByDay.map((d) => d.views)).toEqual([1, 0, 0, 0, 2, 0, 3]);
    expect(week.pageViewsByPage).toEqual([
      { path: '/news', views: 3 },
      { path: '/', views: 2 },
      { path: '/about-us', views: 1 },
    ]);
    expect(week.consent).toEqual({ accepted: 2, rejected: 1 });

    const month = await report();
    expect(month.pageViewsByDay).toHaveLength(30);
    expect(month.pageViewsByDay.reduce((sum, d) => sum + d.views, 0)).toBe(7);
    expect(month.pageViewsByPage.map((p) => p.path)).toEqual(['/news', '/', '/about-us', '/old']);
    expect(month.consent).toEqual({ accepted: 2, rejected: 2 });

    const one = await report('?days=1');
    expect(one.pageViewsByDay).toEqual([{ day: utcDay(today), views: 3 }]);
  });

  it('lists the 20 most viewed pages, ties by path', async () => {
    await clear();
    await send(
      Array.from({ length: 20 }, (_, i) => ({ name: 'PageView', path: `/p${String(i).padStart(2, '0')}` })),
    );
    await send([
      { name: 'PageView', path: '/z' },
      { name: 'PageView', path: '/z' },
      { name: 'PageView', path: '/p05' },
    ]);
    const pages = (await report('?days=1')).pageViewsByPage;
    expect(pages).toHaveLength(20);
    expect(pages.slice(0, 3)).toEqual([
      { path: '/p05', views: 2 },
      { path: '/z', views: 2 },
      { path: '/p00', views: 1 },
    ]);
    // 21 pages: the last of the 20 is /p18, /p19 is left out.
    expect(pages.at(-1)).toEqual({ path: '/p18', views: 1 });
  });

  it('answers an empty range with zeros on every day', async () => {
    await clear();
    const empty = await report('?days=90');
    expect(empty.pageViewsByDay).toHaveLength(90);
    expect(empty.pageViewsByDay.every((d) => d.views === 0)).toBe(true);
    expect(empty.pageViewsByPage).toEqual([]);
    expect(empty.consent).toEqual({ accepted: 0, rejected: 0 });
  });

  it('refuses a range outside 1 to 365 days', async () => {
    for (const days of ['0', '366', 'x', '1.5']) {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/api/admin/analytics?days=${days}`,
        headers: admin.headers,
      });
      expect(answer.statusCode, days).toBe(400);
      expect(answer.json<{ message: string }>().message).toContain(
        'days must be a whole number from 1 to 365.',
      );
    }
    expect((await report('?days=365')).pageViewsByDay).toHaveLength(365);
  });

  it('deletes events older than the longest range as events keep coming, at most hourly', async () => {
    await clear();
    const old = utcDay(new Date(t.clock.now().getTime() - (ANALYTICS_KEEP_DAYS + 1) * DAY));
    const kept = utcDay(new Date(t.clock.now().getTime() - (ANALYTICS_KEEP_DAYS - 1) * DAY));
    await t.store.db
      .insertInto('analytics_events')
      .values([
        { name: 'PageView', path: '/ancient', at: `${old}T12:00:00.000Z`, day: old, value: null },
        { name: 'PageView', path: '/recent', at: `${kept}T12:00:00.000Z`, day: kept, value: null },
      ])
      .execute();
    t.clock.advance(ANALYTICS_SWEEP_INTERVAL_MS);
    try {
      expect((await send([{ name: 'PageView', path: '/' }])).statusCode).toBe(200);
    } finally {
      t.clock.advance(-ANALYTICS_SWEEP_INTERVAL_MS);
    }
    const paths = (await t.store.db.selectFrom('analytics_events').select('path').execute()).map(
      (r) => r.path,
    );
    expect(paths.sort()).toEqual(['/', '/recent']);
  });
});

describe('the stored path', () => {
  it('drops the query string and the fragment', () => {
    expect(storedPath('/news/a?x=1')).toBe('/news/a');
    expect(storedPath('/news#part')).toBe('/news');
    expect(storedPath('/?q')).toBe('/');
    expect(storedPath('/services/sql')).toBe('/services/sql');
  });
});
