import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForeignKeyLabels } from '#common/contract/labels.ts';
import type { Reference } from '#common/contract/relations.ts';
import type { PageResult, Row } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { labelSources } from '#server/engines/foreign-key-labels.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { chosen, type SuiteEngine } from '#server/test/engine-suite.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * Foreign-key labels with the page answers (issue 37, decision 0067) over HTTP on Chinook, on SQLite, PostgreSQL and
 * MariaDB (ENGINES=… to choose): Album → Artist's Name, InvoiceLine → Track's Name and Invoice's key, Employee's
 * ReportsTo (a self-reference, null for the boss), a composite key made here, a user limited to some tables, a key
 * across schemas (PostgreSQL, with its Referenced-by count), and the answer without `labels` as it was.
 */

const names: Record<SuiteEngine, (pascal: string) => string> = {
  sqlite: (n) => n,
  postgres: (n) => n.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(),
  mysql: (n) => n,
};

describe.each(chosen)('foreign-key labels on %s', (kind) => {
  const n = names[kind];
  let database: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  let lineOnly: TestUser;
  let lineAndTrack: TestUser;

  const at = (table: string, rest: string) =>
    `/api/sql/chinook/${encodeURIComponent(schema)}/${n(table)}${rest}`;
  const get = (user: TestUser, url: string): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'GET', url, headers: user.headers });
  async function page(
    user: TestUser,
    table: string,
    query = 'labels=1',
    pageNumber = 1,
  ): Promise<PageResult> {
    const response = await get(user, at(table, `/page/${pageNumber}?${query}`));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: PageResult }>().data;
  }
  /** The label of each distinct key, as "key → label", sorted. */
  const labelsOf = (entry: ForeignKeyLabels | undefined) =>
    (entry?.values ?? []).map((v) => `${v.key.join('+')} → ${v.label}`).sort();
  const entryOf = (answer: PageResult, table: string) => answer.labels?.find((l) => l.table === n(table));

  beforeAll(async () => {
    database = await loadChinook(kind);
    engine = await connectDatabase('chinook', kind, database.url);
    schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : database.name;
    for (const statement of [
      'create table pair (a integer not null, b integer not null, title varchar(40), primary key (a, b))',
      'create table pair_use (id integer primary key, pa integer, pb integer, ' +
        'constraint fk_pair_use foreign key (pa, pb) references pair (a, b))',
      "insert into pair (a, b, title) values (1, 1, 'One one'), (1, 2, 'One two'), (2, 1, null)",
      'insert into pair_use (id, pa, pb) values (1, 1, 2), (2, 1, 2), (3, 1, 1), (4, null, 1), (5, 2, 1)',
    ])
      await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
    lineOnly = await buildUser(t, { links: [tablePath('chinook', schema, n('InvoiceLine'))] });
    lineAndTrack = await buildUser(t, {
      links: [tablePath('chinook', schema, n('InvoiceLine')), tablePath('chinook', schema, n('Track'))],
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await engine?.close();
    await database?.drop();
  });

  it('labels an album’s artist by its name, and each key once', async () => {
    const answer = await page(admin, 'Album');
    expect(answer.labels).toHaveLength(1);
    const artist = entryOf(answer, 'Artist');
    expect(artist).toMatchObject({
      columns: [n('ArtistId')],
      schema,
      table: n('Artist'),
      key: [n('ArtistId')],
    });
    // Albums 1–20: AC/DC (1, 4), Accept (2), Aerosmith (3), Alanis Morissette (4), …
    expect(artist?.values).toContainEqual({ key: [1], label: 'AC/DC' });
    expect(artist?.values).toContainEqual({ key: [2], label: 'Accept' });
    const keys = new Set(answer.results.map((row) => row[n('ArtistId')]));
    expect(artist?.values).toHaveLength(keys.size);
  });

  it('labels an invoice line’s track by name and its invoice by its key', async () => {
    const answer = await page(admin, 'InvoiceLine', 'labels=1&pageSize=40');
    const track = entryOf(answer, 'Track');
    const invoice = entryOf(answer, 'Invoice');
    expect(track?.columns).toEqual([n('TrackId')]);
    // InvoiceLine 1 is track 2, "Balls to the Wall", of invoice 1.
    expect(track?.values).toContainEqual({ key: [2], label: 'Balls to the Wall' });
    // Invoice has no text column of its own but BillingAddress…: its label is its first text column.
    expect(invoice?.values.find((v) => v.key[0] === 1)?.label).toBe('Theodor-Heuss-Straße 34');
    const tracks = new Set(answer.results.map((row) => row[n('TrackId')]));
    expect(track?.values).toHaveLength(tracks.size);
  });

  it('labels a self-reference, and leaves an empty key out', async () => {
    const answer = await page(admin, 'Employee');
    const boss = entryOf(answer, 'Employee');
    expect(boss?.columns).toEqual([n('ReportsTo')]);
    // Employee's label: its first text column, LastName (Adams is 1, the general manager).
    expect(boss?.values).toContainEqual({ key: [1], label: 'Adams' });
    expect(boss?.values.some((v) => v.key.some((k) => k === null))).toBe(false);
    const heads = new Set(answer.results.map((row) => row[n('ReportsTo')]).filter((v) => v !== null));
    expect(boss?.values).toHaveLength(heads.size);
  });

  it('labels a composite key by every column, and by the key when the label is empty', async () => {
    const response = await get(
      admin,
      `/api/sql/chinook/${encodeURIComponent(schema)}/pair_use/page/1?labels=1`,
    );
    const answer = response.json<{ data: PageResult }>().data;
    const pair = answer.labels?.find((l) => l.table === 'pair');
    expect(pair).toMatchObject({ columns: ['pa', 'pb'], key: ['a', 'b'] });
    expect(labelsOf(pair)).toEqual(['1+1 → One one', '1+2 → One two', '2+1 → 2, 1']);
  });

  it('reads one statement a foreign key for the whole page', async () => {
    const table = await engine.table(schema, n('InvoiceLine'));
    const rows = (await engine.page(table, { filter: {}, page: 1, pageSize: 100 })).results;
    const sources = labelSources(table, await engine.catalog(), rows);
    expect(sources.map((s) => s.referenced.name).sort()).toEqual([n('Invoice'), n('Track')].sort());
    const tracks = new Set(rows.map((row: Row) => row[n('TrackId')]));
    expect(sources.find((s) => s.referenced.name === n('Track'))?.tuples).toHaveLength(tracks.size);
  });

  it('never names or reads a table the caller may not read', async () => {
    const limited = await page(lineOnly, 'InvoiceLine');
    expect(limited.labels).toEqual([]);
    const some = await page(lineAndTrack, 'InvoiceLine');
    expect(some.labels?.map((l) => l.table)).toEqual([n('Track')]);
    // The rows are the admin's rows: only the labels differ.
    expect(some.results).toEqual((await page(admin, 'InvoiceLine')).results);
  });

  // SQLite alone takes a foreign key into a table that does not exist: the answer is the same as into one that does
  // but the caller may not read.
  it.runIf(kind === 'sqlite')('answers alike for an unreadable table and a missing one', async () => {
    for (const statement of [
      'create table ghost_use (id integer primary key, ghost_id integer references ghost (id))',
      'create table kept_use (id integer primary key, pair_a integer, pair_b integer, ' +
        'foreign key (pair_a, pair_b) references pair (a, b))',
      'pragma foreign_keys = off',
      'insert into ghost_use (id, ghost_id) values (1, 1)',
      'pragma foreign_keys = on',
      'insert into kept_use (id, pair_a, pair_b) values (1, 1, 1)',
    ])
      await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    const user = await buildUser(t, {
      links: [tablePath('chinook', schema, 'ghost_use'), tablePath('chinook', schema, 'kept_use')],
    });
    const answer = async (table: string) => {
      const response = await get(user, `/api/sql/chinook/${schema}/${table}/page/1?labels=1`);
      expect(response.statusCode, response.body).toBe(200);
      const { results: _, cursor: __, ...rest } = response.json<{ data: PageResult }>().data;
      return rest;
    };
    expect(await answer('ghost_use')).toEqual({ count: 1, countIsExact: true, labels: [] });
    expect(await answer('kept_use')).toEqual(await answer('ghost_use'));
  });

  it('answers as before without labels, on the page search and the filter call too', async () => {
    const plain = await page(admin, 'Album', 'pageSize=20');
    expect(plain).not.toHaveProperty('labels');
    expect(Object.keys(plain).sort()).toEqual(['count', 'countIsExact', 'cursor', 'results']);
    const search = await t.app.inject({
      method: 'POST',
      url: at('Album', '/page/1/search?labels=1'),
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ [n('ArtistId')]: 1 }),
    });
    expect(search.statusCode, search.body).toBe(200);
    const found = search.json<{ data: PageResult }>().data;
    expect(found.results.length).toBe(2);
    expect(labelsOf(entryOf(found, 'Artist'))).toEqual(['1 → AC/DC']);
    const query = await t.app.inject({
      method: 'POST',
      url: at('Album', '/query?labels=1'),
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ where: { and: [{ column: n('AlbumId'), op: 'eq', value: 1 }] } }),
    });
    expect(query.statusCode, query.body).toBe(200);
    expect(labelsOf(entryOf(query.json<{ data: PageResult }>().data, 'Artist'))).toEqual(['1 → AC/DC']);
    const wrong = await get(admin, at('Album', '/page/1?labels=maybe'));
    expect(wrong.statusCode).toBe(400);
  });

  it.runIf(kind === 'postgres')('labels and counts keys across schemas', async () => {
    for (const statement of [
      'create schema ledger',
      'create table ledger.note (note_id integer primary key, ' +
        'album_id integer references public.album (album_id), body varchar(40))',
      'create index note_album on ledger.note (album_id)',
      "insert into ledger.note values (1, 1, 'first'), (2, 1, 'second'), (3, 2, null)",
    ])
      await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    const response = await get(admin, '/api/sql/chinook/ledger/note/page/1?labels=1');
    expect(response.statusCode, response.body).toBe(200);
    const album = response.json<{ data: PageResult }>().data.labels?.find((l) => l.table === 'album');
    expect(album).toMatchObject({ schema: 'public', columns: ['album_id'] });
    expect(labelsOf(album)).toEqual(['1 → For Those About To Rock We Salute You', '2 → Balls to the Wall']);
    const references = await t.app.inject({
      method: 'POST',
      url: at('Album', '/references'),
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ album_id: 1 }),
    });
    expect(references.statusCode, references.body).toBe(200);
    expect(references.json<{ data: Reference[] }>().data).toContainEqual(
      expect.objectContaining({
        schema: 'ledger',
        table: 'note',
        columns: ['album_id'],
        count: 2,
        capped: false,
      }),
    );
  });

  it('is described in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: unknown }>>;
    }>();
    for (const [path, method] of [
      ['/api/sql/{db}/{schema}/{table}/page/{page}', 'get'],
      ['/api/sql/{db}/{schema}/{table}/page/{page}/search', 'post'],
      ['/api/sql/{db}/{schema}/{table}/query', 'post'],
    ] as const) {
      const call = doc.paths[path]?.[method];
      expect(call?.parameters?.map((p) => p.name)).toContain('labels');
      expect(JSON.stringify(call?.responses)).toContain('constraint');
    }
  });
});
