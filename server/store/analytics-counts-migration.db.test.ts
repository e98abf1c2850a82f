import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ANALYTICS_OTHER_PAGES } from '#common/contract/analytics.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { migrateAppStore, openAppStore, type AppStoreTarget } from './app-store.ts';
import { migrations } from './migrations/index.ts';
import type { AppDatabase } from './schema.ts';

/*
 * 0014-analytics-counts on both app stores: the events an older version recorded one row each become counts per day
 * and page and per day and choice; a day's 200 most viewed paths keep their name, the rest are counted together under
 * ANALYTICS_OTHER_PAGES; the events' table is gone.
 */

const BEFORE = '0013-export-sessions';

async function migrateTo(db: Kysely<AppDatabase>, name: string) {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'dbui_migrations',
    migrationLockTableName: 'dbui_migrations_lock',
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}

async function checkMigration(target: AppStoreTarget) {
  const store = openAppStore(target);
  try {
    await migrateTo(store.db, BEFORE);
    const events: { name: string; path: string; day: string; value: string | null }[] = [];
    const add = (day: string, name: string, path: string, times: number, value: string | null = null) => {
      for (let i = 0; i < times; i++) events.push({ name, path, day, value });
    };
    add('2026-11-01', 'PageView', '/home', 3);
    add('2026-11-01', 'PageView', '/news', 1);
    add('2026-11-01', 'consent', '/', 2, 'accepted');
    add('2026-11-01', 'consent', '/news', 1, 'rejected');
    add('2026-11-02', 'PageView', '/home', 5);
    // 205 more paths on the 2nd, viewed once each: /home (5) and 199 of them keep their name, 6 count together.
    for (let i = 0; i < 205; i++) add('2026-11-02', 'PageView', `/news/n${String(i).padStart(3, '0')}`, 1);
    // The old table (0011) has no place in today's schema types: written with plain SQL.
    for (const event of events)
      await sql`INSERT INTO analytics_events (name, path, at, day, value)
        VALUES (${event.name}, ${event.path}, ${`${event.day}T12:00:00.000Z`}, ${event.day}, ${event.value})`.execute(
        store.db,
      );

    await migrateAppStore(store);

    const views = (await store.db.selectFrom('analytics_page_views').selectAll().execute()).map((row) => ({
      ...row,
      views: Number(row.views),
    }));
    const first = views.filter((row) => row.day === '2026-11-01');
    expect(first.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { day: '2026-11-01', path: '/home', views: 3 },
      { day: '2026-11-01', path: '/news', views: 1 },
    ]);
    const second = views.filter((row) => row.day === '2026-11-02');
    expect(second).toHaveLength(201);
    expect(second.find((row) => row.path === '/home')?.views).toBe(5);
    expect(second.find((row) => row.path === ANALYTICS_OTHER_PAGES)?.views).toBe(6);
    // Ties are broken by path: the last six paths are the ones counted together.
    expect(
      second
        .filter((row) => row.path.startsWith('/news/'))
        .map((row) => row.path)
        .sort(),
    ).toEqual(Array.from({ length: 199 }, (_, i) => `/news/n${String(i).padStart(3, '0')}`));
    expect(second.reduce((sum, row) => sum + row.views, 0)).toBe(210);

    const choices = await store.db.selectFrom('analytics_consents').selectAll().execute();
    expect(
      choices
        .map((row) => [row.day, row.choice, Number(row.choices)] as const)
        .sort((a, b) => (a[1] < b[1] ? -1 : 1)),
    ).toEqual([
      ['2026-11-01', 'accepted', 2],
      ['2026-11-01', 'rejected', 1],
    ]);
    const tables = (await store.db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('analytics_events');
    expect(tables).toEqual(
      expect.arrayContaining([
        'analytics_page_views',
        'analytics_consents',
        'analytics_days',
        'analytics_seen',
      ]),
    );
  } finally {
    await store.close();
  }
}

describe('0014-analytics-counts', () => {
  const dir = tempDir();
  let postgres: TestDatabase | undefined;
  afterAll(async () => {
    dir.remove();
    await postgres?.drop();
  });

  it('turns the events into counts on SQLite', async () => {
    await checkMigration({ kind: 'sqlite', file: path.join(dir.path, 'app.db') });
  });

  it('turns the events into counts on PostgreSQL', async () => {
    postgres = await createPostgresDatabase();
    await checkMigration({ kind: 'postgres', url: postgres.url });
  });
});
