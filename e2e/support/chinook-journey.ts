import { test } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import { startAppServer, type AppServer } from './app-server.ts';
import {
  createChinooks,
  databasesEnv,
  dropChinooks,
  type ChinookDatabase,
  type ChinookEngine,
} from './chinook-databases.ts';
import { signInAdmin } from './chinook-roles.ts';

/** What a journey over Chinook databases works with once its beforeAll has run. */
export interface ChinookJourney {
  server: AppServer;
  databases: ChinookDatabase[];
  /** The administrator, signed in. */
  admin: Verification;
  /** The journey's database on an engine. */
  db(engine: ChinookEngine): ChinookDatabase;
}

/**
 * Sets a journey file up on one Chinook database per engine and one server holding them, with the administrator
 * signed in (beforeAll), and takes them down after (afterAll); `timeout` is each test's. The returned object is
 * filled when the tests run.
 */
export function chinookJourney(
  name: string,
  engines: { engine: ChinookEngine; name: string }[],
  timeout: number,
): ChinookJourney {
  const journey = {
    databases: [] as ChinookDatabase[],
    db(engine: ChinookEngine) {
      const found = this.databases.find((d) => d.engine === engine);
      if (!found) throw new Error(`the journey has no ${engine} database`);
      return found;
    },
  } as ChinookJourney;
  test.describe.configure({ timeout });
  test.beforeAll(async () => {
    test.setTimeout(360_000);
    journey.databases = await createChinooks(engines);
    journey.server = await startAppServer(name, databasesEnv(journey.databases));
    journey.admin = await signInAdmin(journey.server);
  });
  test.afterAll(async () => {
    await journey.server?.stop();
    await dropChinooks(journey.databases);
  });
  return journey;
}
