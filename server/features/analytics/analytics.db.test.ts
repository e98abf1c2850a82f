import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_OTHER_PAGES, type AnalyticsReport } from '#common/contract/analytics.ts';
import { secretBox } from '#server/crypto/secret-box.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { ANALYTICS_PER_MINUTE } from './routes.ts';
import {
  ANALYTICS_KEEP_DAYS,
  ANALYTICS_SWEEP_INTERVAL_MS,
  analyticsService,
  countedPath,
  defaultAnalyticsLimits,
  storedPath,
  utcDay,
  type AnalyticsLimits,
} from './service.ts';
import { visitorOf } from './visitor-marks.ts';

/*
 * The site's analytics on a SQLite and a PostgreSQL app store: POST /api/analytics/events (anyone, no session, no
 * cookie, limited per address) counts page views per UTC day and page and consent choices per day, each visitor
 * (address) once per page a day, for at most 50 pages, and once for each choice; it stores no address or user. The
 * administrators' GET /api/admin/analytics reads every day of the range, the top pages and the consent choices.
 * The day's limits and the day's end are driven on the service directly; a day of the worst traffic one address is
 * allowed is test/security/analytics-flood.test.ts.
 */

const DAY = 24 * 60 * 60 * 1000;
const ANALYTICS_TABLES = [
  'analytics_page_views',
  'analytics_consents',
  'analytics_days',
  'analytics_seen',
] as const;

describe.each(['sqlite', 'postgres'] as const)('analytics on a %s app store', (storeKind) => {
  let t: TestApp;
  let store: TestDatabase | undefined;
  let admin: TestUser;
  let clerk: TestUser;
  let anonymous: Record<string, string>;
  /** Addresses no earlier test used: each test's visitors are new to the service (it remembers who counted). */
  let nextAddress = 0;
  const freshAddress = () => `198.18.${Math.floor(++nextAddress / 250)}.${(nextAddress % 250) + 1}`;

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

  const send = (events: unknown, remoteAddress = freshAddress(), headers = anonymous) =>
    t.app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      headers,
      payload: { events },
      remoteAddress,
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
  const clear = async () => {
    for (const table of ANALYTICS_TABLES) await t.store.db.deleteFrom(table).execute();
  };
  // Sorted here: PostgreSQL's collation would sort '(other pages)' among the paths by its letters.
  const byDayAndName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const views = async () =>
    (await t.store.db.selectFrom('analytics_page_views').selectAll().execute())
      .map((row) => ({ ...row, views: Number(row.views) }))
      .sort((a, b) => byDayAndName(`${a.day} ${a.path}`, `${b.day} ${b.path}`));
  const choices = async () =>
    (await t.store.db.selectFrom('analytics_consents').selectAll().execute())
      .map((row) => ({ ...row, choices: Number(row.choices) }))
      .sort((a, b) => byDayAndName(`${a.day} ${a.choice}`, `${b.day} ${b.choice}`));
  const view = (path: string) => ({ name: 'PageView' as const, path });
  /** The service on the app's store with its own clock and limits, to drive days and limits directly. */
  function service(limits: Partial<AnalyticsLimits> = {}, start = t.clock.now()) {
    let now = start.getTime();
    const analytics = analyticsService({
      store: t.store,
      now: () => new Date(now),
      log: t.app.log,
      secrets: secretBox(randomBytes(32)),
      limits,
    });
    return { analytics, advance: (ms: number) => void (now += ms), now: () => new Date(now) };
  }

  it('counts the events of anyone without a session, sets no cookie and keeps neither address nor user', async () => {
    await clear();
    const answer = await send(
      [
        view('/services/sql?utm_source=mail&email=a@example.com#top'),
        { name: 'consent', path: '/news', value: 'accepted' },
      ],
      '203.0.113.7',
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ isSuccess: true, data: null, message: null });
    expect(answer.headers['set-cookie']).toBeUndefined();

    // A signed-in visitor's events are counted the same way: nothing ties them to the account.
    expect((await send([view('/about-us')], '203.0.113.8', clerk.headers)).statusCode).toBe(200);

    const day = utcDay(t.clock.now());
    expect(await views()).toEqual([
      { day, path: '/about-us', views: 1 },
      { day, path: '/services/sql', views: 1 },
    ]);
    expect(await choices()).toEqual([{ day, choice: 'accepted', choices: 1 }]);
    // The day's key is sealed; the marks are opaque hashes; no column holds an address, a user or a session.
    const [today] = await t.store.db.selectFrom('analytics_days').selectAll().execute();
    // One new page (/about-us is one of the site's fixed pages); five marks: two visitors, two pages, one choice.
    expect(today).toMatchObject({ day, new_paths: 1, seen: 5 });
    expect(today?.day_key).toMatch(/^v1\./);
    const marks = await t.store.db.selectFrom('analytics_seen').selectAll().execute();
    expect(marks).toHaveLength(5);
    for (const mark of marks) expect(mark.mark).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const stored = JSON.stringify(
      await Promise.all(ANALYTICS_TABLES.map((table) => t.store.db.selectFrom(table).selectAll().execute())),
    );
    for (const secret of ['203.0.113', '127.0.0.1', 'clerk', 'utm', 'example.com'])
      expect(stored).not.toContain(secret);
  });

  it('counts a visitor once per page and choice a day, and again the next day', async () => {
    await clear();
    const { analytics, advance, now } = service();
    const day = utcDay(now());
    await analytics.record([view('/news'), view('/news?x=1'), view('/NEWS/'), view('/news/a')], '192.0.2.1');
    await analytics.record([view('/news'), { name: 'consent', path: '/', value: 'accepted' }], '192.0.2.1');
    // A change of mind counts; the same choice again does not.
    await analytics.record([{ name: 'consent', path: '/', value: 'rejected' }, view('/news/a')], '192.0.2.1');
    await analytics.record([{ name: 'consent', path: '/', value: 'accepted' }], '192.0.2.1');
    await analytics.record([view('/news'), { name: 'consent', path: '/', value: 'rejected' }], '192.0.2.2');
    expect(await views()).toEqual([
      { day, path: '/news', views: 2 },
      { day, path: '/news/a', views: 1 },
    ]);
    expect(await choices()).toEqual([
      { day, choice: 'accepted', choices: 1 },
      { day, choice: 'rejected', choices: 2 },
    ]);
    advance(DAY);
    const next = utcDay(now());
    await analytics.record([view('/news'), { name: 'consent', path: '/', value: 'rejected' }], '192.0.2.1');
    expect((await views()).filter((row) => row.day === next)).toEqual([
      { day: next, path: '/news', views: 1 },
    ]);
    expect((await choices()).filter((row) => row.day === next)).toEqual([
      { day: next, choice: 'rejected', choices: 1 },
    ]);
  });

  it('counts an IPv6 network (/64) as one visitor, and IPv4 written as IPv6 as itself', async () => {
    await clear();
    const { analytics } = service();
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:0db8:0001:0002:0:0:0:3'])
      await analytics.record([view('/home')], address);
    await analytics.record([view('/home')], '2001:db8:1:3::1');
    await analytics.record([view('/home')], '::ffff:192.0.2.9');
    await analytics.record([view('/home')], '192.0.2.9');
    expect((await views()).map((row) => row.views)).toEqual([3]);
  });

  it('counts at most 50 pages of a visitor a day', async () => {
    await clear();
    const { analytics } = service();
    for (let call = 0; call < 5; call++)
      await analytics.record(
        Array.from({ length: 20 }, (_, i) => view(`/news/n${call * 20 + i}`)),
        '192.0.2.3',
      );
    const rows = await views();
    expect(rows).toHaveLength(defaultAnalyticsLimits.pagesPerVisitor);
    expect(rows.every((row) => row.views === 1)).toBe(true);
    // Another visitor still counts.
    await analytics.record([view('/news/n99')], '192.0.2.4');
    expect((await views()).find((row) => row.path === '/news/n99')?.views).toBe(1);
  });

  it('gives a day at most so many new pages, the rest counted together; the site’s fixed pages always count', async () => {
    await clear();
    const { analytics } = service({ newPathsPerDay: 5, pagesPerVisitor: 8 });
    const day = utcDay(t.clock.now());
    const paths = Array.from({ length: 8 }, (_, i) => `/news/p${i}`);
    await analytics.record(paths.map(view), '192.0.2.10');
    await analytics.record([...paths.map(view), view('/Home'), view('/about-us/')], '192.0.2.11');
    // A page that has its count keeps counting.
    await analytics.record([view('/news/p0')], '192.0.2.12');
    expect(await views()).toEqual([
      { day, path: ANALYTICS_OTHER_PAGES, views: 2 },
      { day, path: '/about-us', views: 1 },
      { day, path: '/home', views: 1 },
      ...paths.slice(0, 5).map((path) => ({ day, path, views: path === '/news/p0' ? 3 : 2 })),
    ]);
    const [today] = await t.store.db.selectFrom('analytics_days').selectAll().execute();
    expect(today?.new_paths).toBe(5);
  });

  it('stops counting for the day at the ceiling, and counts again the next day', async () => {
    await clear();
    const { analytics, advance } = service({ seenPerDay: 30 });
    for (let visitor = 0; visitor < 20; visitor++)
      await analytics.record([view('/home'), view('/news')], `192.0.2.${100 + visitor}`);
    expect(await t.store.db.selectFrom('analytics_seen').selectAll().execute()).toHaveLength(30);
    const counted = (await views()).reduce((sum, row) => sum + row.views, 0);
    expect(counted).toBe(20); // ten visitors: each their own mark and two pages'
    advance(DAY);
    await analytics.record([view('/home')], '192.0.2.100');
    expect((await views()).reduce((sum, row) => sum + row.views, 0)).toBe(21);
  });

  it('deletes the day’s key and marks when the day ends, keeping the counts', async () => {
    await clear();
    const { analytics, advance, now } = service();
    const first = utcDay(now());
    await analytics.record([view('/home')], '192.0.2.20');
    const keyOf = async () =>
      (await t.store.db.selectFrom('analytics_days').selectAll().execute()).map((r) => r.day);
    expect(await keyOf()).toEqual([first]);
    advance(DAY);
    // Whether a call comes or the day's end is swept (at midnight, at the start), the ended day's key goes.
    expect(await analytics.endPastDays()).toBe(1);
    expect(await keyOf()).toEqual([]);
    expect(await t.store.db.selectFrom('analytics_seen').selectAll().execute()).toEqual([]);
    await analytics.record([view('/home')], '192.0.2.20');
    expect(await keyOf()).toEqual([utcDay(now())]);
    expect((await views()).map((row) => [row.day, row.views])).toEqual([
      [first, 1],
      [utcDay(now()), 1],
    ]);
  });

  it('refuses malformed events with the rule that failed, counting nothing', async () => {
    await clear();
    const refused: [unknown, string][] = [
      [[], 'events must hold at least one event.'],
      [Array.from({ length: 21 }, () => view('/')), 'events can hold at most 20'],
      [[{ name: 'consent', path: '/' }], "value must be 'accepted' or 'rejected'."],
      [[{ name: 'consent', path: '/', value: 'maybe' }], "value must be 'accepted' or 'rejected'."],
      [[{ name: 'PageView', path: '/', value: 'accepted' }], 'A PageView event has no value.'],
      [[{ name: 'Click', path: '/' }], "name must be 'PageView' or 'consent'."],
      [[view('services')], 'path must start with /'],
      [[view(`/${'a'.repeat(500)}`)], 'path can be at most 500 characters.'],
      [[view('/a\nb')], 'path cannot contain spaces or control characters.'],
      ['PageView', 'events must be a list of events.'],
    ];
    for (const [events, message] of refused) {
      const answer = await send(events);
      expect(answer.statusCode, JSON.stringify(events).slice(0, 80)).toBe(400);
      expect(answer.json<{ message: string }>().message).toContain(message);
    }
    expect(await views()).toEqual([]);
    expect(await choices()).toEqual([]);
    // 20 events and a path of 500 characters are within the limits.
    const twenty = Array.from({ length: 20 }, (_, i) => view(`/${String(i).padStart(499, 'a')}`));
    expect((await send(twenty)).statusCode).toBe(200);
    expect(await views()).toHaveLength(20);
  });

  it('needs the anti-forgery token like every other POST', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { events: [view('/')] },
    });
    expect(answer.statusCode).toBe(403);
  });

  it(`limits each address to ${ANALYTICS_PER_MINUTE} calls a minute, another address unaffected`, async () => {
    const event = [view('/')];
    for (let i = 0; i < ANALYTICS_PER_MINUTE; i++)
      expect((await send(event, '198.51.100.1')).statusCode).toBe(200);
    const limited = await send(event, '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ isSuccess: boolean }>().isSuccess).toBe(false);
    expect((await send(event, '198.51.100.2')).statusCode).toBe(200);
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
    const [a, b, c] = [freshAddress(), freshAddress(), freshAddress()];
    await send([view('/'), view('/news'), { name: 'consent', path: '/', value: 'accepted' }], a);
    await send([view('/')], b);
    await daysAgo(2, async () => {
      await send([view('/news'), { name: 'consent', path: '/', value: 'rejected' }], a);
      await send([view('/news')], b);
    });
    await daysAgo(6, () => send([view('/about-us'), { name: 'consent', path: '/', value: 'accepted' }], c));
    // Outside the 7 days, inside the 30.
    await daysAgo(10, () => send([view('/old'), { name: 'consent', path: '/', value: 'rejected' }], a));

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
    await send(Array.from({ length: 20 }, (_, i) => view(`/p${String(i).padStart(2, '0')}`)));
    await send([view('/z'), view('/p05')]);
    await send([view('/z')]);
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

  it('deletes counts older than the longest range as events keep coming, at most hourly', async () => {
    await clear();
    const old = utcDay(new Date(t.clock.now().getTime() - (ANALYTICS_KEEP_DAYS + 1) * DAY));
    const kept = utcDay(new Date(t.clock.now().getTime() - (ANALYTICS_KEEP_DAYS - 1) * DAY));
    await t.store.db
      .insertInto('analytics_page_views')
      .values([
        { day: old, path: '/ancient', views: 4 },
        { day: kept, path: '/recent', views: 2 },
      ])
      .execute();
    await t.store.db
      .insertInto('analytics_consents')
      .values([
        { day: old, choice: 'accepted', choices: 1 },
        { day: kept, choice: 'rejected', choices: 1 },
      ])
      .execute();
    t.clock.advance(ANALYTICS_SWEEP_INTERVAL_MS);
    try {
      expect((await send([view('/')])).statusCode).toBe(200);
    } finally {
      t.clock.advance(-ANALYTICS_SWEEP_INTERVAL_MS);
    }
    expect((await views()).map((r) => r.path).sort()).toEqual(['/', '/recent']);
    expect((await choices()).map((r) => r.day)).toEqual([kept]);
  });
});

describe('the counted path', () => {
  it('drops the query string and the fragment', () => {
    expect(storedPath('/news/a?x=1')).toBe('/news/a');
    expect(storedPath('/news#part')).toBe('/news');
    expect(storedPath('/?q')).toBe('/');
    expect(storedPath('/services/sql')).toBe('/services/sql');
  });

  it('spells a fixed page of the site as the site does, any other path as it came', () => {
    expect(countedPath('/HOME/?x=1')).toBe('/home');
    expect(countedPath('/account/forgotpassword')).toBe('/account/forgotPassword');
    expect(countedPath('/News/Some-Title')).toBe('/News/Some-Title');
    expect(countedPath('/nowhere/')).toBe('/nowhere/');
  });
});

describe('the visitor of an address', () => {
  it('is an IPv4 address itself, an IPv6 address its /64 network', () => {
    expect(visitorOf('192.0.2.1')).toBe('192.0.2.1');
    expect(visitorOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(visitorOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(visitorOf('2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(visitorOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(visitorOf('::1')).toBe('0:0:0:0::/64');
    expect(visitorOf('2001:db8::192.0.2.1')).toBe('2001:db8:0:0::/64');
  });
});
