import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { exportMessages as em } from '#common/messages.ts';
import { exportFilePath, exportsFolder } from '#server/jobs/export-files.ts';
import { exportJobTuning } from '#server/jobs/export-job.ts';
import { migrateAppStore, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { findExportJob, insertExportJob, markExportRunning } from '#server/store/export-jobs.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { testClock, type TestApp } from '#server/test/test-app.ts';
import { readStatus, startExport, waitForExport, type Envelope } from '#server/test/export-steps.ts';

/*
 * An export's life on a table big enough to watch (200,000 generated rows on PostgreSQL): progress that moves and
 * ends at 100, the one-export rule while one runs, cancel, and a restart in the middle (the app closed mid-export
 * and a new one built on the same app store; and a crash, where nothing got to record anything).
 */

const ROWS = 200_000;
const URL_OF_TABLE = '/api/sql/big/public/big_rows';

let database: TestDatabase;
let engine: DatabaseEngine;
let dir: { path: string; remove: () => void };
let store: AppStore;
let t: TestApp;
let user: TestUser;

/** An app on the shared store and data folder (a restart builds another on the same ones). */
async function startApp(): Promise<TestApp> {
  const config = loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent' });
  const databases = new DatabaseRegistry([engine]);
  const clock = testClock();
  const app = await buildApp({ config, store, databases, clock: clock.now });
  await app.ready();
  return { app, store, config, clock, close: () => app.close() };
}

const tuned = { ...exportJobTuning };
beforeAll(async () => {
  database = await createPostgresDatabase('exports');
  engine = await connectDatabase('big', 'postgres', database.url);
  await sql`create table big_rows (id bigint primary key, name text not null, amount numeric(12,2), created_at timestamptz, note text)`.execute(
    engine.db,
  );
  await sql`insert into big_rows select g, md5(g::text), (g % 100000) / 100.0, timestamptz '2020-01-01' + g * interval '1 second', case when g % 7 = 0 then null else 'note, "' || g || '"' end from generate_series(1, ${ROWS}) g`.execute(
    engine.db,
  );
  await sql`analyze big_rows`.execute(engine.db);
  dir = tempDir();
  store = openAppStore({ kind: 'sqlite', file: path.join(dir.path, 'app.db') });
  await migrateAppStore(store);
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await store?.close();
  dir?.remove();
  await database?.drop();
});
beforeEach(async () => {
  // Progress every 10 ms and small chunks, so an export of a tenth of a second (COPY's text written by DBUI) shows
  // several steps.
  exportJobTuning.progressIntervalMs = 10;
  exportJobTuning.chunkSize = 500;
  t = await startApp();
  user = await buildUser(t, { links: ['/db/big/*'] });
});
afterEach(async () => {
  Object.assign(exportJobTuning, tuned);
  await t.close();
});

/** Waits until the export runs and has written some rows. */
async function runningWithRows(id: string) {
  for (let i = 0; i < 500; i++) {
    const status = await readStatus(t, user, URL_OF_TABLE, id);
    if (status.data.state === 'running' && status.data.rowsWritten > 0) return status;
    expect(status.data.inProgress, JSON.stringify(status)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the export never got going');
}

describe('an export of 200,000 rows', () => {
  it('reports progress that moves, with time remaining, and ends at 100', async () => {
    const started = await startExport(t, user, URL_OF_TABLE, { format: 'jsonl', orderBy: '-name' });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json<Envelope<{ id: string }>>().data;
    // The one-export rule while it runs.
    const second = await startExport(t, user, URL_OF_TABLE);
    expect(second.statusCode).toBe(409);
    expect(second.json<Envelope<null>>().message).toBe(em.alreadyRunning);

    const reads = await waitForExport(t, user, URL_OF_TABLE, id, 5, 120_000);
    const running = reads.filter((r) => r.data.state === 'running' && r.data.rowsWritten > 0);
    const percentages = running.map((r) => r.data.percentageCompleted);
    expect(
      new Set(percentages.filter((p) => p > 0 && p < 100)).size,
      percentages.join(','),
    ).toBeGreaterThanOrEqual(3);
    expect([...percentages].sort((a, b) => a - b)).toEqual(percentages);
    for (const read of running) {
      expect(read.data.percentageCompleted + read.data.percentageRemaining).toBe(100);
      expect(read.data.rowsTotal).toBe(ROWS);
      expect(read.data.secondsRemaining).toBeGreaterThanOrEqual(0);
      expect(read.data.url).toBeNull();
    }
    const last = reads.at(-1)!;
    expect(last.data).toMatchObject({
      state: 'done',
      inProgress: false,
      percentageCompleted: 100,
      percentageRemaining: 0,
      secondsRemaining: 0,
      rowsWritten: ROWS,
    });
    const file = await t.app.inject({ method: 'GET', url: last.data.url! });
    const lines = file.body.trimEnd().split('\n');
    expect(lines).toHaveLength(ROWS);
    const table = await engine.table('public', 'big_rows');
    const firstPage = await engine.page(table, { filter: {}, orderBy: '-name', page: 1, pageSize: 20 });
    expect(lines.slice(0, 20).map((line) => JSON.parse(line) as unknown)).toEqual(firstPage.results);
  }, 120_000);

  it('CSV through COPY counts its rows and ends at 100', async () => {
    const started = await startExport(t, user, URL_OF_TABLE);
    const { id } = started.json<Envelope<{ id: string }>>().data;
    const last = (await waitForExport(t, user, URL_OF_TABLE, id, 25, 120_000)).at(-1)!;
    expect(last.data).toMatchObject({ state: 'done', percentageCompleted: 100, rowsWritten: ROWS });
    const file = await t.app.inject({ method: 'GET', url: last.data.url! });
    const body = file.body;
    expect(
      body.startsWith(
        'id,name,amount,created_at,note\n1,c4ca4238a0b923820dcc509a6f75849b,0.01,2020-01-01T00:00:01+00:00,"note, ""1"""\n',
      ),
    ).toBe(true);
    expect(body).toContain('\n7,8f14e45fceea167a5a36dedd4bea2543,0.07,2020-01-01T00:00:07+00:00,\n');
  }, 120_000);

  it('can be cancelled: it stops, its file is deleted, and the next export may start', async () => {
    const started = await startExport(t, user, URL_OF_TABLE, { format: 'jsonl', orderBy: 'name' });
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await runningWithRows(id);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `${URL_OF_TABLE}/export/${id}`,
      headers: user.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<Envelope<{ state: string }>>()).toMatchObject({
      isSuccess: true,
      message: em.cancelled,
      data: { state: 'cancelled', inProgress: false },
    });
    const file = exportFilePath(t.config.dataDir, id, 'jsonl');
    for (let i = 0; i < 200 && fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.existsSync(file)).toBe(false);
    const status = await readStatus(t, user, URL_OF_TABLE, id);
    expect(status).toMatchObject({
      isSuccess: false,
      message: em.cancelled,
      data: { state: 'cancelled', url: null },
    });
    const rowsAtCancel = status.data.rowsWritten;
    expect(rowsAtCancel).toBeLessThan(ROWS);
    await new Promise((r) => setTimeout(r, 200));
    expect((await readStatus(t, user, URL_OF_TABLE, id)).data.rowsWritten).toBe(rowsAtCancel);
    // Cancelling again answers the same; the POST form works too.
    const again = await t.app.inject({
      method: 'POST',
      url: `${URL_OF_TABLE}/export/${id}/cancel`,
      headers: user.headers,
    });
    expect(again.statusCode).toBe(200);
    const next = await startExport(t, user, URL_OF_TABLE, { filter: { id: '5' } });
    expect(next.statusCode).toBe(202);
    await waitForExport(t, user, URL_OF_TABLE, next.json<Envelope<{ id: string }>>().data.id);
  }, 120_000);

  it('fails with a reason when the server restarts during the export', async () => {
    const started = await startExport(t, user, URL_OF_TABLE, { format: 'xlsx', orderBy: 'name' });
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await runningWithRows(id);
    await t.close();
    // A new server on the same app store.
    t = await startApp();
    const status = await readStatus(t, user, URL_OF_TABLE, id);
    expect(status).toMatchObject({
      isSuccess: false,
      message: em.restarted,
      data: { state: 'failed', inProgress: false, error: em.restarted, url: null },
    });
    expect(fs.existsSync(exportFilePath(t.config.dataDir, id, 'xlsx'))).toBe(false);
    expect((await startExport(t, user, URL_OF_TABLE, { filter: { id: '5' } })).statusCode).toBe(202);
  }, 120_000);

  it('a crash leaves nothing stuck: the next start fails the job and deletes its partial file', async () => {
    await t.close();
    const id = crypto.randomUUID();
    await insertExportJob(
      store.db,
      {
        id,
        userId: user.userId,
        sessionId: user.sessionId,
        database: 'big',
        schema: 'public',
        table: 'big_rows',
        format: 'csv',
        request: JSON.stringify({ filter: {}, orderBy: null, bom: false }),
        rowsTotal: ROWS,
        rowsTotalIsEstimate: false,
      },
      new Date().toISOString(),
    );
    await markExportRunning(store.db, id, new Date().toISOString());
    fs.mkdirSync(exportsFolder(dir.path), { recursive: true });
    const partial = exportFilePath(dir.path, id, 'csv');
    fs.writeFileSync(partial, 'id,name\n1,half');
    t = await startApp();
    expect(await findExportJob(store.db, id)).toMatchObject({ status: 'failed', error: em.restarted });
    expect(fs.existsSync(partial)).toBe(false);
    const status = await readStatus(t, user, URL_OF_TABLE, id);
    expect(status).toMatchObject({ isSuccess: false, message: em.restarted });
  });

  it('removes files and jobs after the retention time', async () => {
    const started = await startExport(t, user, URL_OF_TABLE, { filter: { id: '7' } });
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await waitForExport(t, user, URL_OF_TABLE, id);
    const file = exportFilePath(t.config.dataDir, id, 'csv');
    expect(fs.existsSync(file)).toBe(true);
    const stray = path.join(exportsFolder(dir.path), `${crypto.randomUUID()}.csv`);
    fs.writeFileSync(stray, 'left behind');
    fs.utimesSync(stray, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    await store.db
      .updateTable('export_jobs')
      .set({ updated_at: new Date(Date.now() - 25 * 3600_000).toISOString() })
      .where('id', '=', id)
      .execute();
    // The sweep runs on start (and hourly).
    await t.close();
    t = await startApp();
    expect(await findExportJob(store.db, id)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(stray)).toBe(false);
  });
});
