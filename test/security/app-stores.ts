import { createPostgresDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp, type TestAppOptions } from '#server/test/test-app.ts';

/*
 * The app's own store (accounts, sessions, lockouts, audit) on SQLite or PostgreSQL: attacks on accounts run on
 * both, since each store answers concurrent writes its own way (one writer at a time, or row locks).
 */

export type AppStoreKind = 'sqlite' | 'postgres';

/** The app stores the account attacks run on: both, or those APP_STORES names. */
export const appStoreKinds = (process.env.APP_STORES ?? 'sqlite,postgres')
  .split(',')
  .map((kind) => kind.trim())
  .filter((kind): kind is AppStoreKind => kind === 'sqlite' || kind === 'postgres');

/** The environment that puts the app store on `kind` (nothing for SQLite: a file in the app's data folder), and
 * how to remove that store once the app is closed. */
export async function appStoreEnv(
  kind: AppStoreKind,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === 'sqlite') return { env: {}, drop: async () => undefined };
  const database = await createPostgresDatabase('dbui_store');
  return { env: { APP_DB_URL: database.url }, drop: () => database.drop() };
}

/** buildTestApp on the chosen app store; a PostgreSQL store is a fresh database, dropped again by `close()`. */
export async function buildAppOnStore(kind: AppStoreKind, options: TestAppOptions = {}): Promise<TestApp> {
  const store = await appStoreEnv(kind);
  try {
    const t = await buildTestApp({ ...options, env: { ...options.env, ...store.env } });
    return {
      ...t,
      async close() {
        try {
          await t.close();
        } finally {
          await store.drop();
        }
      },
    };
  } catch (error) {
    await store.drop();
    throw error;
  }
}

/** A second instance of the app on the same store as `first` (its own process state: rate limits, caches), as
 * behind a load balancer. Both need the same SECRET_KEY in `options.env`. */
export function anotherInstance(first: TestApp, options: TestAppOptions = {}): Promise<TestApp> {
  return buildTestApp({ ...options, env: { ...options.env, APP_DB_URL: first.config.appDbUrl } });
}
