import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * Each instance caches a database's catalog for minutes; an administrator's refresh (GET /api/sql/{db}?refresh=true)
 * reaches every instance through Redis (catalog-refresh.ts), and without Redis stays with the instance asked.
 * Two instances here browse one SQLite file, each through its own engine (its own cache), as two hosts would.
 */

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const SECRET_KEY = 'catalog-refresh-secret-key-0123456789abcdef';

const folder = tempDir();
const file = path.join(folder.path, 'shop.db');

function shop(): Promise<DatabaseEngine> {
  return connectDatabase('shop', 'sqlite', `sqlite:${file}`, { statementTimeoutMs: 5_000, poolSize: 2 });
}

function createTable(name: string): void {
  const db = new Database(file);
  // The name is the test's own constant, never input.
  db.exec(`create table ${name} (id integer primary key, label text)`);
  db.close();
}

async function tablesSeen(t: TestApp, user: TestUser, refresh = false): Promise<string[]> {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/api/sql/shop${refresh ? '?refresh=true' : ''}`,
    headers: user.headers,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ data: { name: string }[] }>().data.map((table) => table.name);
}

beforeAll(() => createTable('things'));
afterAll(() => folder.remove());

describe('the catalog refresh on two instances sharing a PostgreSQL app store and Redis', () => {
  let store: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    store = await createPostgresDatabase('dbui_store');
    const env = { SECRET_KEY, REDIS_URL, APP_DB_URL: store.url };
    [first, second] = await Promise.all([
      buildTestApp({ env, databases: [await shop()] }),
      buildTestApp({ env, databases: [await shop()] }),
    ]);
    admin = await buildAdmin(first);
    user = await buildUser(first, { links: ['/db/shop', '/db/shop/*'] });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await store?.drop();
  });

  it('an administrator’s refresh on one instance refreshes the other’s cached catalog', async () => {
    // Both instances have the catalog cached.
    expect(await tablesSeen(first, user)).toEqual(['things']);
    expect(await tablesSeen(second, user)).toEqual(['things']);
    createTable('orders');
    expect(await tablesSeen(second, user)).toEqual(['things']);

    expect(await tablesSeen(first, admin, true)).toEqual(['orders', 'things']);
    await expect.poll(() => tablesSeen(second, user)).toEqual(['orders', 'things']);
  });

  it('a refresh asked by someone who is not an administrator stays with the instance asked', async () => {
    createTable('invoices');
    expect(await tablesSeen(second, user, true)).toEqual(['invoices', 'orders', 'things']);
    // An administrator's refresh through the same instance is the marker: once the other instance has it, an
    // announcement of the user's refresh would have arrived before it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await tablesSeen(first, user)).toEqual(['orders', 'things']);
    expect(await tablesSeen(second, admin, true)).toEqual(['invoices', 'orders', 'things']);
    await expect.poll(() => tablesSeen(first, user)).toEqual(['invoices', 'orders', 'things']);
  });
});

describe('the catalog refresh without Redis', () => {
  let store: TestDatabase;
  let first: TestApp;
  let second: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    store = await createPostgresDatabase('dbui_store');
    const env = { SECRET_KEY, APP_DB_URL: store.url };
    first = await buildTestApp({ env, databases: [await shop()] });
    second = await buildTestApp({ env, databases: [await shop()] });
    admin = await buildAdmin(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await store?.drop();
  });

  it('is per instance, as the cache is', async () => {
    const before = await tablesSeen(second, admin);
    createTable('returns');
    expect(await tablesSeen(first, admin, true)).toContain('returns');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await tablesSeen(second, admin)).toEqual(before);
    expect(await tablesSeen(second, admin, true)).toContain('returns');
  });
});
