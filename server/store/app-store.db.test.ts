import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { migrateAppStore, openAppStore, type AppStore } from './app-store.ts';

/* The PostgreSQL app store outlives its connections: the server ending them (a restart, pg_terminate_backend) must
 * neither end the process nor stop the next query. */

describe('the PostgreSQL app store', () => {
  let database: TestDatabase;
  let store: AppStore;

  beforeAll(async () => {
    database = await createPostgresDatabase('dbui_store');
    store = openAppStore({ kind: 'postgres', url: database.url });
    await migrateAppStore(store);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('answers again after the server ends its idle connections', async () => {
    // Several idle connections in the pool.
    await Promise.all([1, 2, 3].map(() => sql`select pg_sleep(0.05)`.execute(store.db)));
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const ended = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database.name],
      );
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The pool hears of the ended connections now; an unheard 'error' would fail this test as unhandled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await store.ping();
    const users = await store.db.selectFrom('users').select('id').execute();
    expect(users).toEqual([]);
  });
});
