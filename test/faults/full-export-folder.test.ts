import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn } from '#common/contract/account.ts';
import { exportMessages as em } from '#common/messages.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { startExport, waitForExport } from '#server/test/export-steps.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * A full export folder (issue 10, faults): the export that fills it fails with a sentence that says so, leaves no
 * partial file behind, and everything else — signing in, browsing, the next export once there is room — goes on.
 * The folder is a small tmpfs this test mounts over $DATA_DIR/exports (root only); the app store stays writable.
 */

const isRoot = process.getuid?.() === 0;
const TABLE = '/api/sql/data/main/notes';

describe.skipIf(!isRoot)('a full export folder', () => {
  const browsed = tempDir('dbui-full-export-');
  let t: TestApp;
  let user: TestUser;
  let exportsFolder = '';
  let mounted = false;

  beforeAll(async () => {
    const file = path.join(browsed.path, 'data.db');
    const setup = new SQLite(file);
    // About 2 MB of CSV: far more than the 256 KB folder holds.
    setup.exec(`CREATE TABLE notes (id integer primary key, note text);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO notes (id, note) SELECT i, printf('%.100c', 'x') FROM n;`);
    setup.close();
    t = await buildTestApp({ databases: [await connectDatabase('data', 'sqlite', `sqlite:${file}`)] });
    user = await buildUser(t, { links: ['/db/data/*'] });
    exportsFolder = path.join(t.config.dataDir, 'exports');
    fs.mkdirSync(exportsFolder, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', exportsFolder]);
    mounted = true;
  });

  afterAll(async () => {
    try {
      // Unmounted first: closing the app removes its data folder, which a mount inside it would keep busy.
      if (mounted) execFileSync('umount', ['-l', exportsFolder]);
    } finally {
      await t?.close();
      browsed.remove();
    }
  });

  it('fails the export that fills the folder with a sentence saying so, and keeps no partial file', async () => {
    const started = await startExport(t, user, TABLE, { format: 'csv' });
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json<{ data: { id: string } }>().data.id;
    const reads = await waitForExport(t, user, TABLE, id);
    const last = reads.at(-1)!;
    expect(last.data.inProgress).toBe(false);
    expect(last.data).toMatchObject({ state: 'failed', error: em.folderFull });
    expect(fs.readdirSync(exportsFolder)).toEqual([]);
  });

  it('goes on signing people in and serving pages', async () => {
    const browser = new AccountClient(t);
    const login = await browser.post<PreSignIn>('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token: await browser.humanCheck(),
    });
    expect(login.status, login.message ?? '').toBe(200);
    const page = await t.app.inject({ method: 'GET', url: `${TABLE}/page/1`, headers: user.headers });
    expect(page.statusCode, page.body).toBe(200);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode, health.body).toBe(200);
  });

  it('exports again once the file fits', async () => {
    const started = await startExport(t, user, TABLE, { format: 'csv', filter: { id: 7 } });
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json<{ data: { id: string } }>().data.id;
    const last = (await waitForExport(t, user, TABLE, id)).at(-1)!;
    expect(last.data).toMatchObject({ state: 'done', rowsWritten: 1, error: null });
  });
});
