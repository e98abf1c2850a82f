import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkMessages, type BulkStatus } from '#common/contract/bulk.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { findAudit, writeAudit } from '#server/store/audit.ts';
import {
  bulkBatchesOf,
  failUnfinishedBulkJobs,
  findBulkJob,
  insertBulkJob,
  markBulkRunning,
  writeBulkBatch,
} from '#server/store/bulk-jobs.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { recoverBulkJobs } from './bulk-job.ts';

/*
 * A bulk change whose process was killed mid-job (issue 38, decision 0068): the state a kill leaves is made by hand
 * (a running job, its entry, one batch committed and one not, both records still pending), then the start's recovery
 * runs. The committed batch is kept as done, the other dropped, and the job and its entry say how many rows changed.
 */

describe('bulk changes after a restart', () => {
  const folder = tempDir();
  let engine: DatabaseEngine;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    const file = path.join(folder.path, 'shop.db');
    new Database(file).close();
    engine = await connectDatabase('shop', 'sqlite', `sqlite:${file}`);
    await sql`create table item (id integer primary key, note varchar(20))`.execute(engine.db);
    await sql`insert into item (id, note) values (1, null), (2, null), (3, null), (4, null)`.execute(
      engine.db,
    );
    await engine.catalog({ refresh: true });
    t = await buildTestApp({ databases: [engine] });
    user = await buildUser(t, { links: [tablePath('shop', 'main', 'item')] });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    folder.remove();
  });

  it('keeps the committed batches, drops the rest, and fails the job with the rows it changed', async () => {
    const db = t.store.db;
    const id = '5f0c8a52-6a3e-4c59-9a47-1d2f0e6b7a10';
    const at = new Date(Date.now() - 60_000).toISOString();
    await insertBulkJob(
      db,
      {
        id,
        userId: user.userId,
        database: 'shop',
        schema: 'main',
        table: 'item',
        action: 'update',
        request: JSON.stringify({ action: 'update', set: { note: 'x' }, count: 4, capped: false }),
        rowsTotal: 4,
        rowsTotalCapped: false,
      },
      at,
    );
    const auditId = await writeAudit(db, {
      userId: user.userId,
      action: 'data.bulk',
      target: tablePath('shop', 'main', 'item'),
      detail: { change: 'update', set: { note: 'x' }, count: 4, rows: 0, status: 'running' },
    });
    expect(await markBulkRunning(db, id, auditId, at)).toBe(true);
    const change = (ids: number[]) =>
      JSON.stringify(
        ids.map((n) => ({ key: { id: n }, before: { id: n, note: null }, after: { id: n, note: 'x' } })),
      );
    // Batch 0 committed (its rows are as it left them); batch 1 was killed before its commit.
    await writeBulkBatch(db, { auditId, batch: 0, rowCount: 2, rows: change([1, 2]) });
    await sql`update item set note = 'x' where id in (1, 2)`.execute(engine.db);
    await writeBulkBatch(db, { auditId, batch: 1, rowCount: 2, rows: change([3, 4]) });

    const interrupted = await failUnfinishedBulkJobs(db, bulkMessages.restarted, new Date().toISOString());
    expect(interrupted).toEqual([id]);
    await recoverBulkJobs({ store: t.store, databases: new DatabaseRegistry([engine]) }, interrupted);

    expect((await bulkBatchesOf(db, auditId)).map((b) => [b.batch, b.state])).toEqual([[0, 'done']]);
    expect(await findBulkJob(db, id)).toMatchObject({
      status: 'failed',
      rows_done: 2,
      error: bulkMessages.restarted,
    });
    const entry = await findAudit(db, auditId);
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({
      rows: 2,
      status: 'failed',
      error: bulkMessages.restarted,
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/sql/shop/main/item/bulk/${id}`,
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: BulkStatus }>().data).toMatchObject({
      state: 'failed',
      inProgress: false,
      done: 2,
      total: 4,
      percentageCompleted: 50,
      auditId,
      error: bulkMessages.restarted,
    });
  });
});
