import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { exportMessages as em } from '#common/messages.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { exportQueueName } from './export-queue.ts';
import {
  exportAndDownload,
  readCsv,
  readStatus,
  rowsThroughPages,
  startExport,
  waitForExport,
  type Envelope,
} from '#server/test/export-steps.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { bullmqRunner } from './bullmq-runner.ts';
import { exportFilePath } from './export-files.ts';
import { exportJobTuning } from './export-job.ts';
import { inProcessRunner } from './in-process-runner.ts';
import { stopReasonOf, type JobDefinition, type JobRunner, type StopReason } from './job-runner.ts';

/*
 * Both runners: in-process, and BullMQ on the Redis at REDIS_URL (127.0.0.1:6379 here and in CI), each test on a
 * queue of its own that is removed afterwards.
 */

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/** A job that records what it saw and waits until released (or stopped). */
function recordingJob() {
  const seen: { id: string; reason: StopReason | null }[] = [];
  const releases = new Map<string, () => void>();
  const started = new Map<string, () => void>();
  const startedPromises = new Map<string, Promise<void>>();
  const whenStarted = (id: string) => {
    if (!startedPromises.has(id))
      startedPromises.set(id, new Promise<void>((resolve) => started.set(id, resolve)));
    return startedPromises.get(id)!;
  };
  const definition: JobDefinition<{ id: string }> = {
    name: 'recording',
    payload: z.object({ id: z.string() }),
    async handle(payload, { signal }) {
      void whenStarted(payload.id);
      started.get(payload.id)?.();
      await new Promise<void>((resolve) => {
        releases.set(payload.id, resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      seen.push({ id: payload.id, reason: stopReasonOf(signal) });
    },
  };
  return { definition, seen, release: (id: string) => releases.get(id)?.(), whenStarted };
}

const modes = {
  'in-process': (definition: JobDefinition<{ id: string }>) =>
    inProcessRunner(definition, { concurrency: 2, log }),
  bullmq: (definition: JobDefinition<{ id: string }>, queueName: string) =>
    bullmqRunner(definition, { redisUrl: REDIS_URL, queueName, concurrency: 2, log }),
};

describe.each(Object.keys(modes) as (keyof typeof modes)[])('the %s runner', (mode) => {
  const queueName = `dbui-test-${randomUUID()}`;
  afterAll(async () => {
    if (mode !== 'bullmq') return;
    const queue = new Queue(queueName, { connection: { url: REDIS_URL } });
    await queue.obliterate({ force: true });
    await queue.close();
  });

  async function withRunner(
    work: (runner: JobRunner<{ id: string }>, job: ReturnType<typeof recordingJob>) => Promise<void>,
  ) {
    const job = recordingJob();
    const runner = modes[mode](job.definition, queueName);
    try {
      await work(runner, job);
    } finally {
      await runner.close();
    }
  }

  it('runs jobs, two at a time, and checks their payload', async () => {
    await withRunner(async (runner, job) => {
      expect(runner.mode).toBe(mode);
      await runner.enqueue('a', { id: 'a' });
      await runner.enqueue('b', { id: 'b' });
      await runner.enqueue('c', { id: 'c' });
      await Promise.all([job.whenStarted('a'), job.whenStarted('b')]);
      job.release('a');
      await job.whenStarted('c');
      job.release('b');
      job.release('c');
      await expect.poll(() => job.seen.length).toBe(3);
      expect(job.seen.map((s) => s.reason)).toEqual([null, null, null]);
      await expect(runner.enqueue('d', { id: 4 } as unknown as { id: string })).rejects.toThrow();
    });
  });

  it('stops a running job when told, and every running job when closed', async () => {
    const job = recordingJob();
    const runner = modes[mode](job.definition, queueName);
    await runner.enqueue('x', { id: 'x' });
    await runner.enqueue('y', { id: 'y' });
    await Promise.all([job.whenStarted('x'), job.whenStarted('y')]);
    expect(runner.stop('x', 'cancelled')).toBe(true);
    expect(runner.stop('nothing', 'cancelled')).toBe(false);
    await expect.poll(() => job.seen.length).toBe(1);
    await runner.close();
    expect(job.seen).toEqual([
      { id: 'x', reason: 'cancelled' },
      { id: 'y', reason: 'shutdown' },
    ]);
  });
});

describe('exports on the BullMQ runner (REDIS_URL set)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let queueName: string;

  beforeAll(async () => {
    database = await loadChinook('sqlite');
    const engine = await connectDatabase('chinook', 'sqlite', database.url);
    t = await buildTestApp({ databases: [engine], env: { REDIS_URL } });
    queueName = await exportQueueName(t.store);
  }, 60_000);
  afterAll(async () => {
    const queue = new Queue(queueName, { connection: { url: REDIS_URL } });
    await t?.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await database?.drop();
  });

  it('each app store has a queue of its own, shared by the instances on it', async () => {
    expect(queueName).toMatch(/^dbui-exports-[0-9a-f-]{36}$/);
    expect(await exportQueueName(t.store)).toBe(queueName);
  });

  it('runs an export through the queue to the same file as in-process', async () => {
    const user = await buildUser(t, { links: ['/db/chinook/*'] });
    const chinook = await connectDatabase('check', 'sqlite', database.url);
    try {
      const track = await chinook.table('main', 'Track');
      const rows = await rowsThroughPages(chinook, track, { orderBy: '-Milliseconds' });
      const { body, status } = await exportAndDownload(t, user, '/api/sql/chinook/main/Track', {
        orderBy: '-Milliseconds',
      });
      expect(status.rowsWritten).toBe(3503);
      const records = readCsv(body.toString('utf8'));
      expect(records.slice(1).map((r) => r[0])).toEqual(rows.map((r) => String(r.TrackId)));
      // Nothing left on the queue once done.
      const queue = new Queue(queueName, { connection: { url: REDIS_URL } });
      try {
        expect(await queue.getJobCounts('wait', 'active', 'completed', 'failed')).toEqual({
          wait: 0,
          active: 0,
          completed: 0,
          failed: 0,
        });
      } finally {
        await queue.close();
      }
    } finally {
      await chinook.close();
    }
  });

  it('a cancel recorded in the app store stops the job wherever it runs', async () => {
    const user = await buildUser(t, { links: ['/db/chinook/*'] });
    const at = '/api/sql/chinook/main/Track';
    const tuned = { ...exportJobTuning };
    Object.assign(exportJobTuning, { chunkSize: 50, progressIntervalMs: 20 });
    const started = await startExport(t, user, at, { format: 'xlsx', orderBy: 'Name' });
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await expect
      .poll(async () => (await readStatus(t, user, at, id)).data.rowsWritten, {
        timeout: 10_000,
        interval: 5,
      })
      .toBeGreaterThan(0);
    Object.assign(exportJobTuning, tuned);
    // As another instance would: only the row changes; the worker sees it on its next heartbeat.
    await t.store.db
      .updateTable('export_jobs')
      .set({ status: 'cancelled', error: em.cancelled })
      .where('id', '=', id)
      .execute();
    const last = (await waitForExport(t, user, at, id)).at(-1)!;
    expect(last).toMatchObject({ isSuccess: false, data: { state: 'cancelled' } });
    expect((await readStatus(t, user, at, id)).data.url).toBeNull();
    const file = exportFilePath(t.config.dataDir, id, 'xlsx');
    await expect.poll(() => fs.existsSync(file)).toBe(false);
    // A job that ended anyway is not marked done: the cancel recorded first wins.
    expect((await readStatus(t, user, at, id)).data.state).toBe('cancelled');
  });
});

describe('the BullMQ runner without Redis', () => {
  it('refuses a job within seconds instead of waiting for Redis, and still closes', async () => {
    const job = recordingJob();
    const runner = bullmqRunner(job.definition, {
      redisUrl: 'redis://127.0.0.1:1',
      queueName: `dbui-test-${randomUUID()}`,
      concurrency: 1,
      log,
    });
    // Nothing answers at port 1: the runner's own limit ends the wait (its message says so), and close returns.
    await expect(runner.enqueue('a', { id: 'a' })).rejects.toThrow(/Redis did not take the job/);
    await runner.close();
  });
});
