import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { encodeBody, type Row, type RowHistoryEntry, type UndoResult } from '#common/contract/sql.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { EngineKind } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * A row's history and its undo through the data API, for people who are not administrators, against real Chinook
 * databases on SQLite and PostgreSQL (ENGINES=… to choose; PostgreSQL names are snake_case).
 */

type Kind = 'sqlite' | 'postgres' | 'mysql';
const chosen = (process.env.ENGINES ?? 'sqlite,postgres')
  .split(',')
  .map((e) => e.trim())
  .filter((e): e is Kind => e === 'sqlite' || e === 'postgres' || e === 'mysql');

const names: Record<Kind, { schema: (db: TestDatabase) => string; name: (pascal: string) => string }> = {
  sqlite: { schema: () => 'main', name: (n) => n },
  postgres: {
    schema: () => 'public',
    name: (n) => n.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(),
  },
  mysql: { schema: (db) => db.name, name: (n) => n },
};

interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

describe.each(chosen satisfies EngineKind[])('a row’s history on %s', (kind) => {
  const n = names[kind].name;
  let database: TestDatabase;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let deleter: TestUser;
  let restorer: TestUser;
  let genreOnly: TestUser;

  const at = (pascal: string, rest = '') => `/api/sql/chinook/${schema}/${n(pascal)}${rest}`;
  const tableId = (pascal: string) => `chinook/${schema}/${n(pascal)}`;
  const genre = (id: number | string, name: string): Row => ({ [n('GenreId')]: id, [n('Name')]: name });

  function call(method: 'GET' | 'POST', url: string, user: TestUser, body?: Row) {
    const options: InjectOptions = { method, url, headers: { ...user.headers } };
    if (body) {
      options.headers = { ...options.headers, 'content-type': 'text/plain' };
      options.payload = encodeBody(body);
    }
    return t.app.inject(options);
  }
  function ok<T>(response: LightMyRequestResponse): Envelope<T> {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Envelope<T>>();
  }
  function refused(response: LightMyRequestResponse, status: number, message: string) {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json<Envelope<null>>()).toMatchObject({ isSuccess: false, message });
  }
  const history = async (user: TestUser, row: Row, table = 'Genre') =>
    ok<RowHistoryEntry[]>(await call('POST', at(table, '/history'), user, row)).data;
  const undo = (user: TestUser, id: number, table = 'Genre') =>
    call('POST', at(table, `/history/${id}/undo`), user);
  const save = async (user: TestUser, row: Row, table = 'Genre') =>
    ok<Row>(await call('POST', at(table), user, row)).data;

  beforeAll(async () => {
    database = await loadChinook(kind);
    schema = names[kind].schema(database);
    const chinook = await connectDatabase('chinook', kind, database.url);
    t = await buildTestApp({ databases: [chinook] });
    admin = await buildAdmin(t);
    const links = ['/db/chinook/*'];
    editor = await buildUser(t, {
      username: 'editor',
      links,
      permissions: [{ table: tableId('Genre'), canUpdate: true }],
    });
    reader = await buildUser(t, { username: 'reader', links });
    deleter = await buildUser(t, {
      username: 'deleter',
      links,
      permissions: [{ table: tableId('Genre'), canDelete: true }],
    });
    restorer = await buildUser(t, {
      username: 'restorer',
      links,
      permissions: [{ table: tableId('Genre'), canInsert: true }],
    });
    genreOnly = await buildUser(t, {
      username: 'genreonly',
      links: [`/db/chinook/${schema}/${n('Genre')}`],
      permissions: [{ table: tableId('Genre'), canUpdate: true }],
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('shows someone with CanUpdate the history of a row they edited, and undoes their change', async () => {
    await save(editor, genre(1, 'Rock & Roll'));
    const [entry, ...older] = await history(editor, genre(1, 'Rock & Roll'));
    expect(older).toEqual([]);
    expect(entry).toMatchObject({
      username: 'editor',
      action: 'data.update',
      change: 'update',
      before: genre(1, 'Rock'),
      after: genre(1, 'Rock & Roll'),
      changedColumns: [n('Name')],
      undoneBy: null,
      state: 'done',
      canUndo: true,
    });
    expect(Date.parse(entry?.at ?? '')).not.toBeNaN();

    const answer = ok<UndoResult>(await undo(editor, entry?.id ?? 0));
    expect(answer.message).toBe('Undone: Name has its earlier value again.'.replace('Name', n('Name')));
    expect(answer.data).toMatchObject({ change: 'update', row: genre(1, 'Rock'), keptKey: true });

    // The undo is audited and heads the row's history; the change shows who undid it and cannot be undone again.
    const after = await history(editor, genre(1, 'Rock'));
    expect(after.map((e) => [e.action, e.change, e.canUndo])).toEqual([
      ['data.undo', 'update', false],
      ['data.update', 'update', false],
    ]);
    expect(after[0]?.id).toBe(answer.data.undoEntryId);
    expect(after[1]?.undoneBy).toBe(answer.data.undoEntryId);
    refused(
      await undo(editor, entry?.id ?? 0),
      409,
      `This change was undone already (audit entry ${answer.data.undoEntryId}).`,
    );
  });

  it('lists only that row’s entries, and accepts the whole row as the key', async () => {
    await save(admin, genre(2, 'Jazz!'));
    await save(admin, genre(3, 'Metal!'));
    const entries = await history(reader, genre(2, 'whatever the name'));
    expect(entries.map((e) => e.after?.[n('GenreId')])).toEqual([2]);
    // A key of a row that never changed has no history.
    expect(await history(reader, genre(4, 'Alternative & Punk'))).toEqual([]);
  });

  it('tells someone without the right canUndo false and refuses their undo with 403', async () => {
    await save(admin, genre(5, 'Rock And Roll!'));
    const [entry] = await history(reader, genre(5, 'Rock And Roll!'));
    expect(entry).toMatchObject({ change: 'update', username: expect.any(String), canUndo: false });
    refused(
      await undo(reader, entry?.id ?? 0),
      403,
      'You do not have permission to change rows of that table.',
    );
    // The deleter may delete rows, not update them: the undo of an update is not theirs either.
    expect((await history(deleter, genre(5, 'x')))[0]?.canUndo).toBe(false);
    // The editor may: anyone holding the right undoes a change of the table, not only its author.
    expect((await history(editor, genre(5, 'x')))[0]?.canUndo).toBe(true);
    // A newer change since: the older one would overwrite it, so it cannot be undone (and says why).
    await save(admin, genre(5, 'Rock and Roll'));
    const [newest, older] = await history(editor, genre(5, 'x'));
    expect([newest?.canUndo, older?.canUndo]).toEqual([true, false]);
    refused(
      await undo(editor, older?.id ?? 0),
      409,
      `The row has changed since (${n('Name')}), so undoing would overwrite newer values. Change it in the table instead.`,
    );
  });

  it('undoes an insert with CanDelete and restores a delete with CanInsert', async () => {
    const added = await save(admin, { [n('Name')]: 'Polka' });
    const id = Number(added[n('GenreId')]);
    const [inserted] = await history(deleter, added);
    expect(inserted).toMatchObject({ action: 'data.insert', change: 'insert', before: null, canUndo: true });
    expect(inserted?.changedColumns.sort()).toEqual([n('GenreId'), n('Name')].sort());
    expect((await history(restorer, added))[0]?.canUndo).toBe(false);
    refused(
      await undo(restorer, inserted?.id ?? 0),
      403,
      'You do not have permission to delete rows of that table.',
    );
    const gone = ok<UndoResult>(await undo(deleter, inserted?.id ?? 0));
    expect(gone.message).toBe('Undone: the added row is deleted again.');
    expect(gone.data.row).toBeNull();

    // The row is gone: its history still answers by the key given.
    const deleted = await history(restorer, genre(id, 'Polka'));
    expect(deleted.map((e) => [e.action, e.change, e.canUndo])).toEqual([
      ['data.undo', 'delete', false],
      ['data.insert', 'insert', false],
    ]);

    const second = await save(admin, { [n('Name')]: 'Schlager' });
    ok(await call('POST', at('Genre', '/delete'), admin, second));
    const [removed] = await history(restorer, second);
    expect(removed).toMatchObject({ action: 'data.delete', change: 'delete', after: null, canUndo: true });
    expect((await history(deleter, second))[0]?.canUndo).toBe(false);
    const back = ok<UndoResult>(await undo(restorer, removed?.id ?? 0));
    expect(back.message).toMatch(/^Restored/);
    expect(back.data.row?.[n('Name')]).toBe('Schlager');
  });

  it('refuses an entry of another table', async () => {
    await save(admin, { [n('ArtistId')]: 1, [n('Name')]: 'AC/DC!' }, 'Artist');
    const [artistEntry] = await history(admin, { [n('ArtistId')]: 1 }, 'Artist');
    expect(artistEntry?.change).toBe('update');
    refused(await undo(editor, artistEntry?.id ?? 0), 404, 'That audit entry was not found.');
    refused(await undo(admin, artistEntry?.id ?? 0), 404, 'That audit entry was not found.');
    refused(await undo(editor, 999_999), 404, 'That audit entry was not found.');
    const [still] = await history(admin, { [n('ArtistId')]: 1 }, 'Artist');
    expect(still).toMatchObject({ id: artistEntry?.id, undoneBy: null });
  });

  it('answers 403 when the links do not allow the table, and 404 for a table that does not exist', async () => {
    const denied = 'You do not have access to that table.';
    refused(await call('POST', at('Artist', '/history'), genreOnly, { [n('ArtistId')]: 1 }), 403, denied);
    refused(await call('POST', at('NoSuchTable', '/history'), genreOnly, { id: 1 }), 403, denied);
    refused(await undo(genreOnly, 1, 'Artist'), 403, denied);
    refused(await undo(genreOnly, 1, 'NoSuchTable'), 403, denied);
    const missing = `The table ${schema}.${n('NoSuchTable')} was not found.`;
    refused(await call('POST', at('NoSuchTable', '/history'), admin, { id: 1 }), 404, missing);
    refused(await undo(admin, 1, 'NoSuchTable'), 404, missing);
    // Their own table answers.
    expect(Array.isArray(await history(genreOnly, genre(1, 'Rock')))).toBe(true);
  });
});
