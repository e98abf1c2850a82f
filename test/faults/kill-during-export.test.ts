import fs from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBody } from '#common/contract/sql.ts';
import type { ExportStatus } from '#common/contract/exports.ts';
import { exportMessages } from '#common/messages.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { EXPORT_STALE_CHECK_MS, EXPORT_STALE_MS, exportQueueName } from '#server/jobs/export-queue.ts';
import { openDbuiStore, prepareAdmin, signedInHeaders, startDbui, type DbuiProcess } from './dbui-process.ts';

/*
 * DBUI killed (SIGKILL) while exports are being written (issue 10, the fault suite): two exports running — XLSX of a
 * PostgreSQL table, JSON Lines of a MariaDB table — and a third waiting its turn. After the next start no job is left
 * in progress: the interrupted ones are failed with a sentence saying what happened and what to do, and no partial
 * file is left in the export folder; then a new export runs to the end. Jobs run in the process (no REDIS_URL: the
 * waiting job is failed too, it lived in the dead process) and on BullMQ (REDIS_URL, the shared Redis: the waiting
 * job is in the queue and runs after the restart). On BullMQ the restarted instance cannot tell the dead worker's
 * jobs from another live instance's at once: they must end by their silent heartbeat within seconds, not when the
 * queue's lock expires or the hourly sweep comes.
 */

const ROWS = 200_000;
/** How long after the kill jobs on BullMQ may stay in progress: their heartbeat silent for EXPORT_STALE_MS, checked
 * every EXPORT_STALE_CHECK_MS, plus a margin for a busy machine (in-process jobs are failed by the start itself). */
const SETTLE_TIMEOUT_MS = EXPORT_STALE_MS + EXPORT_STALE_CHECK_MS + 5000;
const redisUrl = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

interface Source {
  name: string;
  schema: string;
  database: TestDatabase;
  close(): Promise<void>;
}

async function postgresSource(): Promise<Source> {
  const database = await createPostgresDatabase('dbui_kill_export');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      'create table big (id integer primary key, label text not null, amount numeric(12, 2), at timestamptz)',
    );
    await client.query(
      `insert into big select g, repeat(md5(g::text), 3), g / 7.0, timestamptz '2020-01-01' + g * interval '1 minute'
       from generate_series(1, ${ROWS}) g`,
    );
    await client.query('create table small (id integer primary key, label text not null)');
    await client.query(`insert into small values (1, 'one'), (2, 'two'), (3, 'three')`);
  } finally {
    await client.end();
  }
  return { name: 'pg', schema: 'public', database, close: () => database.drop() };
}

async function mariadbSource(): Promise<Source> {
  const database = await createMysqlDatabase('dbui_kill_export');
  const connection = await mysql.createConnection({ uri: database.url });
  try {
    await connection.query(
      'create table big (id integer primary key, label text not null, amount decimal(12, 2), at datetime)',
    );
    await connection.query(
      `insert into big select seq, repeat(md5(seq), 3), seq / 7.0, timestamp '2020-01-01 00:00:00' + interval seq minute
       from seq_1_to_${ROWS}`,
    );
  } finally {
    await connection.end();
  }
  return { name: 'maria', schema: database.name, database, close: () => database.drop() };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The files in the export folder (none when it does not exist). */
const exportFiles = (dataDir: string) => {
  try {
    return fs.readdirSync(path.join(dataDir, 'exports'));
  } catch {
    return [];
  }
};

/** The source databases, made once for both runs. */
let sources: Source[] = [];
beforeAll(async () => {
  sources = await Promise.all([postgresSource(), mariadbSource()]);
});
afterAll(async () => {
  await Promise.allSettled(sources.map((s) => s.close()));
});

describe.each([
  { mode: 'in-process', env: {} as Record<string, string>, waitingJobRuns: false, settleMs: 0 },
  {
    mode: 'BullMQ',
    env: { REDIS_URL: redisUrl } as Record<string, string>,
    waitingJobRuns: true,
    settleMs: SETTLE_TIMEOUT_MS,
  },
])('DBUI killed during exports ($mode jobs)', ({ env: modeEnv, waitingJobRuns, settleMs }) => {
  const data = tempDir('dbui-kill-export-');
  let env: Record<string, string> & { DATA_DIR: string };
  let dbui: DbuiProcess | null = null;

  beforeAll(() => {
    env = {
      DATA_DIR: data.path,
      DATABASES: sources.map((s) => `${s.name}=${s.database.url}`).join(','),
      ...modeEnv,
    };
  });

  afterAll(async () => {
    await dbui?.kill();
    if (modeEnv.REDIS_URL) {
      // The shared Redis keeps nothing of this test's queue.
      const store = openDbuiStore(env);
      const queue = new Queue(await exportQueueName(store), { connection: { url: modeEnv.REDIS_URL } });
      await queue.obliterate({ force: true }).finally(() => queue.close());
      await store.close();
    }
    data.remove();
  });

  /** An export call of a table of a source, as `headers`' user. */
  const exportsOf = (source: Source, table: string) => {
    const base = () =>
      `${dbui!.url}/api/sql/${source.name}/${encodeURIComponent(source.schema)}/${table}/export`;
    return {
      async start(headers: Record<string, string>, format: string): Promise<string> {
        const answer = await fetch(`${base()}?format=${format}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'text/plain' },
          body: encodeBody({}),
        });
        const body = (await answer.json()) as { data: { id: string } | null; message: string };
        if (answer.status !== 202 || !body.data)
          throw new Error(`export not started: ${answer.status} ${body.message}`);
        return body.data.id;
      },
      async status(headers: Record<string, string>, id: string): Promise<ExportStatus> {
        const answer = await fetch(`${base()}/${id}`, { headers });
        const body = (await answer.json()) as { data: ExportStatus | null; message: string };
        if (!body.data) throw new Error(`no status: ${answer.status} ${body.message}`);
        return body.data;
      },
    };
  };

  it('fails every unfinished job with a clear message and leaves no partial file', async () => {
    dbui = await startDbui({ env });
    const users = await Promise.all(
      ['pg-exporter', 'maria-exporter', 'waiting-exporter'].map(async (name) => {
        const admin = await prepareAdmin(env, name);
        return signedInHeaders(dbui!, admin.token);
      }),
    );
    const [pgUser, mariaUser, waitingUser] = users as [
      Record<string, string>,
      Record<string, string>,
      Record<string, string>,
    ];
    const [pgSource, mariaSource] = sources as [Source, Source];
    const pgBig = exportsOf(pgSource, 'big');
    const mariaBig = exportsOf(mariaSource, 'big');
    const jobs = [
      { user: pgUser, calls: pgBig, id: await pgBig.start(pgUser, 'xlsx') },
      { user: mariaUser, calls: mariaBig, id: await mariaBig.start(mariaUser, 'jsonl') },
      // Two run at once: this one waits its turn.
      { user: waitingUser, calls: pgBig, id: await pgBig.start(waitingUser, 'csv') },
    ];

    // Both running exports have written part of their files.
    const deadline = Date.now() + 15_000;
    while (exportFiles(data.path).length < 2 && Date.now() < deadline) await sleep(10);
    await sleep(150);
    const before = await Promise.all(jobs.slice(0, 2).map((job) => job.calls.status(job.user, job.id)));
    expect(before.map((s) => s.state)).toEqual(['running', 'running']);
    expect(exportFiles(data.path)).toHaveLength(2);
    await dbui.kill();
    const killedAt = performance.now();
    const partial = exportFiles(data.path);
    expect(partial.length, 'the kill left the partial files to clean up').toBeGreaterThan(0);

    dbui = await startDbui({ env });
    const restartMs = Math.round(performance.now() - killedAt);
    const read = () => Promise.all(jobs.map((job) => job.calls.status(job.user, job.id)));
    const interruptedOf = (all: ExportStatus[]) => (waitingJobRuns ? all.slice(0, 2) : all);
    // In-process jobs are failed by the start itself; on BullMQ within `settleMs` of the kill (the heartbeat's).
    let statuses = await read();
    while (interruptedOf(statuses).some((s) => s.inProgress) && performance.now() - killedAt < settleMs) {
      await sleep(250);
      statuses = await read();
    }
    const settledMs = Math.round(performance.now() - killedAt);
    for (const status of interruptedOf(statuses)) {
      expect(status, JSON.stringify(statuses)).toMatchObject({
        state: 'failed',
        inProgress: false,
        error: exportMessages.restarted,
        url: null,
      });
    }
    const waiting = jobs[2]!;
    if (waitingJobRuns) {
      // The queued job survived in the queue: it runs now, to the end.
      for (let tries = 0; statuses[2]?.inProgress && tries < 120; tries++) {
        await sleep(250);
        statuses = await read();
      }
      expect(statuses[2], JSON.stringify(statuses)).toMatchObject({
        state: 'done',
        inProgress: false,
        error: null,
      });
    }
    // A sweep fails the jobs first and then deletes their files: a status read between the two sees a job failed
    // whose file goes a moment later.
    const expectedFiles = waitingJobRuns ? [`${waiting.id}.csv`] : [];
    for (let tries = 0; tries < 40 && exportFiles(data.path).length > expectedFiles.length; tries++)
      await sleep(50);
    expect(exportFiles(data.path), `left in the export folder (from ${partial.join(', ')})`).toEqual(
      expectedFiles,
    );
    console.info(
      `started again ${restartMs} ms after the kill; interrupted jobs failed ${settledMs} ms after it`,
    );

    // The folder and the runner work: a new export runs to the end, its file alone in the folder.
    const small = exportsOf(pgSource, 'small');
    const id = await small.start(pgUser, 'csv');
    let status = await small.status(pgUser, id);
    for (let tries = 0; status.inProgress && tries < 100; tries++) {
      await sleep(100);
      status = await small.status(pgUser, id);
    }
    expect(status.state).toBe('done');
    expect(exportFiles(data.path).sort()).toEqual(
      [`${id}.csv`, ...(waitingJobRuns ? [`${waiting.id}.csv`] : [])].sort(),
    );
  });
});
