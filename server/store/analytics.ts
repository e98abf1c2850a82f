import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/*
 * The site's analytics as counts (docs/decisions/0043-analytics-counts.md): page views per UTC day and page, consent
 * choices per day and choice, kept for the report's longest range; and, for the current day only, its sealed key
 * with how much of the day's limits is used (analytics_days) and the keyed hashes of what was counted today
 * (analytics_seen), both deleted when the day ends.
 */

/** The day's sealed key: the one stored, or `sealed()` stored now when the day has none yet (several calls or
 * instances may start a day at once: the first insert wins, and everyone reads it back). */
export async function dayKeyOf(db: Db, day: string, sealed: () => string): Promise<string> {
  await db
    .insertInto('analytics_days')
    .values({ day, day_key: sealed() })
    .onConflict((c) => c.column('day').doNothing())
    .execute();
  const row = await db
    .selectFrom('analytics_days')
    .select('day_key')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  return row.day_key;
}

/** How much of the day's limits is used, taking the day's row for the rest of the transaction (a row lock on
 * PostgreSQL; on SQLite, which one process owns, the driver runs one transaction at a time), so counts made at once
 * on several instances cannot pass the limits. Undefined when the day has no row (it ended meanwhile). */
export async function lockDay(
  trx: Transaction<AppDatabase>,
  day: string,
): Promise<{ newPaths: number; seen: number } | undefined> {
  const query = trx.selectFrom('analytics_days').select(['new_paths', 'seen']).where('day', '=', day);
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  const row = await (postgres ? query.forUpdate() : query).executeTakeFirst();
  return row && { newPaths: Number(row.new_paths), seen: Number(row.seen) };
}

/** Which of `marks` were counted today, with their pages (a visitor's own mark) or 0. */
export async function seenMarks(db: Db, day: string, marks: string[]): Promise<Map<string, number>> {
  if (marks.length === 0) return new Map();
  const rows = await db
    .selectFrom('analytics_seen')
    .select(['mark', 'pages'])
    .where('day', '=', day)
    .where('mark', 'in', marks)
    .execute();
  return new Map(rows.map((row) => [row.mark, Number(row.pages)]));
}

/** Which of `paths` have a count of their own today. */
export async function pathsCounted(db: Db, day: string, paths: string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const rows = await db
    .selectFrom('analytics_page_views')
    .select('path')
    .where('day', '=', day)
    .where('path', 'in', paths)
    .execute();
  return new Set(rows.map((row) => row.path));
}

/** What one call counts, decided under lockDay. */
export interface DayCounts {
  /** Pages that get one more view, each once. */
  paths: string[];
  /** A consent choice that counts, or null. */
  choice: string | null;
  /** New marks of what was counted (pages and the choice). */
  marks: string[];
  /** The visitor's own mark and the pages it now adds; `isNew` when it has no row today. */
  visitor: { mark: string; pages: number; isNew: boolean } | null;
  /** How many of `paths` are new pages of the day (not fixed ones, no row yet). */
  newPaths: number;
}

/** Writes one call's counts and what they used of the day's limits, in the transaction that took lockDay. */
export async function addDayCounts(
  trx: Transaction<AppDatabase>,
  day: string,
  counts: DayCounts,
): Promise<void> {
  const marks = counts.marks.map((mark) => ({ day, mark, pages: 0 }));
  if (counts.visitor?.isNew) marks.push({ day, mark: counts.visitor.mark, pages: counts.visitor.pages });
  else if (counts.visitor)
    await trx
      .updateTable('analytics_seen')
      .set((eb) => ({ pages: eb('pages', '+', counts.visitor?.pages ?? 0) }))
      .where('day', '=', day)
      .where('mark', '=', counts.visitor.mark)
      .execute();
  if (marks.length > 0) await trx.insertInto('analytics_seen').values(marks).execute();
  if (counts.paths.length > 0)
    await trx
      .insertInto('analytics_page_views')
      .values(counts.paths.map((path) => ({ day, path, views: 1 })))
      .onConflict((c) =>
        c.columns(['day', 'path']).doUpdateSet((eb) => ({
          views: eb('analytics_page_views.views', '+', eb.ref('excluded.views')),
        })),
      )
      .execute();
  if (counts.choice)
    await trx
      .insertInto('analytics_consents')
      .values({ day, choice: counts.choice, choices: 1 })
      .onConflict((c) =>
        c.columns(['day', 'choice']).doUpdateSet((eb) => ({
          choices: eb('analytics_consents.choices', '+', eb.ref('excluded.choices')),
        })),
      )
      .execute();
  await trx
    .updateTable('analytics_days')
    .set((eb) => ({
      new_paths: eb('new_paths', '+', counts.newPaths),
      seen: eb('seen', '+', marks.length),
    }))
    .where('day', '=', day)
    .execute();
}

/** Deletes the keys and marks of the days before `day`: once a day has ended nothing of it links a count to anyone.
 * Answers how many days ended. */
export async function endDaysBefore(db: Db, day: string): Promise<number> {
  await db.deleteFrom('analytics_seen').where('day', '<', day).execute();
  const result = await db.deleteFrom('analytics_days').where('day', '<', day).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the counts of the days before `day`; answers how many rows went. */
export async function deleteCountsBefore(db: Db, day: string): Promise<number> {
  const views = await db.deleteFrom('analytics_page_views').where('day', '<', day).executeTakeFirst();
  const choices = await db.deleteFrom('analytics_consents').where('day', '<', day).executeTakeFirst();
  return Number(views.numDeletedRows) + Number(choices.numDeletedRows);
}

/** Views per day from `from` to `to` (days without views are absent). */
export async function viewsByDay(db: Db, from: string, to: string) {
  const rows = await db
    .selectFrom('analytics_page_views')
    .select((eb) => ['day', eb.fn.sum<number | string>('views').as('views')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('day')
    .execute();
  return rows.map((row) => ({ day: row.day, views: Number(row.views) }));
}

/** The `limit` most viewed pages from `from` to `to`, ties by path. */
export async function viewsByPage(db: Db, from: string, to: string, limit: number) {
  const rows = await db
    .selectFrom('analytics_page_views')
    .select((eb) => ['path', eb.fn.sum<number | string>('views').as('views')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('path')
    .orderBy((eb) => eb.fn.sum('views'), 'desc')
    .orderBy('path')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ path: row.path, views: Number(row.views) }));
}

/** Consent choices by choice from `from` to `to`. */
export async function choicesBetween(db: Db, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('analytics_consents')
    .select((eb) => ['choice', eb.fn.sum<number | string>('choices').as('choices')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('choice')
    .execute();
  return new Map(rows.map((row) => [row.choice, Number(row.choices)]));
}
