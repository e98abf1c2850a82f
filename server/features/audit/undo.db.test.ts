import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '#common/contract/sql.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { markAccessChanged } from '#server/store/roles.ts';
import { answered } from '#server/test/row-versions.ts';

/*
 * Undo and restore from the audit trail over HTTP, against real Chinook databases: every kind of change on SQLite
 * (which takes identity values back), and the restore of a row whose identity PostgreSQL numbers itself
 * (GENERATED ALWAYS: the row comes back with a new key).
 */

interface Envelope<T = unknown> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

interface UndoData {
  undoEntryId: number;
  change: 'insert' | 'update' | 'delete';
  key: Row;
  row: Row | null;
  keptKey: boolean;
}

/** Calls and helpers shared by both engines' suites. */
function harness(get: () => { t: TestApp; schema: string; admin: TestUser }) {
  const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, json?: unknown) =>
    get().t.app.inject({
      method,
      url,
      headers: {
        ...user?.headers,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(json === undefined ? {} : { payload: JSON.stringify(json) }),
    });
  const table = (name: string) => `/api/sql/chinook/${get().schema}/${name}`;
  const ok = <T>(response: LightMyRequestResponse): Envelope<T> => {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Envelope<T>>();
  };
  const refused = (response: LightMyRequestResponse, status: number, message: string | RegExp) => {
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json<Envelope>();
    expect(body.isSuccess).toBe(false);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };
  /** The newest audit entry of an action on a table, read through the audit API. */
  const lastEntry = async (action: string, name: string): Promise<number> => {
    const { admin, schema } = get();
    const answer = ok<{ results: { id: number }[] }>(
      await call(
        'GET',
        `/api/admin/audit?action=${action}&table=chinook/${schema}/${name}&pageSize=1`,
        admin,
      ),
    );
    const id = answer.data.results[0]?.id;
    if (id === undefined) throw new Error(`no ${action} entry for ${name}`);
    return id;
  };
  const undo = (id: number, user: TestUser | null) => call('POST', `/api/admin/audit/${id}/undo`, user);
  return { call, table, ok, refused, lastEntry, undo };
}

describe('undo and restore on SQLite (Chinook)', () => {
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let t: TestApp;
  let admin: TestUser;
  let editor: TestUser;
  let colleague: TestUser;
  let fickle: TestUser;
  const h = harness(() => ({ t, schema: 'main', admin }));
  const { call, table, ok, refused, lastEntry, undo } = h;

  const page = async (name: string, user: TestUser) =>
    ok<{ results: Row[]; count: number }>(await call('GET', `${table(name)}/page/1?pageSize=100`, user)).data;

  beforeAll(async () => {
    database = await loadChinook('sqlite');
    engine = await connectDatabase('chinook', 'sqlite', database.url);
    // A table with an image column: its bytes are kept in the audit only as length and SHA-256.
    await sql`create table Photo (PhotoId integer primary key autoincrement, Name text not null, Image blob)`.execute(
      engine.db,
    );
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
    const everything = (name: string) => ({
      table: `chinook/main/${name}`,
      canInsert: true,
      canUpdate: true,
      canDelete: true,
    });
    const rights = {
      links: ['/db/chinook/*'],
      permissions: ['Genre', 'InvoiceLine', 'Photo'].map(everything),
    };
    editor = await buildUser(t, { username: 'editor', ...rights });
    colleague = await buildUser(t, { username: 'colleague', ...rights });
    fickle = await buildUser(t, {
      username: 'fickle',
      links: ['/db/chinook/*'],
      permissions: [everything('Artist')],
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('undoes an update: the changed columns get their earlier values, once', async () => {
    ok(await call('POST', table('Genre'), editor, { GenreId: 1, Name: 'Rock & Roll' }));
    const id = await lastEntry('data.update', 'Genre');
    const answer = ok<UndoData>(await undo(id, editor));
    expect(answer.message).toBe('Undone: Name has its earlier value again.');
    expect(answer.data).toMatchObject({
      change: 'update',
      key: { GenreId: 1 },
      row: { GenreId: 1, Name: 'Rock' },
      keptKey: true,
    });
    expect((await page('Genre', editor)).results[0]).toEqual(answered({ GenreId: 1, Name: 'Rock' }));

    // The undo is an audited data change of its own, and the entry shows it was undone.
    const entries = ok<{
      results: { id: number; action: string; detail: unknown; undoneBy: number | null }[];
    }>(await call('GET', '/api/admin/audit?table=chinook/main/Genre&pageSize=2', admin)).data.results;
    expect(entries[0]).toMatchObject({
      id: answer.data.undoEntryId,
      action: 'data.undo',
      detail: {
        of: id,
        change: 'update',
        key: { GenreId: 1 },
        before: { GenreId: 1, Name: 'Rock & Roll' },
        after: { GenreId: 1, Name: 'Rock' },
      },
    });
    expect(entries[1]).toMatchObject({ id, action: 'data.update', undoneBy: answer.data.undoEntryId });

    refused(
      await undo(id, editor),
      409,
      `This change was undone already (audit entry ${answer.data.undoEntryId}).`,
    );
  });

  it('refuses to undo an update when the row has changed since', async () => {
    ok(await call('POST', table('Genre'), editor, { GenreId: 2, Name: 'Jazz 1' }));
    const first = await lastEntry('data.update', 'Genre');
    ok(await call('POST', table('Genre'), colleague, { GenreId: 2, Name: 'Jazz 2' }));
    const second = await lastEntry('data.update', 'Genre');
    refused(
      await undo(first, editor),
      409,
      'The row has changed since (Name), so undoing would overwrite newer values. Change it in the table instead.',
    );
    // Refused undos leave nothing behind: the first can be undone once the row is back as it left it.
    expect(ok<UndoData>(await undo(second, colleague)).data.row).toEqual(
      answered({ GenreId: 2, Name: 'Jazz 1' }),
    );
    expect(ok<UndoData>(await undo(first, editor)).data.row).toEqual(answered({ GenreId: 2, Name: 'Jazz' }));
  });

  it('undoes an insert by deleting the row, unless it changed since', async () => {
    const added = ok<Row>(await call('POST', table('Genre'), editor, { Name: 'Polka' })).data;
    const id = await lastEntry('data.insert', 'Genre');
    const answer = ok<UndoData>(await undo(id, editor));
    expect(answer.message).toBe('Undone: the added row is deleted again.');
    expect(answer.data).toMatchObject({ change: 'delete', key: { GenreId: added.GenreId }, row: null });
    expect((await page('Genre', editor)).results.map((g) => g.Name)).not.toContain('Polka');

    const ska = ok<Row>(await call('POST', table('Genre'), editor, { Name: 'Ska' })).data;
    const inserted = await lastEntry('data.insert', 'Genre');
    ok(await call('POST', table('Genre'), editor, { GenreId: ska.GenreId ?? null, Name: 'Ska!' }));
    refused(await undo(inserted, editor), 409, /^The row has changed since \(Name\)/);
  });

  it('refuses to undo changes of a row deleted since, and restores it', async () => {
    const temp = ok<Row>(await call('POST', table('Genre'), editor, { Name: 'Temp' })).data;
    const inserted = await lastEntry('data.insert', 'Genre');
    ok(await call('POST', table('Genre'), editor, { GenreId: temp.GenreId ?? null, Name: 'Temp 2' }));
    const updated = await lastEntry('data.update', 'Genre');
    ok(await call('POST', `${table('Genre')}/delete`, editor, { GenreId: temp.GenreId ?? null }));
    const deleted = await lastEntry('data.delete', 'Genre');
    const gone = 'The row was deleted since, so its change cannot be undone.';
    refused(await undo(updated, editor), 409, gone);
    refused(await undo(inserted, editor), 409, gone);
    expect(ok<UndoData>(await undo(deleted, editor)).data.row).toEqual(
      answered({ GenreId: temp.GenreId ?? null, Name: 'Temp 2' }),
    );
  });

  it('restores a deleted row under its old key (SQLite takes it back), once', async () => {
    const deleted = ok<Row>(
      await call('POST', `${table('InvoiceLine')}/delete`, editor, { InvoiceLineId: 1 }),
    ).data;
    expect(deleted).toEqual({ InvoiceLineId: 1, InvoiceId: 1, TrackId: 2, UnitPrice: '0.99', Quantity: 1 });
    const id = await lastEntry('data.delete', 'InvoiceLine');
    const answer = ok<UndoData>(await undo(id, editor));
    expect(answer.message).toBe('Restored: the deleted row is back.');
    expect(answer.data).toEqual({
      undoEntryId: expect.any(Number),
      change: 'insert',
      key: { InvoiceLineId: 1 },
      row: answered(deleted),
      keptKey: true,
    });
    const again = await engine.page(await engine.table('main', 'InvoiceLine'), {
      filter: { InvoiceLineId: 1 },
      page: 1,
      pageSize: 20,
    });
    expect(again.results).toEqual([deleted]);
    refused(await undo(id, editor), 409, /^This change was undone already/);
  });

  it('refuses a restore when a row with that key exists again', async () => {
    const deleted = ok<Row>(
      await call('POST', `${table('InvoiceLine')}/delete`, editor, { InvoiceLineId: 2 }),
    ).data;
    const id = await lastEntry('data.delete', 'InvoiceLine');
    await sql`insert into InvoiceLine (InvoiceLineId, InvoiceId, TrackId, UnitPrice, Quantity) values (2, 1, 4, 0.99, 3)`.execute(
      engine.db,
    );
    refused(
      await undo(id, editor),
      409,
      'A row with the same key exists again, so the deleted row cannot be put back.',
    );
    expect(deleted.Quantity).toBe(1);
  });

  it('refuses to put back binary values the audit kept only as a hash', async () => {
    const image = Buffer.from('not really a png').toString('base64');
    const photo = ok<Row>(await call('POST', table('Photo'), editor, { Name: 'Cat', Image: image })).data;
    // A change of another column undoes fine: the image is not written back.
    ok(await call('POST', table('Photo'), editor, { PhotoId: photo.PhotoId ?? null, Name: 'Dog' }));
    expect(ok<UndoData>(await undo(await lastEntry('data.update', 'Photo'), editor)).data.row).toMatchObject({
      Name: 'Cat',
      Image: image,
    });
    const binary =
      'Image holds binary data, which the audit keeps only as its length and SHA-256, so it cannot be put back ' +
      'exactly. Change the row in the table instead.';
    const other = Buffer.from('another picture').toString('base64');
    ok(await call('POST', table('Photo'), editor, { PhotoId: photo.PhotoId ?? null, Image: other }));
    refused(await undo(await lastEntry('data.update', 'Photo'), editor), 409, binary);
    ok(await call('POST', `${table('Photo')}/delete`, editor, { PhotoId: photo.PhotoId ?? null }));
    refused(await undo(await lastEntry('data.delete', 'Photo'), editor), 409, binary);
  });

  it('refuses entries that are not data changes', async () => {
    // buildUser saved the editor's own role as the editor: their entry, but not a data change.
    const own = ok<{ results: { id: number; userId: number }[] }>(
      await call('GET', `/api/admin/audit?action=admin.role.created&userId=${editor.userId}`, admin),
    ).data.results[0];
    expect(own?.userId).toBe(editor.userId);
    refused(
      await undo(own?.id ?? 0, editor),
      409,
      'Only data changes (data.insert, data.update, data.delete) can be undone.',
    );
    const undoEntry = await lastEntry('data.undo', 'Genre');
    refused(
      await undo(undoEntry, admin),
      409,
      'Only data changes (data.insert, data.update, data.delete) can be undone.',
    );
    refused(await undo(999_999, editor), 404, 'That audit entry was not found.');
    const anonymous = await withXsrf(t);
    refused(
      await t.app.inject({ method: 'POST', url: '/api/admin/audit/1/undo', headers: anonymous }),
      401,
      'Sign in to continue.',
    );
  });

  it("lets a user undo only their own changes; administrators may undo anyone's", async () => {
    ok(await call('POST', table('Genre'), editor, { GenreId: 3, Name: 'Metal!' }));
    const id = await lastEntry('data.update', 'Genre');
    refused(await undo(id, colleague), 403, 'You can undo only your own changes.');
    const denied = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('user_id', '=', colleague.userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(denied).toEqual({ action: 'access.denied', target: `audit:${id}` });
    expect(ok<UndoData>(await undo(id, admin)).data.row).toEqual(answered({ GenreId: 3, Name: 'Metal' }));
  });

  it('refuses the author once they no longer hold the right the undo needs', async () => {
    ok(await call('POST', table('Artist'), fickle, { ArtistId: 1, Name: 'AC/DC!' }));
    const id = await lastEntry('data.update', 'Artist');
    await t.store.db
      .updateTable('role_permissions')
      .set({ can_update: 0 })
      .where('table_id', '=', 'chinook/main/Artist')
      .execute();
    // Written straight to the store: say so as every change of rights does (0034), else cached rights stay.
    await markAccessChanged(t.store.db);
    refused(await undo(id, fickle), 403, 'You do not have permission to change rows of that table.');
    expect(ok<UndoData>(await undo(id, admin)).data.row).toEqual(answered({ ArtistId: 1, Name: 'AC/DC' }));
  });
});

describe('restore on PostgreSQL, whose identity columns are GENERATED ALWAYS', () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: TestUser;
  const { call, table, ok, lastEntry, undo } = harness(() => ({ t, schema: 'public', admin }));

  beforeAll(async () => {
    database = await loadChinook('postgres');
    t = await buildTestApp({ databases: [await connectDatabase('chinook', 'postgres', database.url)] });
    admin = await buildAdmin(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('puts a deleted row back with a new identity and says so', async () => {
    const deleted = ok<Row>(
      await call('POST', `${table('invoice_line')}/delete`, admin, { invoice_line_id: 5 }),
    ).data;
    const id = await lastEntry('data.delete', 'invoice_line');
    const answer = ok<UndoData>(await undo(id, admin));
    expect(answer.data.keptKey).toBe(false);
    expect(answer.data.change).toBe('insert');
    const newId = answer.data.key.invoice_line_id;
    expect(newId).toBeGreaterThan(2240);
    expect(answer.message).toBe(
      `Restored with a new key: invoice_line_id ${String(newId)} (it was invoice_line_id 5). The database ` +
        'numbers invoice_line_id itself and would not take the old value back.',
    );
    expect(answer.data.row).toEqual(answered({ ...deleted, invoice_line_id: newId ?? null }));
    const audit = ok<{ results: { detail: Record<string, unknown> }[] }>(
      await call('GET', '/api/admin/audit?action=data.undo&pageSize=1', admin),
    ).data.results[0];
    expect(audit?.detail).toMatchObject({
      of: id,
      change: 'insert',
      key: { invoice_line_id: newId },
      keptKey: false,
      oldKey: { invoice_line_id: 5 },
    });
  });

  it('undoes an update there too', async () => {
    ok(await call('POST', table('genre'), admin, { genre_id: 4, name: 'Alternative & Punk!' }));
    const answer = ok<UndoData>(await undo(await lastEntry('data.update', 'genre'), admin));
    expect(answer.data.row).toEqual(answered({ genre_id: 4, name: 'Alternative & Punk' }));
  });
});
