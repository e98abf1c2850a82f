import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsEvent, AnalyticsReport } from '#common/contract/analytics.ts';
import { ANALYTICS_PER_MINUTE } from '#server/features/analytics/routes.ts';
import {
  analyticsService,
  defaultAnalyticsLimits,
  utcDay,
  type AnalyticsLimits,
} from '#server/features/analytics/service.ts';
import { secretBox } from '#server/crypto/secret-box.ts';
import { buildAdmin, withXsrf, type TestUser } from '#server/test/factories.ts';
import type { TestApp } from '#server/test/test-app.ts';
import { appStoreKinds, buildAppOnStore } from './app-stores.ts';
import { expectNoLeak } from './harness.ts';

/*
 * Flooding the analytics (issue 32 item 1, decision 0043). POST /api/analytics/events is open to anyone, at 120
 * calls of 20 events a minute per address; when each event was a row, one address sending distinct 490-character
 * paths grew the app store by 4.5 MB a minute (6.5 GB a day, until the disk was full and sign-ins failed) and put
 * any page at the top of the administrators' chart. Now a day of the worst traffic one address is allowed must
 * leave the analytics tables under a fixed size and move every count of the report by at most one: a page's views,
 * each consent choice, and the day's views by at most one visitor's pages. Many addresses together stay under the
 * day's ceiling and cap of new pages. On both app stores; the rate limit and the first minute over real HTTP, the
 * rest of the day and the many addresses through the service itself (the same code the route calls).
 */

/** What a day of the worst traffic of one address may add to the analytics tables, at most. */
const ONE_ADDRESS_DAY_BYTES = 512 * 1024;
/** The path length an attacker would pick: the contract allows 500. */
const LONG = 490;
const MINUTE = 60_000;

/** The analytics tables' size with their indexes, as each store counts it. */
async function analyticsBytes(t: TestApp): Promise<number> {
  const rows =
    t.store.kind === 'sqlite'
      ? await sql<{ bytes: number | null }>`
          SELECT SUM(pgsize) AS bytes FROM dbstat
          WHERE name LIKE 'analytics%' OR name LIKE 'sqlite_autoindex_analytics%'`.execute(t.store.db)
      : await sql<{ bytes: string | null }>`
          SELECT SUM(pg_total_relation_size(c.oid)) AS bytes
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind = 'r' AND c.relname LIKE 'analytics%' AND n.nspname = current_schema()`.execute(
          t.store.db,
        );
  return Number(rows.rows[0]?.bytes ?? 0);
}

/** A distinct path of `length` characters: `/f` and a number, padded. */
const longPath = (n: number, length = LONG) => `/f${String(n).padStart(length - 2, 'x')}`;

/** The worst call: the page to push to the top, a consent choice, and 18 pages never seen before. */
function worstCall(serial: number): AnalyticsEvent[] {
  const events: AnalyticsEvent[] = [
    { name: 'PageView', path: '/services/push-me' },
    { name: 'consent', path: '/', value: serial % 2 === 0 ? 'accepted' : 'rejected' },
  ];
  for (let i = 0; i < 18; i++) events.push({ name: 'PageView', path: longPath(serial * 18 + i) });
  return events;
}

/** What a report adds up to: the day's views, the most views of one page, and the choices. */
function totals(report: AnalyticsReport) {
  return {
    views: report.pageViewsByDay.reduce((sum, day) => sum + day.views, 0),
    topPage: Math.max(0, ...report.pageViewsByPage.map((page) => page.views)),
    choices: report.consent.accepted + report.consent.rejected,
  };
}

describe.each(appStoreKinds)('analytics under a flood, on the %s app store', (kind) => {
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    t = await buildAppOnStore(kind);
    admin = await buildAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The service on the app's store with a clock of its own (another instance sharing the store, as it were). */
  function service(startsAt: Date, limits: Partial<AnalyticsLimits> = {}) {
    let now = startsAt.getTime();
    const analytics = analyticsService({
      store: t.store,
      now: () => new Date(now),
      log: t.app.log,
      secrets: secretBox(randomBytes(32)),
      limits,
    });
    return { analytics, advance: (ms: number) => void (now += ms) };
  }
  /** The UTC midnight `days` days after the app's today. */
  const midnightIn = (days: number) =>
    new Date(Date.parse(`${utcDay(t.clock.now())}T00:00:00.000Z`) + days * 24 * 60 * MINUTE);

  it(`over HTTP: ${ANALYTICS_PER_MINUTE} calls of 20 events from one address, then 429; every count moves by one at most`, async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { ...(await withXsrf(t)), 'content-type': 'application/json' };
    const post = (events: AnalyticsEvent[]) =>
      fetch(`${base}/api/analytics/events`, { method: 'POST', headers, body: JSON.stringify({ events }) });
    const report = async () => {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/admin/analytics?days=1',
        headers: admin.headers,
      });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ data: AnalyticsReport }>().data;
    };
    const before = totals(await report());
    const bytesBefore = await analyticsBytes(t);

    for (let call = 0; call < ANALYTICS_PER_MINUTE; call++) {
      const answer = await post(worstCall(call));
      expect(answer.status, await answer.text()).toBe(200);
    }
    const limited = await post(worstCall(ANALYTICS_PER_MINUTE));
    expect(limited.status).toBe(429);
    expectNoLeak(await limited.text());

    const after = totals(await report());
    // The page pushed 120 times is one view, whatever else the chart holds; the day's bar grows by one visitor's
    // pages at most; the choices by one of each (60 acceptances and 60 rejections were sent).
    expect(after.topPage).toBeLessThanOrEqual(Math.max(1, before.topPage));
    expect(after.views - before.views).toBeLessThanOrEqual(defaultAnalyticsLimits.pagesPerVisitor);
    expect(after.choices - before.choices).toBe(2);
    expect((await analyticsBytes(t)) - bytesBefore).toBeLessThan(ONE_ADDRESS_DAY_BYTES);
    const pushed = await t.store.db
      .selectFrom('analytics_page_views')
      .select('views')
      .where('path', '=', '/services/push-me')
      .execute();
    expect(pushed.map((row) => Number(row.views))).toEqual([1]);
  });

  it('a day of the worst traffic one address is allowed: under a fixed size all day, every count moved by one at most', async () => {
    const start = midnightIn(2);
    const { analytics, advance } = service(start);
    const bytesBefore = await analyticsBytes(t);
    let serial = 0;
    for (let minute = 0; minute < 24 * 60; minute++) {
      for (let call = 0; call < ANALYTICS_PER_MINUTE; call++)
        await analytics.record(worstCall(serial++), '203.0.113.66');
      // Checked every minute, so a store that grows is caught at once rather than after a day of it.
      const grown = (await analyticsBytes(t)) - bytesBefore;
      expect(grown, `after minute ${minute + 1}`).toBeLessThan(ONE_ADDRESS_DAY_BYTES);
      advance(MINUTE);
    }
    expect(serial * 20).toBe(24 * 60 * ANALYTICS_PER_MINUTE * 20);

    const day = utcDay(start);
    const rows = await t.store.db
      .selectFrom('analytics_page_views')
      .selectAll()
      .where('day', '=', day)
      .execute();
    expect(rows.every((row) => Number(row.views) === 1)).toBe(true);
    expect(rows.length).toBeLessThanOrEqual(defaultAnalyticsLimits.pagesPerVisitor);
    expect(rows.map((row) => row.path)).toContain('/services/push-me');
    const consent = await t.store.db
      .selectFrom('analytics_consents')
      .selectAll()
      .where('day', '=', day)
      .execute();
    expect(consent.map((row) => [row.choice, Number(row.choices)]).sort()).toEqual([
      ['accepted', 1],
      ['rejected', 1],
    ]);
  }, 600_000);

  it('many addresses: the day’s cap of new pages and its ceiling hold, and the size with them', async () => {
    const start = midnightIn(4);
    const seenPerDay = 1_000;
    const { analytics } = service(start, { seenPerDay });
    const bytesBefore = await analyticsBytes(t);
    // Each address sends its 50 pages' worth and more; the ceiling is reached after a few hundred addresses.
    let serial = 0;
    for (let address = 0; address < 400; address++)
      for (let call = 0; call < 3; call++)
        await analytics.record(worstCall(serial++), `10.${address >> 8}.${address & 255}.1`);

    const day = utcDay(start);
    const count = async (table: 'analytics_seen' | 'analytics_page_views') =>
      Number(
        (
          await t.store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('day', '=', day)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('analytics_seen')).toBeLessThanOrEqual(seenPerDay);
    expect(await count('analytics_seen')).toBeGreaterThan(seenPerDay - 25);
    // The new pages' cap, the page pushed (not one of the site's fixed pages, so one of the new) and the others.
    expect(await count('analytics_page_views')).toBeLessThanOrEqual(
      defaultAnalyticsLimits.newPathsPerDay + 1,
    );
    const [today] = await t.store.db
      .selectFrom('analytics_days')
      .selectAll()
      .where('day', '=', day)
      .execute();
    expect(Number(today?.new_paths)).toBe(defaultAnalyticsLimits.newPathsPerDay);
    // 1,000 marks and 201 pages of 490 characters: well under a megabyte (the default ceiling's size is in 0043).
    expect((await analyticsBytes(t)) - bytesBefore).toBeLessThan(1024 * 1024);
    // And the pushed page counts each address once.
    const pushed = await t.store.db
      .selectFrom('analytics_page_views')
      .select('views')
      .where('day', '=', day)
      .where('path', '=', '/services/push-me')
      .executeTakeFirstOrThrow();
    expect(Number(pushed.views)).toBeLessThanOrEqual(400);
  }, 600_000);
});
