import path from 'node:path';
import Database from 'better-sqlite3';
import { Queue } from 'bullmq';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bulkMessages, type BulkStatus } from '#common/contract/bulk.ts';
import type { UndoResult } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { bulkQueueName } from './routes.ts';

/*
 * Bulk changes on the BullMQ runner (REDIS_URL set; 127.0.0.1:6379 here and in CI): the job and its undo run through
 * the app store's own queue, removed afterwards; a cancel recorded in bulk_jobs (as another instance records it)
 * stops the job wherever it runs.
 */

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROWS = 400;
const BATCH = 20;

interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

describe('bulk changes on the BullMQ runner (REDIS_URL set)', () => {
  const folder = tempDir();
  let engine: DatabaseEngine;
  let t: TestApp;
  let user: TestUser;
  let queueName: string;
  let hold: { batch: number; reached: () => void; release: Promise<void> } | null = null;

  const at = (rest: string) => `/api/sql/shop/main/item/bulk${rest}`;
  const post = (rest: string, body?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: at(rest),
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body ?? {}),
    });
  const status = async (id: string) => {
    const response = await t.app.inject({ method: 'GET', url: at(`/${id}`), headers: user.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Envelope<BulkStatus>>().data;
  };
  const ended = (id: string) =>
    vi.waitFor(
      async () => {
        const now = await status(id);
        expect(now.inProgress).toBe(false);
        return now;
      },
      { timeout: 30_000, interval: 50 },
    );
  const countWhere = async (where: string) =>
    Number(
      (await sql.raw<{ n: number }>(`select count(*) as n from item where ${where}`).execute(engine.db))
        .rows[0]?.n,
    );
  const jobCounts = async () => {
    const queue = new Queue(queueName, { connection: { url: REDIS_URL } });
    try {
      return await queue.getJobCounts('wait', 'active', 'completed', 'failed');
    } finally {
      await queue.close();
    }
  };

  beforeAll(async () => {
    const file = path.join(folder.path, 'shop.db');
    new Database(file).close();
    engine = await connectDatabase('shop', 'sqlite', `sqlite:${file}`);
    await sql`create table item (id integer primary key, note varchar(20))`.execute(engine.db);
    const values = Array.from({ length: ROWS }, (_, i) => `(${i + 1}, null)`).join(', ');
    await sql.raw(`insert into item (id, note) values ${values}`).execute(engine.db);
    await engine.catalog({ refresh: true });
    t = await buildTestApp({
      databases: [engine],
      env: { REDIS_URL },
      bulk: {
        batchSize: BATCH,
        beforeBatch: async (batch) => {
          if (hold && hold.batch === batch) {
            hold.reached();
            await hold.release;
          }
        },
      },
    });
    queueName = await bulkQueueName(t.store);
    const item = 'shop/main/item';
    user = await buildUser(t, {
      links: [tablePath('shop', 'main', 'item')],
      permissions: [{ table: item, canUpdate: true, canDelete: true }],
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (queueName) {
      const queue = new Queue(queueName, { connection: { url: REDIS_URL } });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    folder.remove();
  });

  it('each app store has a bulk queue of its own, apart from the exports', async () => {
    expect(queueName).toMatch(/^dbui-bulk-[0-9a-f-]{36}$/);
    expect(await bulkQueueName(t.store)).toBe(queueName);
  });

  it('runs a bulk update and its undo through the queue, each read with the same status call', async () => {
    let reached = (): void => undefined;
    let release = (): void => undefined;
    const atBatch = new Promise<void>((resolve) => (reached = resolve));
    hold = { batch: 2, reached, release: new Promise<void>((resolve) => (release = resolve)) };
    try {
      const response = await post('', {
        action: 'update',
        allRows: true,
        set: { note: 'x' },
        expectedCount: ROWS,
      });
      expect(response.statusCode, response.body).toBe(202);
      const { id } = response.json<Envelope<{ id: string }>>().data;
      await atBatch;
      // Held in a BullMQ worker: the queue has it active.
      expect(await jobCounts()).toMatchObject({ active: 1 });
      release();
      const done = await ended(id);
      expect(done).toMatchObject({ state: 'done', done: ROWS, total: ROWS });
      expect(await countWhere("note = 'x'")).toBe(ROWS);

      const undone = await t.app.inject({
        method: 'POST',
        url: `/api/admin/audit/${done.auditId}/undo`,
        headers: user.headers,
      });
      expect(undone.statusCode, undone.body).toBe(200);
      const back = await ended(undone.json<Envelope<UndoResult>>().data.jobId ?? '');
      expect(back).toMatchObject({ state: 'done', done: ROWS });
      expect(await countWhere("note = 'x'")).toBe(0);
      // Nothing left on the queue once done.
      await expect.poll(jobCounts).toEqual({ wait: 0, active: 0, completed: 0, failed: 0 });
    } finally {
      release();
      hold = null;
    }
  });

  it('a cancel recorded in bulk_jobs (as another instance records it) stops the job after its batch in hand', async () => {
    let reached = (): void => undefined;
    let release = (): void => undefined;
    const atBatch = new Promise<void>((resolve) => (reached = resolve));
    hold = { batch: 3, reached, release: new Promise<void>((resolve) => (release = resolve)) };
    try {
      const response = await post('', {
        action: 'update',
        allRows: true,
        set: { note: 'y' },
        expectedCount: ROWS,
      });
      const { id } = response.json<Envelope<{ id: string }>>().data;
      await atBatch;
      await t.store.db
        .updateTable('bulk_jobs')
        .set({ status: 'cancelled', error: bulkMessages.cancelled })
        .where('id', '=', id)
        .execute();
      release();
      // The status says cancelled at once; the batch in hand then finishes and is counted, and no other starts.
      await expect.poll(async () => (await status(id)).done).toBe(4 * BATCH);
      expect(await status(id)).toMatchObject({ state: 'cancelled', error: bulkMessages.cancelled });
      await expect.poll(jobCounts).toMatchObject({ active: 0 });
      expect(await countWhere("note = 'y'")).toBe(4 * BATCH);
    } finally {
      release();
      hold = null;
    }
  });
});
