import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthResponse } from '#common/contract/health.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * A full disk under the data folder (issue 11 finding 5): the SQLite app store there cannot be written any more.
 * Reading must go on — the sign-in page's calls, a signed-in person's own account and a page of a table — since a
 * read needs no write; /api/health must say that the store cannot be written rather than 'up', and a call that must
 * write answers a plain 503. The folder is a small tmpfs this test mounts (root only) and fills; the browsed
 * database lives elsewhere.
 */

const isRoot = process.getuid?.() === 0;
const PAGE = '/api/sql/data/main/notes/page/1';

/** No driver text, SQL or stack frame in an answer. */
function expectPlain(answer: LightMyRequestResponse) {
  expect(answer.body).not.toMatch(/SQLITE_|disk is full|\n\s+at\s|\.ts:\d+/i);
}

describe.skipIf(!isRoot)('a full data folder', () => {
  let mountPoint: string;
  let mounted = false;
  const browsed = tempDir('dbui-full-browsed-');
  let t: TestApp | undefined;
  let reader: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    const file = path.join(browsed.path, 'data.db');
    const setup = new SQLite(file);
    setup.exec(`CREATE TABLE notes (id integer primary key, note text);
      INSERT INTO notes (note) VALUES ('one'), ('two'), ('three');`);
    setup.close();
    mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m,mode=0700', 'tmpfs', mountPoint]);
    mounted = true;
    t = await buildTestApp({
      env: { DATA_DIR: mountPoint },
      databases: [await connectDatabase('data', 'sqlite', `sqlite:${file}`)],
    });
    reader = await buildUser(t, { links: ['/db/data/*'] });
    admin = await buildAdmin(t);
    // Past the once-a-minute mark, so these reads are ones that would record the session's use.
    t.clock.advance(2 * 60_000);
    fillDisk(mountPoint);
    await fillStore(t);
  });

  afterAll(async () => {
    try {
      await t?.close();
    } finally {
      if (mounted) execFileSync('umount', ['-l', mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
      browsed.remove();
    }
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t!.app.inject({ method: 'GET', url, headers });

  it('answers the sign-in page’s reads', async () => {
    for (const url of ['/api/captcha', '/api/setup']) {
      const answer = await get(url);
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
    }
  });

  it('answers a signed-in person’s own account and a page of a table, again and again', async () => {
    for (let i = 0; i < 3; i++) {
      for (const url of ['/api/account/verify', '/api/account', PAGE]) {
        const answer = await get(url, reader.headers);
        expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
        expectPlain(answer);
      }
      t!.clock.advance(61_000);
    }
    const page = await get(PAGE, admin.headers);
    expect(page.json<{ data: { results: unknown[] } }>().data.results).toHaveLength(3);
  });

  it('says in /api/health that the app store cannot be written', async () => {
    const answer = await get('/api/health');
    const report = answer.json<{ data: HealthResponse; message: string | null }>();
    expect(report.data.status, answer.body).toBe('degraded');
    expect(report.data.appStore).toMatchObject({ engine: 'sqlite', status: 'up', writable: false });
    expect(report.message).toMatch(/cannot be written/);
  });

  it('refuses a sign-in and a change with a plain 503 that says why', async () => {
    const browser = new AccountClient(t!);
    const signIn = await browser.post('/api/account/login', {
      username: reader.username,
      password: TEST_PASSWORD,
      token: await browser.humanCheck(),
    });
    const change = await t!.app.inject({
      method: 'POST',
      url: '/api/admin/app/main/users',
      headers: admin.headers,
      payload: { id: reader.userId, first_name: 'Ann' },
    });
    for (const answer of [signIn.response, change]) {
      expect(answer.statusCode, answer.body).toBe(503);
      expect(answer.json<{ message: string }>().message).toMatch(/cannot save anything right now/);
      expectPlain(answer);
    }
  });
});

/** Writes a file until the folder's file system has no space left. */
function fillDisk(folder: string): void {
  const fd = fs.openSync(path.join(folder, 'filler'), 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes to the app store until it refuses: room left inside its files is used up too. */
async function fillStore(t: TestApp): Promise<void> {
  const db = t.store.db;
  for (let i = 0; i < 1000; i++) {
    try {
      await db
        .insertInto('settings')
        .values({ name: `filler-${i}`, value: 'x'.repeat(4000) })
        .execute();
    } catch {
      return;
    }
  }
  throw new Error('the app store could still be written after the disk filled up');
}
