import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bulkMessages, type BulkStatus } from '#common/contract/bulk.ts';
import { importMessages as im, type ImportStatus } from '#common/contract/imports.ts';
import type { UndoResult } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, EngineKind } from '#server/engines/engine.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { findAudit, writeAudit } from '#server/store/audit.ts';
import { bulkBatchesOf, writeBulkBatch } from '#server/store/bulk-jobs.ts';
import {
  insertImportJob,
  markImportRunning,
  queueImportRun,
  setImportAudit,
} from '#server/store/import-jobs.ts';
import { recoverImportAudits } from './import-recovery.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * The import's run that writes (issue 39, decision 0070) on SQLite, PostgreSQL and MariaDB (ENGINES=… to choose):
 * insert, upsert and skipExisting; all-or-nothing (a bad value near the end of 3,000 rows, or a row only the database
 * refuses, leaves the table as it was) and skip (the good rows written, the rest reported); one audit entry with its
 * rows; the rights. Batches of 200 rows, so a file spans several.
 */

type Kind = Exclude<EngineKind, 'mssql'>;
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

function multipart(file: string, filename: string) {
  const boundary = `----dbui${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, type: `multipart/form-data; boundary=${boundary}` };
}

const MAPPING = { id: 'id', name: 'name', artist_id: 'artist_id', qty: 'qty' };
const csv = (rows: string[]) => ['id,name,artist_id,qty', ...rows].join('\n') + '\n';

describe.each(chosen)('import runs on %s', (kind) => {
  const folder = tempDir();
  let database: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let editor: TestUser;
  let upserter: TestUser;
  let reader: TestUser;
  /** A run waits before this batch until released. */
  let hold: { batch: number; reached: () => void; release: Promise<void> } | null = null;

  const at = (rest: string) => `/api/sql/shop/${encodeURIComponent(schema)}/song/import${rest}`;
  function upload(user: TestUser, file: string): Promise<LightMyRequestResponse> {
    const body = multipart(file, 'songs.csv');
    return t.app.inject({
      method: 'POST',
      url: at(''),
      headers: { ...user.headers, 'content-type': body.type },
      payload: body.payload,
    });
  }
  const post = (user: TestUser, rest: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: at(rest),
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  /** Uploads the file and runs it to its end. */
  async function run(
    file: string,
    options: { mode?: string; onError?: string; user?: TestUser } = {},
  ): Promise<ImportStatus> {
    const user = options.user ?? editor;
    const uploaded = await upload(user, file);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { id } = uploaded.json<Envelope<{ id: string }>>().data;
    const started = await post(user, `/${id}/run`, {
      mapping: MAPPING,
      mode: options.mode ?? 'insert',
      onError: options.onError ?? 'rollback',
      dryRun: false,
    });
    expect(started.statusCode, started.body).toBe(202);
    return ended(user, id);
  }
  /** Uploads the file and starts its run; answers the import's id. */
  async function start(file: string, user: TestUser, onError = 'rollback'): Promise<string> {
    const uploaded = await upload(user, file);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { id } = uploaded.json<Envelope<{ id: string }>>().data;
    const started = await post(user, `/${id}/run`, {
      mapping: MAPPING,
      mode: 'insert',
      onError,
      dryRun: false,
    });
    expect(started.statusCode, started.body).toBe(202);
    return id;
  }
  function ended(user: TestUser, id: string): Promise<ImportStatus> {
    return vi.waitFor(
      async () => {
        const answer = await t.app.inject({ method: 'GET', url: at(`/${id}`), headers: user.headers });
        const status = answer.json<Envelope<ImportStatus>>().data;
        expect(status.inProgress).toBe(false);
        return status;
      },
      { timeout: 30_000, interval: 50 },
    );
  }
  const songs = async () =>
    (
      await sql
        .raw<{ id: unknown; name: string; qty: unknown }>('select id, name, qty from song order by id')
        .execute(engine.db)
    ).rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      qty: row.qty === null ? null : Number(row.qty),
    }));

  beforeAll(async () => {
    let url: string;
    if (kind === 'sqlite') {
      const file = path.join(folder.path, 'shop.db');
      new Database(file).close();
      url = `sqlite:${file}`;
    } else {
      database = kind === 'postgres' ? await createPostgresDatabase() : await createMysqlDatabase();
      url = database.url;
    }
    schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : (database?.name ?? '');
    engine = await connectDatabase('shop', kind, url);
    for (const statement of [
      'create table artist (id integer not null primary key, name varchar(50) not null)',
      'create table song (id bigint not null primary key, name varchar(20) not null, artist_id integer, ' +
        'qty integer, constraint ck_song_qty check (qty >= 0), ' +
        'constraint fk_song_artist foreign key (artist_id) references artist (id))',
      "insert into artist (id, name) values (1, 'One'), (2, 'Two')",
    ])
      await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    t = await buildTestApp({
      databases: [engine],
      imports: {
        batchSize: 200,
        beforeBatch: async (batch) => {
          if (hold && hold.batch === batch) {
            hold.reached();
            await hold.release;
          }
        },
      },
    });
    const song = `shop/${schema}/song`;
    const links = [tablePath('shop', schema, 'song')];
    editor = await buildUser(t, { links, permissions: [{ table: song, canInsert: true }] });
    upserter = await buildUser(t, {
      links,
      permissions: [{ table: song, canInsert: true, canUpdate: true, canDelete: true }],
    });
    reader = await buildUser(t, { links });
  }, 120_000);
  beforeEach(async () => {
    await sql.raw('delete from song').execute(engine.db);
    await sql
      .raw("insert into song (id, name, artist_id, qty) values (1, 'Old', 1, 1), (2, 'Keep', 2, 2)")
      .execute(engine.db);
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    folder.remove();
  });

  it('inserts the rows as one audit entry that keeps their keys', async () => {
    const status = await run(csv(['10,Ten,1,5', '11,Eleven,,', '12,Twelve,2,0']));
    expect(status).toMatchObject({ state: 'done', inserted: 3, failed: 0, error: null, dryRun: false });
    expect(await songs()).toEqual([
      { id: 1, name: 'Old', qty: 1 },
      { id: 2, name: 'Keep', qty: 2 },
      { id: 10, name: 'Ten', qty: 5 },
      { id: 11, name: 'Eleven', qty: null },
      { id: 12, name: 'Twelve', qty: 0 },
    ]);
    expect(status.auditId).not.toBeNull();
    const entry = await findAudit(t.store.db, status.auditId ?? 0);
    expect(entry?.action).toBe('data.bulk');
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({
      change: 'import',
      file: 'songs.csv',
      mode: 'insert',
      inserted: 3,
      rows: 3,
      status: 'done',
    });
    const batches = await bulkBatchesOf(t.store.db, status.auditId ?? 0, -1);
    expect(batches.map((batch) => batch.state)).toEqual(['done']);
    const rows = JSON.parse(batches[0]?.rows ?? '[]') as { key: unknown; before: unknown }[];
    expect(rows.map((row) => row.key)).toEqual([{ id: 10 }, { id: 11 }, { id: 12 }]);
    expect(rows.every((row) => row.before === null)).toBe(true);
  });

  it('rolls back everything when a bad value is near the end of 3,000 rows', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 2989 ? `${100 + i},A name far too long for it,1,1` : `${100 + i},Song ${i},1,1`,
    );
    const status = await run(csv(lines));
    expect(status).toMatchObject({
      state: 'failed',
      inserted: 0,
      updated: 0,
      failed: 1,
      auditId: expect.any(Number),
    });
    expect(status.errors).toEqual([{ row: 2990, column: 'name', message: expect.any(String) }]);
    expect(status.error).toBe(im.rolledBack(1, status.errors[0]));
    expect(await songs()).toHaveLength(2);
    // Nothing committed: the entry says so and keeps no rows.
    expect(await bulkBatchesOf(t.store.db, status.auditId ?? 0, -1)).toEqual([]);
    const entry = await findAudit(t.store.db, status.auditId ?? 0);
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({ rows: 0, status: 'failed' });
  });

  it('rolls back everything when only the database refuses a row (a check constraint), naming it', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${100 + i},Song ${i},1,${i === 449 ? -1 : 1}`);
    const status = await run(csv(lines));
    expect(status).toMatchObject({ state: 'failed', inserted: 0, failed: 1 });
    expect(status.errors[0]?.row).toBe(450);
    expect(status.error).toContain('row 450');
    expect(await songs()).toHaveLength(2);
  });

  it('skip mode writes the good rows and reports the others', async () => {
    const status = await run(
      csv([
        '20,Good,1,1',
        '21,A name far too long for it,1,1',
        '22,Negative,1,-1',
        '23,Orphan,99,1',
        '24,Fine,2,',
      ]),
      { onError: 'skip' },
    );
    expect(status).toMatchObject({ state: 'done', inserted: 2, failed: 3, error: null });
    expect(status.errors.map((e) => e.row)).toEqual([2, 4, 3]);
    expect((await songs()).map((song) => song.id)).toEqual([1, 2, 20, 24]);
    const entry = await findAudit(t.store.db, status.auditId ?? 0);
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({ rows: 2, inserted: 2, failed: 3 });
  });

  it('upserts by the primary key, keeping the values it replaced', async () => {
    const status = await run(csv(['1,New,2,7', '30,Thirty,1,3']), { mode: 'upsert', user: upserter });
    expect(status).toMatchObject({ state: 'done', inserted: 1, updated: 1, failed: 0 });
    expect(await songs()).toEqual([
      { id: 1, name: 'New', qty: 7 },
      { id: 2, name: 'Keep', qty: 2 },
      { id: 30, name: 'Thirty', qty: 3 },
    ]);
    const [batch] = await bulkBatchesOf(t.store.db, status.auditId ?? 0, -1);
    const rows = JSON.parse(batch?.rows ?? '[]') as {
      key: { id: number };
      before: { name: string } | null;
    }[];
    expect(rows.find((row) => row.key.id === 1)?.before).toMatchObject({ name: 'Old' });
    expect(rows.find((row) => row.key.id === 30)?.before).toBeNull();
  });

  it('skipExisting leaves rows with a known key as they are', async () => {
    const status = await run(csv(['1,Changed,2,7', '31,Thirty-one,1,3']), { mode: 'skipExisting' });
    expect(status).toMatchObject({ state: 'done', inserted: 1, skipped: 1, updated: 0, failed: 0 });
    expect(await songs()).toEqual([
      { id: 1, name: 'Old', qty: 1 },
      { id: 2, name: 'Keep', qty: 2 },
      { id: 31, name: 'Thirty-one', qty: 3 },
    ]);
  });

  it('refuses a user without CanInsert, and an upsert without CanUpdate', async () => {
    const refused = await upload(reader, csv(['40,Forty,1,1']));
    expect(refused.statusCode).toBe(403);
    const uploaded = await upload(editor, csv(['1,New,1,1']));
    const { id } = uploaded.json<Envelope<{ id: string }>>().data;
    const upsert = await post(editor, `/${id}/run`, { mapping: MAPPING, mode: 'upsert', dryRun: false });
    expect(upsert.statusCode).toBe(403);
    expect(await songs()).toHaveLength(2);
  });

  const undo = (user: TestUser, auditId: number) =>
    t.app.inject({ method: 'POST', url: `/api/admin/audit/${auditId}/undo`, headers: user.headers });
  /** The undo job to its end. */
  const undone = (user: TestUser, jobId: string) =>
    vi.waitFor(
      async () => {
        const answer = await t.app.inject({
          method: 'GET',
          url: `/api/sql/shop/${encodeURIComponent(schema)}/song/bulk/${jobId}`,
          headers: user.headers,
        });
        expect(answer.statusCode, answer.body).toBe(200);
        const status = answer.json<Envelope<BulkStatus>>().data;
        expect(status.inProgress).toBe(false);
        return status;
      },
      { timeout: 20_000, interval: 50 },
    );

  it('undoes an upsert as one job: the inserted rows deleted, the replaced values written back', async () => {
    const status = await run(csv(['1,New,2,7', '40,Forty,1,3', '41,Forty-one,,']), {
      mode: 'upsert',
      user: upserter,
    });
    expect(status).toMatchObject({ state: 'done', inserted: 2, updated: 1 });
    // Without CanDelete the rows it inserted cannot be taken out.
    expect((await undo(editor, status.auditId ?? 0)).statusCode).toBe(403);
    const response = await undo(upserter, status.auditId ?? 0);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<Envelope<UndoResult>>();
    expect(answer.message).toBe(bulkMessages.undoStarted);
    const ended = await undone(upserter, answer.data.jobId ?? '');
    expect(ended).toMatchObject({ state: 'done', done: 3, error: null });
    expect(await songs()).toEqual([
      { id: 1, name: 'Old', qty: 1 },
      { id: 2, name: 'Keep', qty: 2 },
    ]);
    const entry = await findAudit(t.store.db, answer.data.undoEntryId);
    expect(entry).toMatchObject({ action: 'data.undo', undo_of: status.auditId });
  });

  it('refuses to undo an import whose rows changed since, listing them', async () => {
    const status = await run(csv(['50,Fifty,1,1', '51,Fifty-one,1,1']), { user: upserter });
    expect(status).toMatchObject({ state: 'done', inserted: 2 });
    await sql.raw("update song set name = 'Edited' where id = 51").execute(engine.db);
    const refused = await undo(upserter, status.auditId ?? 0);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Envelope<null>>().message).toBe(bulkMessages.undoChangedSince(['{"id":51}']));
    expect((await songs()).map((song) => song.id)).toEqual([1, 2, 50, 51]);
  });

  it('after a restart, settles a killed run’s pending batches by their first row', async () => {
    const db = t.store.db;
    const at = new Date().toISOString();
    const id = `killed-${kind}`;
    const user = await buildUser(t);
    await insertImportJob(
      db,
      {
        id,
        userId: user.userId,
        database: 'shop',
        schema,
        table: 'song',
        fileName: 'k.csv',
        fileSize: 1,
        options: '{}',
      },
      at,
    );
    await queueImportRun(db, id, { request: '{}', dryRun: false }, at);
    await markImportRunning(db, id, at);
    const auditId = await writeAudit(db, {
      userId: user.userId,
      action: 'data.bulk',
      target: tablePath('shop', schema, 'song'),
      detail: { change: 'import', status: 'running', rows: 0 },
      address: null,
    });
    await setImportAudit(db, id, auditId);
    const row = (songId: number) => ({ id: songId, name: `S${songId}`, artist_id: 1, qty: 1 });
    const batch = (ids: number[]) =>
      JSON.stringify(ids.map((songId) => ({ key: { id: songId }, before: null, after: row(songId) })));
    // Batch 0 committed before the kill, batch 1 did not.
    await sql.raw("insert into song (id, name, artist_id, qty) values (60, 'S60', 1, 1)").execute(engine.db);
    await writeBulkBatch(db, { auditId, batch: 0, rowCount: 1, rows: batch([60]) });
    await writeBulkBatch(db, { auditId, batch: 1, rowCount: 1, rows: batch([61]) });
    await recoverImportAudits(t.store, new DatabaseRegistry([engine]));
    expect((await bulkBatchesOf(db, auditId, -1)).map((b) => [b.batch, b.state])).toEqual([[0, 'done']]);
    const entry = await findAudit(db, auditId);
    expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({
      rows: 1,
      status: 'failed',
      error: im.restarted,
    });
  });

  /** Holds the next run before `batch`; answers when it got there and how to let it go. */
  function holdAt(batch: number) {
    let reached!: () => void;
    let release!: () => void;
    const there = new Promise<void>((resolve) => (reached = resolve));
    hold = { batch, reached, release: new Promise<void>((resolve) => (release = resolve)) };
    return {
      there,
      release: () => {
        hold = null;
        release();
      },
    };
  }
  const thousand = csv(Array.from({ length: 1000 }, (_, i) => `${100 + i},Song ${i},1,1`));

  it('cancelled between batches, an all-or-nothing run writes nothing', async () => {
    const held = holdAt(3);
    const id = await start(thousand, editor);
    await held.there;
    const cancel = await post(editor, `/${id}/cancel`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    held.release();
    const status = await ended(editor, id);
    expect(status).toMatchObject({ state: 'cancelled', error: im.cancelledNothingWritten });
    // The run ends its transaction once released: the table is as it was.
    await vi.waitFor(async () => expect(await songs()).toHaveLength(2), { timeout: 10_000 });
    const entry = await findAudit(t.store.db, status.auditId ?? 0);
    await vi.waitFor(async () =>
      expect(JSON.parse((await findAudit(t.store.db, status.auditId ?? 0))?.detail ?? '{}')).toMatchObject({
        rows: 0,
        status: 'cancelled',
      }),
    );
    expect(entry?.action).toBe('data.bulk');
  });

  it('stops when the account is locked mid-run: skip mode keeps the batches before, rollback writes nothing', async () => {
    for (const onError of ['skip', 'rollback']) {
      await sql.raw('delete from song where id >= 100').execute(engine.db);
      const locked = await buildUser(t, {
        links: [tablePath('shop', schema, 'song')],
        permissions: [{ table: `shop/${schema}/song`, canInsert: true }],
      });
      const held = holdAt(2);
      const id = await start(thousand, locked, onError);
      await held.there;
      await t.store.db
        .updateTable('users')
        .set({ locked_until: new Date(Date.now() + 3_600_000).toISOString() })
        .where('id', '=', locked.userId)
        .execute();
      held.release();
      const status = await vi.waitFor(
        async () => {
          const row = await t.store.db
            .selectFrom('import_jobs')
            .selectAll()
            .where('id', '=', id)
            .executeTakeFirst();
          expect(row?.status).toBe('failed');
          return row;
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(status?.error).toBe(bulkMessages.accountLost);
      expect(await songs()).toHaveLength(onError === 'skip' ? 2 + 400 : 2);
    }
  });

  it('keeps the file’s identity values when asked, and the database numbers the next row past them', async () => {
    const ddl = {
      sqlite: 'create table counter (id integer primary key, name varchar(20) not null)',
      postgres:
        'create table counter (id integer generated always as identity primary key, name varchar(20) not null)',
      mysql: 'create table counter (id integer auto_increment primary key, name varchar(20) not null)',
    }[kind];
    await sql.raw(ddl).execute(engine.db);
    await engine.catalog({ refresh: true });
    const user = await buildUser(t, {
      links: [tablePath('shop', schema, 'counter')],
      permissions: [{ table: `shop/${schema}/counter`, canInsert: true }],
    });
    const base = `/api/sql/shop/${encodeURIComponent(schema)}/counter/import`;
    const body = multipart('id,name\n1,one\n2,two\n5,five\n', 'counter.csv');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { ...user.headers, 'content-type': body.type },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { id } = uploaded.json<Envelope<{ id: string }>>().data;
    const started = await t.app.inject({
      method: 'POST',
      url: `${base}/${id}/run`,
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        mapping: { id: 'id', name: 'name' },
        mode: 'insert',
        dryRun: false,
        keepIdentity: true,
      }),
    });
    expect(started.statusCode, started.body).toBe(202);
    await vi.waitFor(
      async () => {
        const answer = await t.app.inject({ method: 'GET', url: `${base}/${id}`, headers: user.headers });
        expect(answer.json<Envelope<ImportStatus>>().data).toMatchObject({ state: 'done', inserted: 3 });
      },
      { timeout: 20_000, interval: 50 },
    );
    await sql.raw("insert into counter (name) values ('next')").execute(engine.db);
    const rows = await sql
      .raw<{ id: unknown; name: string }>('select id, name from counter order by id')
      .execute(engine.db);
    expect(rows.rows.map((row) => Number(row.id))).toEqual([1, 2, 5, 6]);
  });
});
