import { sql, type Kysely } from 'kysely';

/*
 * Analytics as counts (issue 32 item 1, docs/decisions/0043-analytics-counts.md): page views per UTC day and page and
 * consent choices per day and choice replace one row per event, which let one address grow the store by megabytes a
 * minute. Two tables hold only the current day: its random key for the visitors' keyed hashes (sealed) with how much
 * of the day's limits is used, and the hashes of what was counted today; both are emptied when the day ends.
 *
 * The events recorded so far become counts (each event one view: they cannot be told apart by visitor any more);
 * a day's 200 most viewed paths keep their name and the rest are counted together under '(other pages)', the cap
 * the counting applies from now on (written out here: a migration does not change with the code).
 */

const OTHER_PAGES = '(other pages)';
const PATHS_KEPT_PER_DAY = 200;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_page_views')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('path', 'varchar(500)', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_page_views_key', ['day', 'path'])
    .execute();
  await db.schema
    .createTable('analytics_consents')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('choice', 'varchar(10)', (c) => c.notNull())
    .addColumn('choices', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_consents_key', ['day', 'choice'])
    .execute();
  await db.schema
    .createTable('analytics_days')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('day_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('new_paths', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seen', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('analytics_seen')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('mark', 'varchar(30)', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('analytics_seen_key', ['day', 'mark'])
    .execute();

  await sql`
    INSERT INTO analytics_page_views (day, path, views)
    SELECT day, path, SUM(views)
    FROM (
      SELECT day, CASE WHEN place <= ${PATHS_KEPT_PER_DAY} THEN path ELSE ${OTHER_PAGES} END AS path, views
      FROM (
        SELECT day, path, COUNT(*) AS views,
          ROW_NUMBER() OVER (PARTITION BY day ORDER BY COUNT(*) DESC, path) AS place
        FROM analytics_events
        WHERE name = 'PageView'
        GROUP BY day, path
      ) ranked
    ) capped
    GROUP BY day, path
  `.execute(db);
  await sql`
    INSERT INTO analytics_consents (day, choice, choices)
    SELECT day, value, COUNT(*)
    FROM analytics_events
    WHERE name = 'consent' AND value IN ('accepted', 'rejected')
    GROUP BY day, value
  `.execute(db);
  await db.schema.dropTable('analytics_events').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
