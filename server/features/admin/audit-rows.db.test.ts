import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditRowsMessages, type AuditRows } from '#common/contract/admin.ts';
import type { BulkStatus } from '#common/contract/bulk.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { undoMessages } from '#server/features/audit/undo-service.ts';
import { findAudit, writeAudit } from '#server/store/audit.ts';
import { settleBulkBatch, writeBulkBatch } from '#server/store/bulk-jobs.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * The row list of a bulk change (GET /api/admin/audit/{id}/rows, issue 38) on a SQLite and a PostgreSQL app store:
 * a real bulk update of 230 rows of a SQLite table in batches of 50, paged across batch boundaries in key order; its
 * undo's rows; an entry written here with a pending batch (left out) and values as the audit stores them (kept as
 * they are); refusals: a single-row entry, an unknown id, a limit too big, a caller who is not an administrator.
 */

const ITEMS = 230;
const BATCH = 50;

interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

describe.each(['sqlite', 'postgres'] as const)('the rows of a bulk entry on a %s app store', (storeKind) => {
  const folder = tempDir();
  let store: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let bulkId = 0;

  const rowsOf = (user: TestUser | null, id: number, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/admin/audit/${id}/rows${query}`, headers: user?.headers ?? {} });
  async function page(id: number, query: string): Promise<AuditRows> {
    const response = await rowsOf(admin, id, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Envelope<AuditRows>>().data;
  }
  const ids = (answer: AuditRows) => answer.rows.map((row) => row.key.id);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  /** The audit entry of a bulk job once the job has ended (its detail's status leaves running/queued). */
  async function ended(jobId: string): Promise<number> {
    return vi.waitFor(
      async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: `/api/sql/shop/main/item/bulk/${jobId}`,
          // The status answers the job's author only.
          headers: editor.headers,
        });
        const status = response.json<Envelope<BulkStatus>>().data;
        expect(status.inProgress).toBe(false);
        expect(status.auditId).not.toBeNull();
        return status.auditId ?? 0;
      },
      { timeout: 30_000, interval: 50 },
    );
  }

  beforeAll(async () => {
    const file = path.join(folder.path, 'shop.db');
    new Database(file).close();
    engine = await connectDatabase('shop', 'sqlite', `sqlite:${file}`);
    await sql
      .raw('create table item (id integer primary key, name varchar(50) not null, note varchar(50))')
      .execute(engine.db);
    const values = range(1, ITEMS).map((id) => `(${id}, 'item ${id}', null)`);
    await sql.raw(`insert into item (id, name, note) values ${values.join(', ')}`).execute(engine.db);
    await engine.catalog({ refresh: true });
    store = storeKind === 'postgres' ? await createPostgresDatabase('dbui_store') : undefined;
    t = await buildTestApp({
      databases: [engine],
      bulk: { batchSize: BATCH },
      ...(store ? { env: { APP_DB_URL: store.url } } : {}),
    });
    admin = await buildAdmin(t);
    editor = await buildUser(t, {
      links: [tablePath('shop', 'main', 'item')],
      permissions: [{ table: 'shop/main/item', canUpdate: true, canDelete: true }],
    });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/sql/shop/main/item/bulk',
      headers: { ...editor.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        action: 'update',
        where: { column: 'id', op: 'ge', value: 1 },
        set: { note: 'checked' },
        expectedCount: ITEMS,
      }),
    });
    expect(started.statusCode, started.body).toBe(202);
    bulkId = await ended(started.json<Envelope<{ id: string }>>().data.id);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await store?.drop();
    folder.remove();
  });

  it('answers the rows a page at a time in key order, across batches, each before and after', async () => {
    const first = await page(bulkId, '?limit=100');
    expect(first.total).toBe(ITEMS);
    expect(ids(first)).toEqual(range(1, 100));
    expect(first.nextOffset).toBe(100);
    expect(first.rows[0]).toEqual({
      key: { id: 1 },
      before: { id: 1, name: 'item 1', note: null },
      after: { id: 1, name: 'item 1', note: 'checked' },
    });
    // Starts inside one batch and ends inside the next.
    const across = await page(bulkId, '?offset=145&limit=10');
    expect(ids(across)).toEqual(range(146, 155));
    expect(across.nextOffset).toBe(155);
    const last = await page(bulkId, '?offset=200&limit=100');
    expect(ids(last)).toEqual(range(201, ITEMS));
    expect(last.nextOffset).toBeNull();
    const past = await page(bulkId, `?offset=${ITEMS + 5}`);
    expect(past).toEqual({ rows: [], total: ITEMS, nextOffset: null });
    // The default page is 100 rows.
    expect((await page(bulkId, '')).rows).toHaveLength(100);
  });

  it('answers the rows of the undo of a bulk change', async () => {
    const undo = await t.app.inject({
      method: 'POST',
      url: `/api/admin/audit/${bulkId}/undo`,
      headers: admin.headers,
    });
    expect(undo.statusCode, undo.body).toBe(200);
    const { undoEntryId } = undo.json<Envelope<{ undoEntryId: number }>>().data;
    await vi.waitFor(
      async () => {
        const entry = await findAudit(t.store.db, undoEntryId);
        expect(JSON.parse(entry?.detail ?? '{}')).toMatchObject({ status: 'done', rows: ITEMS });
      },
      { timeout: 30_000, interval: 50 },
    );
    const answer = await page(undoEntryId, '?offset=49&limit=2');
    expect(answer.total).toBe(ITEMS);
    expect(answer.rows).toEqual([
      {
        key: { id: 50 },
        before: { id: 50, name: 'item 50', note: 'checked' },
        after: { id: 50, name: 'item 50', note: null },
      },
      {
        key: { id: 51 },
        before: { id: 51, name: 'item 51', note: 'checked' },
        after: { id: 51, name: 'item 51', note: null },
      },
    ]);
  });

  it('leaves out a batch still pending and answers values as the audit stored them', async () => {
    const id = await writeAudit(t.store.db, {
      userId: admin.userId,
      action: 'data.bulk',
      target: tablePath('shop', 'main', 'item'),
      detail: {
        change: 'delete',
        where: null,
        keys: null,
        count: 3,
        capped: false,
        rows: 2,
        status: 'failed',
      },
    });
    const binary = `binary, 4 bytes, sha256 ${'a'.repeat(64)}`;
    const batch = (n: number, key: number) => ({
      auditId: id,
      batch: n,
      rowCount: 1,
      rows: JSON.stringify([{ key: { id: key }, before: { id: key, photo: binary }, after: null }]),
    });
    await writeBulkBatch(t.store.db, batch(0, 1));
    await settleBulkBatch(t.store.db, id, 0, true);
    await writeBulkBatch(t.store.db, batch(1, 2));
    await writeBulkBatch(t.store.db, batch(2, 3));
    await settleBulkBatch(t.store.db, id, 2, true);
    const answer = await page(id, '?limit=1');
    expect(answer).toEqual({
      rows: [{ key: { id: 1 }, before: { id: 1, photo: binary }, after: null }],
      total: 2,
      nextOffset: 1,
    });
    expect(ids(await page(id, '?offset=1'))).toEqual([3]);
  });

  it('refuses an entry without a row list, an unknown entry and a page too big', async () => {
    const single = await writeAudit(t.store.db, {
      userId: admin.userId,
      action: 'data.update',
      target: tablePath('shop', 'main', 'item'),
      detail: { key: { id: 1 }, before: { note: null }, after: { note: 'x' } },
    });
    const notBulk = await rowsOf(admin, single);
    expect(notBulk.statusCode).toBe(409);
    expect(notBulk.json<Envelope<null>>().message).toBe(auditRowsMessages.noRowList(single, 'data.update'));
    const unknown = await rowsOf(admin, 999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<Envelope<null>>().message).toBe(undoMessages.notFound);
    const tooBig = await rowsOf(admin, bulkId, '?limit=501');
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json<Envelope<null>>().message).toMatch(/limit can be at most 500/);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, { get?: { parameters: { name: string }[]; responses: Record<string, unknown> } }>;
    }>();
    const call = doc.paths['/api/admin/audit/{id}/rows']?.get;
    expect(call?.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'offset', 'limit']));
    expect(JSON.stringify(call?.responses['200'])).toContain('nextOffset');
  });

  it('is for administrators only, the author of the change included', async () => {
    expect((await rowsOf(null, bulkId)).statusCode).toBe(401);
    const refused = await rowsOf(editor, bulkId);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('item 1');
  });
});
