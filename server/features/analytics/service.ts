import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  ANALYTICS_DAYS_MAX,
  ANALYTICS_OTHER_PAGES,
  ANALYTICS_TOP_PAGES,
  type AnalyticsEvent,
  type AnalyticsReport,
} from '#common/contract/analytics.ts';
import { fixedPagePath } from '#common/page-routes.ts';
import type { SecretBox } from '#server/crypto/secret-box.ts';
import {
  addDayCounts,
  choicesBetween,
  dayKeyOf,
  deleteCountsBefore,
  endDaysBefore,
  lockDay,
  pathsCounted,
  seenMarks,
  viewsByDay,
  viewsByPage,
} from '#server/store/analytics.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { markOf, visitorOf } from './visitor-marks.ts';

/*
 * The site's own analytics (issue 15), counted rather than logged (issue 32 item 1, decision 0043): page views per
 * UTC day and page, consent choices per day. Each visitor (an address, an IPv6 /64) counts once per page a day, for
 * at most `pagesPerVisitor` pages, and once for each consent choice; a day gives at most `newPathsPerDay` pages other than the
 * site's fixed ones a count of their own (the rest count together as ANALYTICS_OTHER_PAGES); and a day counts at most
 * `seenPerDay` things in all. So a day of anyone's traffic adds a bounded number of rows, and one address moves any
 * count by at most one. No address, user, session or cookie is stored: only the day's keyed hashes, deleted with the
 * day's key when the day ends.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Counts older than the report's longest range (and a day of margin) are deleted, at most this often. */
export const ANALYTICS_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
export const ANALYTICS_KEEP_DAYS = ANALYTICS_DAYS_MAX + 1;

/** The limits of a day's counting (decision 0043 gives the sizes they bound). */
export interface AnalyticsLimits {
  /** Pages one visitor counts for in a day. */
  pagesPerVisitor: number;
  /** Pages other than the site's fixed ones that get a count of their own in a day. */
  newPathsPerDay: number;
  /** Things counted in a day, all visitors together (rows of analytics_seen): the global ceiling. */
  seenPerDay: number;
  /** Calls waiting for their turn to count; more are not counted (one count at a time per instance, so analytics
   * never holds more than one of the app store's connections). */
  waiting: number;
}

export const defaultAnalyticsLimits: AnalyticsLimits = {
  pagesPerVisitor: 50,
  newPathsPerDay: 200,
  seenPerDay: 50_000,
  waiting: 200,
};

/** Marks this process remembers as counted today, at most (a hint that saves a transaction, never the rule). */
const REMEMBERED_MARKS = 20_000;

export interface AnalyticsDeps {
  store: AppStore;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Seals the day's key in the app store. */
  secrets: SecretBox;
  limits?: Partial<AnalyticsLimits>;
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** A page's path as stored: without its query string or fragment (they can carry personal data). */
export function storedPath(path: string): string {
  const end = path.search(/[?#]/);
  const bare = end === -1 ? path : path.slice(0, end);
  return bare === '' ? '/' : bare;
}

/** The path a view counts under before the day's cap: a fixed page of the site in its own spelling, else as stored. */
export const countedPath = (path: string): string => {
  const stored = storedPath(path);
  return fixedPagePath(stored) ?? stored;
};

export interface AnalyticsService {
  /** Counts the events of a visitor at `address` at the app clock's instant. */
  record(events: AnalyticsEvent[], address: string): Promise<void>;
  /** The report of the last `days` UTC days, today included. */
  report(days: number): Promise<AnalyticsReport>;
  /** Deletes the counts older than ANALYTICS_KEEP_DAYS days; answers how many rows went. */
  sweep(): Promise<number>;
  /** Deletes the keys and marks of the days that have ended (also done when a day's first call comes). */
  endPastDays(): Promise<number>;
}

/** The day being counted, as this process knows it. */
interface Today {
  day: string;
  key: Buffer;
  /** The key as stored (sealed). */
  sealed: string;
  /** Marks known to be counted today. */
  seen: Set<string>;
  /** Visitors' marks known to have used all their pages today. */
  done: Set<string>;
  /** The day's ceiling was reached: nothing more counts today. */
  full: boolean;
}

export function analyticsService(deps: AnalyticsDeps): AnalyticsService {
  const { db } = deps.store;
  const limits = { ...defaultAnalyticsLimits, ...deps.limits };
  let lastSweep = -Infinity;
  let today: { day: string; state: Promise<Today> } | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  let droppedSince: number | null = null;

  async function sweep(): Promise<number> {
    const before = utcDay(new Date(deps.now().getTime() - ANALYTICS_KEEP_DAYS * DAY_MS));
    const deleted = await deleteCountsBefore(db, before);
    if (deleted > 0) deps.log.info({ deleted, before }, 'analytics counts past their retention deleted');
    return deleted;
  }

  /** The day's key and what this process knows of it; a new day first deletes what is left of the days before. */
  function todayOf(day: string): Promise<Today> {
    if (today?.day === day) return today.state;
    const state = (async (): Promise<Today> => {
      await endDaysBefore(db, day);
      const sealed = await dayKeyOf(db, day, () => deps.secrets.seal(randomBytes(32).toString('base64url')));
      const key = Buffer.from(deps.secrets.open(sealed), 'base64url');
      return { day, key, sealed, seen: new Set(), done: new Set(), full: false };
    })();
    const current = { day, state };
    today = current;
    // A failure is not kept: the next call tries again.
    state.catch(() => {
      if (today === current) today = null;
    });
    return state;
  }

  /** Runs `work` when the calls before it have counted; beyond `limits.waiting` calls waiting, drops it. */
  function inTurn(work: () => Promise<void>): Promise<void> {
    if (waiting >= limits.waiting) {
      const now = Date.now();
      if (droppedSince === null || now - droppedSince > 60_000) {
        droppedSince = now;
        deps.log.warn(
          { waiting },
          'analytics calls arrive faster than they are counted: some are not counted',
        );
      }
      return Promise.resolve();
    }
    waiting++;
    const run = turn.then(work).finally(() => {
      waiting--;
    });
    turn = run.catch(() => undefined);
    return run;
  }

  /** Counts what is left of a call once the marks this process knows were removed, under the day's lock. */
  async function count(state: Today, visitor: string, paths: string[], choice: string | null): Promise<void> {
    const { day, key } = state;
    const self = markOf(key, 'visitor', visitor);
    const consentMark = choice ? markOf(key, 'consent', visitor, choice) : null;
    const otherMark = markOf(key, 'page', visitor, ANALYTICS_OTHER_PAGES);
    const pathMark = (path: string) =>
      path === ANALYTICS_OTHER_PAGES ? otherMark : markOf(key, 'page', visitor, path);
    const outcome = await db.transaction().execute(async (trx) => {
      let used = await lockDay(trx, day);
      if (!used) {
        // The day's row went although the day has not ended here (deleted by hand, or by an instance whose clock is
        // ahead): this process's key goes back, so its marks keep meaning what they meant.
        await dayKeyOf(trx, day, () => state.sealed);
        used = await lockDay(trx, day);
        if (!used) return null;
      }
      // Full once there is no room left for a visitor's own mark and one thing counted for them.
      if (used.seen + 2 > limits.seenPerDay) return 'full' as const;
      // A page is known today when it is one of the site's fixed pages or already has its count of the day.
      const withCount = await pathsCounted(
        trx,
        day,
        paths.filter((path) => fixedPagePath(path) !== path),
      );
      const known = (path: string) => fixedPagePath(path) === path || withCount.has(path);
      const seen = await seenMarks(trx, day, [
        self,
        otherMark,
        ...(consentMark ? [consentMark] : []),
        ...paths.filter(known).map(pathMark),
      ]);
      const selfPages = seen.get(self);
      let pagesLeft = limits.pagesPerVisitor - (selfPages ?? 0);
      // The visitor's own mark takes a row when they first count for a page.
      let room = limits.seenPerDay - used.seen - (selfPages === undefined ? 1 : 0);
      let newPathsLeft = limits.newPathsPerDay - used.newPaths;
      const counted: string[] = [];
      const marks: string[] = [];
      let newPaths = 0;
      for (const path of paths) {
        if (pagesLeft <= 0 || room <= 0) break;
        let countedAs = path;
        if (!known(path)) {
          // A page with no count today: its own if the day has room for new pages, else with the other pages.
          if (newPathsLeft > 0) {
            newPathsLeft--;
            newPaths++;
          } else countedAs = ANALYTICS_OTHER_PAGES;
        }
        const mark = pathMark(countedAs);
        if (seen.has(mark) || counted.includes(countedAs)) continue;
        counted.push(countedAs);
        marks.push(mark);
        pagesLeft--;
        room--;
      }
      const choiceCounts = consentMark !== null && !seen.has(consentMark) && room > 0;
      if (choiceCounts) marks.push(consentMark);
      await addDayCounts(trx, day, {
        paths: counted,
        choice: choiceCounts ? choice : null,
        marks,
        visitor:
          counted.length > 0 ? { mark: self, pages: counted.length, isNew: selfPages === undefined } : null,
        newPaths,
      });
      return { marks: [...seen.keys(), ...marks], done: pagesLeft <= 0 };
    });
    // What the committed transaction saw and counted, remembered to spare the next calls of it.
    if (outcome === 'full') {
      if (!state.full)
        deps.log.warn({ day }, 'analytics reached the day’s ceiling: nothing more counts today');
      state.full = true;
    } else if (outcome) {
      remember(state, outcome.marks);
      if (outcome.done) state.done.add(self);
    }
  }

  /** Keeps marks known to be counted, within REMEMBERED_MARKS (then starts afresh: they are only a hint). */
  function remember(state: Today, marks: string[]) {
    if (state.seen.size + marks.length > REMEMBERED_MARKS) state.seen.clear();
    for (const mark of marks) state.seen.add(mark);
    if (state.done.size > REMEMBERED_MARKS) state.done.clear();
  }

  return {
    async record(events, address) {
      const now = deps.now();
      const state = await todayOf(utcDay(now));
      // The retention rides on the writes (no timer needed for it); a failed sweep never fails the call.
      if (now.getTime() - lastSweep >= ANALYTICS_SWEEP_INTERVAL_MS) {
        lastSweep = now.getTime();
        await sweep().catch((error: unknown) => {
          deps.log.error({ err: error }, 'analytics retention sweep failed');
        });
      }
      if (state.full) return;
      const visitor = visitorOf(address);
      const { key } = state;
      const done = state.done.has(markOf(key, 'visitor', visitor));
      const paths = done
        ? []
        : [
            ...new Set(events.filter((event) => event.name === 'PageView').map((e) => countedPath(e.path))),
          ].filter((path) => !state.seen.has(markOf(key, 'page', visitor, path)));
      // Each choice counts once a visitor a day (a change of mind counts, repeating it does not); a call carries one.
      const choice = events.find((event) => event.name === 'consent')?.value ?? null;
      const choiceLeft =
        choice !== null && !state.seen.has(markOf(key, 'consent', visitor, choice)) ? choice : null;
      if (paths.length === 0 && choiceLeft === null) return;
      await inTurn(() => count(state, visitor, paths, choiceLeft));
    },

    async report(days) {
      const now = deps.now();
      const range = Array.from({ length: days }, (_, i) =>
        utcDay(new Date(now.getTime() - (days - 1 - i) * DAY_MS)),
      );
      const from = range[0] ?? utcDay(now);
      const to = utcDay(now);
      const [byDay, byPage, choices] = await Promise.all([
        viewsByDay(db, from, to),
        viewsByPage(db, from, to, ANALYTICS_TOP_PAGES),
        choicesBetween(db, from, to),
      ]);
      const views = new Map(byDay.map((row) => [row.day, row.views]));
      return {
        pageViewsByDay: range.map((day) => ({ day, views: views.get(day) ?? 0 })),
        pageViewsByPage: byPage,
        consent: { accepted: choices.get('accepted') ?? 0, rejected: choices.get('rejected') ?? 0 },
      };
    },

    sweep,

    async endPastDays() {
      const day = utcDay(deps.now());
      const ended = await endDaysBefore(db, day);
      if (today && today.day < day) today = null;
      return ended;
    },
  };
}
