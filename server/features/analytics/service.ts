import type { FastifyBaseLogger } from 'fastify';
import {
  ANALYTICS_DAYS_MAX,
  ANALYTICS_TOP_PAGES,
  type AnalyticsEvent,
  type AnalyticsReport,
} from '#common/contract/analytics.ts';
import type { AppStore } from '#server/store/app-store.ts';

/*
 * The site's own analytics (issue 15): the events the web app sends with the visitor's consent, and the
 * administrators' report. Stored per event: its name, the page's path without query string or fragment, the instant
 * and its UTC day, and a consent event's choice; never the address, the user, a session or a cookie.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Events older than the report's longest range (and a day of margin) are deleted, at most this often. */
export const ANALYTICS_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
export const ANALYTICS_KEEP_DAYS = ANALYTICS_DAYS_MAX + 1;

export interface AnalyticsDeps {
  store: AppStore;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** A page's path as stored: without its query string or fragment (they can carry personal data). */
export function storedPath(path: string): string {
  const end = path.search(/[?#]/);
  const bare = end === -1 ? path : path.slice(0, end);
  return bare === '' ? '/' : bare;
}

export interface AnalyticsService {
  /** Stores the events at the app clock's instant, in one insert. */
  record(events: AnalyticsEvent[]): Promise<void>;
  /** The report of the last `days` UTC days, today included. */
  report(days: number): Promise<AnalyticsReport>;
  /** Deletes the events older than ANALYTICS_KEEP_DAYS days; answers how many went. */
  sweep(): Promise<number>;
}

export function analyticsService(deps: AnalyticsDeps): AnalyticsService {
  const { db } = deps.store;
  let lastSweep = -Infinity;

  async function sweep(): Promise<number> {
    const before = utcDay(new Date(deps.now().getTime() - ANALYTICS_KEEP_DAYS * DAY_MS));
    const result = await db.deleteFrom('analytics_events').where('day', '<', before).executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    if (deleted > 0) deps.log.info({ deleted, before }, 'analytics events past their retention deleted');
    return deleted;
  }

  return {
    async record(events) {
      const now = deps.now();
      const at = now.toISOString();
      const day = utcDay(now);
      await db
        .insertInto('analytics_events')
        .values(
          events.map((event) => ({
            name: event.name,
            path: storedPath(event.path),
            at,
            day,
            value: event.name === 'consent' ? event.value : null,
          })),
        )
        .execute();
      // The retention rides on the writes (no timer to start or stop); a failed sweep never fails the call.
      if (now.getTime() - lastSweep >= ANALYTICS_SWEEP_INTERVAL_MS) {
        lastSweep = now.getTime();
        await sweep().catch((error: unknown) => {
          deps.log.error({ err: error }, 'analytics retention sweep failed');
        });
      }
    },

    async report(days) {
      const today = deps.now();
      const range = Array.from({ length: days }, (_, i) =>
        utcDay(new Date(today.getTime() - (days - 1 - i) * DAY_MS)),
      );
      const from = range[0] ?? utcDay(today);
      const to = utcDay(today);
      const inRange = db.selectFrom('analytics_events').where('day', '>=', from).where('day', '<=', to);
      const [byDay, byPage, consent] = await Promise.all([
        inRange
          .where('name', '=', 'PageView')
          .select((eb) => ['day', eb.fn.countAll<number | string>().as('views')])
          .groupBy('day')
          .execute(),
        inRange
          .where('name', '=', 'PageView')
          .select((eb) => ['path', eb.fn.countAll<number | string>().as('views')])
          .groupBy('path')
          .orderBy((eb) => eb.fn.countAll(), 'desc')
          .orderBy('path')
          .limit(ANALYTICS_TOP_PAGES)
          .execute(),
        inRange
          .where('name', '=', 'consent')
          .select((eb) => ['value', eb.fn.countAll<number | string>().as('n')])
          .groupBy('value')
          .execute(),
      ]);
      const views = new Map(byDay.map((row) => [row.day, Number(row.views)]));
      const choices = new Map(consent.map((row) => [row.value, Number(row.n)]));
      return {
        pageViewsByDay: range.map((day) => ({ day, views: views.get(day) ?? 0 })),
        pageViewsByPage: byPage.map((row) => ({ path: row.path, views: Number(row.views) })),
        consent: { accepted: choices.get('accepted') ?? 0, rejected: choices.get('rejected') ?? 0 },
      };
    },

    sweep,
  };
}
