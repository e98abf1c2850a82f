import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { encodeBody, ROW_VERSION_KEY, type Row } from '#common/contract/sql.ts';
import { rowVersionMessages } from '#common/messages.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { EngineKind } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { answered } from '#server/test/row-versions.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * The data API over HTTP against real Chinook databases on SQLite, PostgreSQL and MariaDB (ENGINES=… to choose),
 * each registered next to a database that is down. Chinook names are PascalCase except on PostgreSQL (snake_case).
 */

type Kind = Exclude<EngineKind, 'mssql'>;
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

const setups: Record<
  Kind,
  { schema: (db: TestDatabase) => string; name: (pascal: string) => string; down: string }
> = {
  sqlite: {
    schema: () => 'main',
    name: (n) => n,
    down: 'postgres://postgres@127.0.0.1:1/nothing',
  },
  postgres: {
    schema: () => 'public',
    name: (n) => n.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase(),
    down: 'postgres://postgres@127.0.0.1:1/nothing',
  },
  mysql: { schema: (db) => db.name, name: (n) => n, down: 'mysql://root@127.0.0.1:1/nothing' },
};

describe.each(chosen)('the data API on %s', (kind) => {
  const setup = setups[kind];
  const n = setup.name;
  let database: TestDatabase;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  let reader: TestUser;
  let inserter: TestUser;
  let genreOnly: TestUser;

  /** /api/sql/chinook/{schema}/{table}{rest} */
  const at = (pascal: string, rest = '') => `/api/sql/chinook/${schema}/${n(pascal)}${rest}`;
  const tableId = (pascal: string) => `chinook/${schema}/${n(pascal)}`;

  function call(
    method: 'GET' | 'POST',
    url: string,
    user: TestUser | null,
    body?: { text: string } | { json: unknown } | { raw: string; type: string },
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...user?.headers };
    const options: InjectOptions = { method, url, headers };
    if (body && 'text' in body) {
      headers['content-type'] = 'text/plain';
      options.payload = body.text;
    } else if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      options.payload = JSON.stringify(body.json);
    } else if (body) {
      headers['content-type'] = body.type;
      options.payload = body.raw;
    }
    return t.app.inject(options);
  }
  /** The spec's encoding: base64(encodeURIComponent(JSON)) as text/plain. */
  const encoded = (value: Record<string, unknown>) => ({ text: encodeBody(value) });

  async function ok(response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ isSuccess: boolean; data: unknown; message: string | null }>();
    expect(body.isSuccess).toBe(true);
    return body;
  }
  function refused(response: LightMyRequestResponse, status: number, message: RegExp | string) {
    expect(response.statusCode, response.body).toBe(status);
    const body = response.json<{ isSuccess: boolean; data: unknown; message: string }>();
    expect(body).toMatchObject({ isSuccess: false, data: null });
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
    expect(body.message).not.toMatch(/select |insert into|update .* set|delete from|\n\s+at /i);
    return body.message;
  }

  async function audits(action: string) {
    const rows = await t.store.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      ...r,
      detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
    }));
  }

  beforeAll(async () => {
    database = await loadChinook(kind);
    schema = setup.schema(database);
    const chinook = await connectDatabase('chinook', kind, database.url);
    for (const statement of [
      `CREATE INDEX ix_artist_name ON ${n('Artist')} (${n('Name')})`,
      `CREATE UNIQUE INDEX ux_genre_name ON ${n('Genre')} (${n('Name')})`,
    ]) {
      await sql.raw(statement).execute(chinook.db);
    }
    const down = await connectDatabase('offline', kind === 'mysql' ? 'mysql' : 'postgres', setup.down);
    t = await buildTestApp({ databases: [chinook, down] });
    admin = await buildAdmin(t);
    reader = await buildUser(t, { links: ['/db/chinook/*'] });
    inserter = await buildUser(t, {
      links: ['/db/chinook/*'],
      permissions: [{ table: tableId('Genre'), canInsert: true }],
    });
    genreOnly = await buildUser(t, {
      links: [`/db/chinook/${schema}/${n('Genre')}`],
      permissions: [{ table: tableId('Genre'), canInsert: true, canUpdate: true, canDelete: true }],
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  describe('reading', () => {
    it('lists the databases the links show, with their engines', async () => {
      expect((await ok(await call('GET', '/api/sql', admin))).data).toEqual([
        { name: 'chinook', engine: kind },
        { name: 'offline', engine: kind === 'mysql' ? 'mysql' : 'postgres' },
      ]);
      expect((await ok(await call('GET', '/api/sql', genreOnly))).data).toEqual([
        { name: 'chinook', engine: kind },
      ]);
    });

    it('lists the tables the links allow, with the caller’s rights on each', async () => {
      const all = (await ok(await call('GET', '/api/sql/chinook', admin))).data as Row[];
      const tables = all.filter((table) => table.schema === schema);
      expect(tables.map((table) => table.name).sort()).toEqual(
        [
          'Album',
          'Artist',
          'Customer',
          'Employee',
          'Genre',
          'Invoice',
          'InvoiceLine',
          'MediaType',
          'Playlist',
          'PlaylistTrack',
          'Track',
        ]
          .map(n)
          .sort(),
      );
      const genre = tables.find((table) => table.name === n('Genre')) as Record<string, unknown>;
      expect(genre).toMatchObject({
        id: tableId('Genre'),
        schema,
        numberOfColumns: 2,
        numberOfRows: 25,
        numberOfRowsIsEstimate: false,
        hasIdentity: true,
        primaryKey: [n('GenreId')],
        rights: { canInsert: true, canUpdate: true, canDelete: true },
      });
      expect((genre.columns as unknown[]).length).toBe(2);
      expect((genre.indexes as { name: string }[]).map((i) => i.name)).toContain('ux_genre_name');

      const own = (await ok(await call('GET', '/api/sql/chinook?refresh=true', genreOnly))).data as Row[];
      expect(own.map((table) => [table.name, (table as Record<string, unknown>).rights])).toEqual([
        [n('Genre'), { canInsert: true, canUpdate: true, canDelete: true }],
      ]);
      const readOnly = (await ok(await call('GET', '/api/sql/chinook', reader))).data as Record<
        string,
        unknown
      >[];
      expect(readOnly.find((table) => table.name === n('Track'))?.rights).toEqual({
        canInsert: false,
        canUpdate: false,
        canDelete: false,
      });
    });

    it('answers every row of a small table and tells the client to page a big one', async () => {
      const genres = (await ok(await call('GET', at('Genre'), reader))).data as Row[];
      expect(genres).toHaveLength(25);
      expect(genres[0]).toEqual(answered({ [n('GenreId')]: 1, [n('Name')]: 'Rock' }));
      refused(
        await call('GET', at('Track'), reader),
        400,
        `The table ${schema}.${n('Track')} has more than 1,000 rows, too many to send at once. Read it a page at a time: GET /api/sql/chinook/${schema}/${n('Track')}/page/1?pageSize=100.`,
      );
    });

    it('pages with pageSize and orderBy, and refuses what does not fit', async () => {
      const first = (await ok(await call('GET', at('Genre', '/page/1'), reader))).data as {
        results: Row[];
        count: number;
        countIsExact: boolean;
      };
      expect(first.results).toHaveLength(20);
      expect([first.count, first.countIsExact]).toEqual([25, true]);
      const last = (
        await ok(await call('GET', at('Genre', `/page/2?pageSize=20&orderBy=-${n('GenreId')}`), reader))
      ).data as { results: Row[] };
      expect(last.results.map((r) => r[n('GenreId')])).toEqual([5, 4, 3, 2, 1]);
      const byName = (
        await ok(await call('GET', at('Genre', `/page/1?pageSize=40&orderBy=${n('Name')}`), reader))
      ).data as { results: Row[] };
      const names = byName.results.map((r) => String(r[n('Name')]));
      expect(names).toHaveLength(25);
      expect(names[0]).toBe('Alternative');

      refused(await call('GET', at('Genre', '/page/3'), reader), 400, 'Page 3 is past the last page (2).');
      refused(
        await call('GET', at('Genre', '/page/1?pageSize=25'), reader),
        400,
        /pageSize must be one of 20, 40, 60, 80, 100\./,
      );
      refused(await call('GET', at('Genre', '/page/0'), reader), 400, /page must be a whole number from 1\./);
      refused(
        await call('GET', at('Genre', '/page/1?orderBy=-Nope'), reader),
        400,
        `orderBy: Nope is not a column of ${n('Genre')}.`,
      );
    });

    it('searches (first 100) and pages a search, with the filter in each of the three encodings', async () => {
      const filter = { [n('Name')]: 'Jazz' };
      for (const body of [encoded(filter), { json: encodeBody(filter) }, { json: filter }]) {
        const found = (await ok(await call('POST', at('Genre', '/search'), reader, body))).data;
        expect(found).toEqual({
          results: [answered({ [n('GenreId')]: 2, [n('Name')]: 'Jazz' })],
          count: 1,
          countIsExact: true,
        });
      }
      const tracks = (
        await ok(await call('POST', at('Track', '/search'), reader, encoded({ [n('GenreId')]: 1 })))
      ).data as { results: Row[]; count: number };
      expect(tracks.results).toHaveLength(100);
      expect(tracks.count).toBe(1297);

      const page = (
        await ok(
          await call(
            'POST',
            at('Track', `/page/3/search?pageSize=20&orderBy=-${n('TrackId')}`),
            reader,
            encoded({ [n('AlbumId')]: 141 }),
          ),
        )
      ).data as { results: Row[]; count: number };
      expect(page.count).toBe(57);
      expect(page.results.map((r) => r[n('AlbumId')])).toEqual(Array(17).fill(141));
      const ids = page.results.map((r) => Number(r[n('TrackId')]));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      // Unicode survives the encoding (encodeURIComponent is why the spec encodes at all).
      const unicode = { [n('Name')]: 'Ærø 漢字' };
      expect(
        (await ok(await call('POST', at('Artist', '/search'), reader, encoded(unicode)))).data,
      ).toMatchObject({
        count: 0,
      });
      const emoji = await call('POST', at('Artist', '/search'), reader, encoded({ [n('Name')]: '🎵' }));
      if (kind === 'mysql') {
        // Chinook's MySQL tables are utf8mb3, which has no emoji.
        refused(emoji, 400, /^A value has characters this column cannot hold/);
      } else {
        expect((await ok(emoji)).data).toMatchObject({ count: 0 });
      }
      // No body at all, or an empty one: no filter.
      expect(
        ((await ok(await call('POST', at('Genre', '/search'), reader))).data as { count: number }).count,
      ).toBe(25);
      expect(
        (
          (await ok(await call('POST', at('Genre', '/page/1/search'), reader, { text: '' }))).data as {
            count: number;
          }
        ).count,
      ).toBe(25);
    });

    it('refuses a filter it cannot use, naming the column', async () => {
      refused(
        await call('POST', at('Genre', '/search'), reader, encoded({ Nope: 'x' })),
        400,
        `Nope is not a column of ${n('Genre')}.`,
      );
      refused(
        await call('POST', at('Track', '/search'), reader, encoded({ [n('Composer')]: 'x' })),
        400,
        new RegExp(`^${n('Composer')} is not indexed, so it cannot be searched\\.`),
      );
      refused(
        await call('POST', at('Track', '/search'), reader, encoded({ [n('GenreId')]: 'rock' })),
        400,
        new RegExp(n('GenreId')),
      );
    });

    it('answers foreign-key choices, 25 at a time, searchable, only from tables the links allow', async () => {
      const keys = (await ok(await call('GET', at('Track', '/foreignkeys'), reader))).data as Record<
        string,
        unknown
      >[];
      expect(
        keys.map((k) => [k.column, k.referencedTable, (k.options as unknown[]).length, k.hasMore]).sort(),
      ).toEqual(
        [
          [n('AlbumId'), n('Album'), 25, true],
          [n('GenreId'), n('Genre'), 25, false],
          [n('MediaTypeId'), n('MediaType'), 5, false],
        ].sort(),
      );
      const albums = keys.find((k) => k.column === n('AlbumId'))!;
      expect(albums).toMatchObject({ canReadReferencedTable: true, referencedColumn: n('AlbumId'), page: 1 });
      expect((albums.options as { key: unknown; label: string }[])[0]).toEqual({
        key: 1,
        label: 'For Those About To Rock We Salute You',
        isMatch: false,
      });

      const page2 = (
        await ok(await call('GET', at('Track', `/foreignkeys?column=${n('AlbumId')}&page=2`), reader))
      ).data as { options: unknown[]; page: number; hasMore: boolean };
      expect([page2.options.length, page2.page, page2.hasMore]).toEqual([25, 2, true]);
      const term = (
        await ok(await call('GET', at('Track', `/foreignkeys?column=${n('GenreId')}&term=Ro`), reader))
      ).data as { options: { label: string; isMatch: boolean }[]; hasMore: boolean };
      // The matches first (spec 000 §9), then every other genre.
      expect(term.options.slice(0, 2).map((o) => [o.label, o.isMatch])).toEqual([
        ['Rock', true],
        ['Rock And Roll', true],
      ]);
      expect(term.options.slice(2).every((o) => !o.isMatch)).toBe(true);
      expect([term.options.length, term.hasMore]).toEqual([25, false]);
      refused(
        await call('GET', at('Track', `/foreignkeys?column=${n('Name')}`), reader),
        400,
        `${n('Name')} does not reference another table by itself, so it has no options.`,
      );

      // A caller who may read Genre only: no choices out of another table.
      const limited = await buildUser(t, { links: [`/db/chinook/${schema}/${n('Track')}`] });
      const hidden = (await ok(await call('GET', at('Track', '/foreignkeys'), limited))).data as Record<
        string,
        unknown
      >[];
      expect(
        hidden.every((k) => k.canReadReferencedTable === false && (k.options as unknown[]).length === 0),
      ).toBe(true);
    });
  });

  describe('bodies', () => {
    const latin1Base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

    it('refuses each malformed form with a message that says which step failed', async () => {
      const url = at('Genre', '/search');
      refused(
        await call('POST', url, reader, { text: 'not base64!' }),
        400,
        /^The filter is not valid base64: "!" at position 10 is not a base64 character\. Send base64/,
      );
      refused(
        await call('POST', url, reader, { text: 'abcde' }),
        400,
        /^The filter is not valid base64: its length or padding is wrong/,
      );
      refused(
        await call('POST', url, reader, { text: latin1Base64('%7B%22a%22%3A%E0%A4%A') }),
        400,
        /^The filter's URL encoding is broken: "%" at position 20 is not followed by two hexadecimal digits/,
      );
      refused(
        await call('POST', url, reader, { text: latin1Base64('{"a":1}') }),
        400,
        /is not URL-encoded text \(encodeURIComponent\)/,
      );
      refused(
        await call('POST', url, reader, { text: btoa(encodeURIComponent('{"Name": "Rock"')) }),
        400,
        /^The filter \(after base64 and URL decoding\) is not valid JSON \(.+\)\. Send base64/,
      );
      refused(
        await call('POST', url, reader, { text: btoa(encodeURIComponent('["Rock"]')) }),
        400,
        'The filter must be a JSON object of column name to search term, like {"Name":"Ab"}, not an array.',
      );
      refused(
        await call('POST', url, reader, { raw: '{"Name":', type: 'application/json' }),
        400,
        /^The filter is not valid JSON/,
      );
      refused(await call('POST', url, reader, { json: '***' }), 400, /^The filter is not valid base64/);
      refused(await call('POST', url, reader, { json: 42 }), 400, /not a number\.$/);
      refused(await call('POST', url, reader, { json: null }), 400, /not null\.$/);
      refused(
        await call('POST', url, reader, { json: { Name: { nested: 1 } } }),
        400,
        'Name: must be text, a number, true or false, or null.',
      );
      refused(await call('POST', at('Genre'), admin, { text: '' }), 400, /^The row is empty\. Send base64/);
      refused(await call('POST', at('Genre'), admin), 400, /^The request has no row\./);
      refused(
        await call('POST', url, reader, { raw: '<Name>Rock</Name>', type: 'application/xml' }),
        415,
        'A filter cannot be sent as application/xml: send it as text/plain or application/json.',
      );
    });
  });

  describe('writing', () => {
    it('inserts, updates and deletes a row in each encoding, and audits each change with before and after', async () => {
      const inserted = await ok(
        await call('POST', at('Genre'), admin, encoded({ [n('Name')]: 'Zydeco Ærø' })),
      );
      expect(inserted.message).toBe('Successfully updated row.');
      const row = inserted.data as Row;
      const id = row[n('GenreId')];
      expect(row).toEqual(answered({ [n('GenreId')]: id ?? null, [n('Name')]: 'Zydeco Ærø' }));

      const updated = await ok(
        await call('POST', at('Genre'), admin, {
          json: encodeBody({ [n('GenreId')]: id, [n('Name')]: 'Zydeco 2' }),
        }),
      );
      expect(updated.data).toEqual(answered({ [n('GenreId')]: id ?? null, [n('Name')]: 'Zydeco 2' }));

      const deleted = await ok(
        await call('POST', at('Genre', '/delete'), admin, { json: { [n('GenreId')]: id } }),
      );
      expect(deleted).toMatchObject({
        data: { [n('GenreId')]: id, [n('Name')]: 'Zydeco 2' },
        message: 'Successfully deleted row.',
      });
      refused(
        await call('POST', at('Genre', '/delete'), admin, encoded({ [n('GenreId')]: id })),
        404,
        'This row no longer exists: it may have been deleted. Reload the page.',
      );

      const target = `/db/chinook/${schema}/${n('Genre')}`;
      const key = { [n('GenreId')]: id };
      expect((await audits('data.insert')).filter((a) => a.target === target).at(-1)).toMatchObject({
        user_id: admin.userId,
        target,
        detail: { key, before: null, after: { ...key, [n('Name')]: 'Zydeco Ærø' } },
      });
      expect((await audits('data.update')).filter((a) => a.target === target).at(-1)).toMatchObject({
        user_id: admin.userId,
        detail: {
          key,
          before: { ...key, [n('Name')]: 'Zydeco Ærø' },
          after: { ...key, [n('Name')]: 'Zydeco 2' },
        },
      });
      expect((await audits('data.delete')).filter((a) => a.target === target).at(-1)).toMatchObject({
        user_id: admin.userId,
        detail: { key, before: { ...key, [n('Name')]: 'Zydeco 2' }, after: null },
      });
    });

    it('refuses a save or delete of a row changed since it was read: 409, nothing written, the row as it is now', async () => {
      const name = n('Name');
      const made = (await ok(await call('POST', at('Genre'), admin, encoded({ [name]: 'Two desks' }))))
        .data as Row;
      const id = made[n('GenreId')]!;
      // Two people read the row from a page; each sends back the row as it was answered, one field changed.
      const page = (
        await ok(
          await call('POST', at('Genre', '/page/1/search'), genreOnly, encoded({ [n('GenreId')]: id })),
        )
      ).data as { results: Row[] };
      const [read] = page.results;
      expect(read).toEqual(made);
      const first = await ok(
        await call('POST', at('Genre'), genreOnly, encoded({ ...read, [name]: 'First desk' })),
      );
      const saved = first.data as Row;
      expect(saved[ROW_VERSION_KEY]).not.toBe(read![ROW_VERSION_KEY]);
      const updates = (await audits('data.update')).length;
      for (const body of [
        encoded({ ...read, [name]: 'Second desk' }),
        { json: { ...read, [name]: 'Second desk' } },
      ]) {
        const response = await call('POST', at('Genre'), genreOnly, body);
        expect(response.statusCode, response.body).toBe(409);
        expect(response.json()).toEqual({
          isSuccess: false,
          data: { current: saved },
          message: rowVersionMessages.changedSince,
        });
      }
      const deleting = await call('POST', at('Genre', '/delete'), genreOnly, encoded(read!));
      expect(deleting.statusCode, deleting.body).toBe(409);
      expect(deleting.json()).toMatchObject({
        data: { current: saved },
        message: rowVersionMessages.changedSinceDelete,
      });
      // Nothing written, nothing audited; the row is the first person's.
      expect((await audits('data.update')).length).toBe(updates);
      expect(
        (await audits('data.delete')).filter((a) => (a.detail?.key as Row)?.[n('GenreId')] === id),
      ).toEqual([]);
      const [now] = (
        (await ok(await call('GET', at('Genre', `/page/1?pageSize=100`), genreOnly))).data as {
          results: Row[];
        }
      ).results.filter((r) => r[n('GenreId')] === id);
      expect(now).toEqual(saved);
      // The history takes the row as it was answered too (its version is no column), and so does a delete with it.
      expect(
        (await ok(await call('POST', at('Genre', '/history'), genreOnly, encoded(saved)))).data,
      ).toHaveLength(2);
      await ok(await call('POST', at('Genre', '/delete'), genreOnly, encoded(saved)));
      // A version that is not text is refused as such.
      refused(
        await call('POST', at('Genre'), genreOnly, { json: { ...saved, [ROW_VERSION_KEY]: 7 } }),
        400,
        rowVersionMessages.notAVersion(ROW_VERSION_KEY),
      );
    });

    it('explains values and constraints that do not fit, naming the column', async () => {
      refused(
        await call('POST', at('Album'), admin, encoded({ [n('ArtistId')]: 1 })),
        400,
        `${n('Title')} is required.`,
      );
      refused(
        await call('POST', at('Album'), admin, encoded({ [n('Title')]: 'x', [n('ArtistId')]: 999999 })),
        400,
        `${n('ArtistId')} 999999 does not exist in ${n('Artist')}.`,
      );
      refused(
        await call('POST', at('Album'), admin, encoded({ [n('Title')]: 'x', [n('ArtistId')]: 'abc' })),
        400,
        new RegExp(n('ArtistId')),
      );
      refused(
        await call(
          'POST',
          at('Album'),
          admin,
          encoded({ [n('Title')]: 'x'.repeat(161), [n('ArtistId')]: 1 }),
        ),
        400,
        `${n('Title')} cannot be more than 160 characters.`,
      );
      refused(
        await call('POST', at('Album'), admin, encoded({ [n('Title')]: 'x', [n('ArtistId')]: 1, Nope: 1 })),
        400,
        `Nope is not a column of ${n('Album')}.`,
      );
      const duplicate = refused(
        await call('POST', at('Genre'), admin, encoded({ [n('Name')]: 'Rock' })),
        409,
        /already exists/,
      );
      expect(duplicate).toMatch(kind === 'mysql' ? /Rock/ : new RegExp(n('Name')));
      // Artist 1 (AC/DC) still has albums.
      refused(await call('POST', at('Artist', '/delete'), admin, encoded({ [n('ArtistId')]: 1 })), 409, /./);
      expect(
        (
          (await ok(await call('POST', at('Artist', '/search'), admin, encoded({ [n('ArtistId')]: 1 }))))
            .data as { count: number }
        ).count,
      ).toBe(1);
    });
  });

  describe('access', () => {
    it('answers 401 to a caller who is not signed in', async () => {
      refused(await call('GET', '/api/sql', null), 401, 'Sign in to continue.');
      refused(await call('GET', at('Genre', '/page/1'), null), 401, 'Sign in to continue.');
      refused(await call('GET', '/api/sql/chinook', null), 401, 'Sign in to continue.');
      // A POST with a valid (anonymous) XSRF pair passes the XSRF check and is then refused for want of a session.
      const anonymous = { userId: 0, username: '', token: '', sessionId: 0, headers: await withXsrf(t) };
      refused(
        await call('POST', at('Genre', '/search'), anonymous, encoded({})),
        401,
        'Sign in to continue.',
      );
      refused(await call('POST', at('Genre'), anonymous, { text: 'garbage!' }), 401, 'Sign in to continue.');
    });

    it('answers the same 403 for a table outside the links whether it exists or not, and audits it', async () => {
      const existing = refused(
        await call('GET', at('Artist', '/page/1'), genreOnly),
        403,
        'You do not have access to that table.',
      );
      const missing = refused(await call('GET', at('NoSuchTable', '/page/1'), genreOnly), 403, existing);
      expect(missing).toBe(existing);
      refused(await call('POST', at('Artist', '/search'), genreOnly, encoded({})), 403, existing);
      refused(await call('POST', at('NoSuchTable', '/search'), genreOnly, encoded({})), 403, existing);
      refused(await call('POST', at('NoSuchTable'), genreOnly, encoded({ a: 1 })), 403, existing);
      refused(
        await call('GET', '/api/sql/offline', genreOnly),
        403,
        'You do not have access to that database.',
      );
      refused(await call('GET', `/api/sql/nowhere/${schema}/x`, genreOnly), 403, existing);
      const denied = (await audits('access.denied')).filter((a) => a.user_id === genreOnly.userId);
      expect(denied.map((a) => a.target)).toContain(`/db/chinook/${schema}/${n('NoSuchTable')}`);
      // Allowed to see: a table that does not exist is a 404.
      refused(
        await call('GET', at('NoSuchTable', '/page/1'), admin),
        404,
        `The table ${schema}.${n('NoSuchTable')} was not found.`,
      );
      refused(await call('GET', '/api/sql/nowhere', admin), 404, 'The database nowhere was not found.');
    });

    it('lets a read-only user read but not insert, update or delete', async () => {
      await ok(await call('GET', at('Genre', '/page/1'), reader));
      refused(
        await call('POST', at('Genre'), reader, encoded({ [n('Name')]: 'Nope' })),
        403,
        'You do not have permission to change rows of that table.',
      );
      refused(
        await call('POST', at('Genre', '/delete'), reader, encoded({ [n('GenreId')]: 1 })),
        403,
        'You do not have permission to delete rows of that table.',
      );
      expect(
        (
          (await ok(await call('POST', at('Genre', '/search'), reader, encoded({ [n('Name')]: 'Nope' }))))
            .data as { count: number }
        ).count,
      ).toBe(0);
    });

    it('lets an insert-only user add a row but not change one, checked before the write', async () => {
      const added = (
        await ok(await call('POST', at('Genre'), inserter, encoded({ [n('Name')]: 'Inserted only' })))
      ).data as Row;
      const id = added[n('GenreId')];
      refused(
        await call('POST', at('Genre'), inserter, encoded({ [n('GenreId')]: id, [n('Name')]: 'Changed' })),
        403,
        'You do not have permission to change rows of that table.',
      );
      refused(
        await call('POST', at('Genre', '/delete'), inserter, encoded({ [n('GenreId')]: id })),
        403,
        'You do not have permission to delete rows of that table.',
      );
      const stored = (
        await ok(await call('POST', at('Genre', '/search'), inserter, encoded({ [n('GenreId')]: id })))
      ).data as { results: Row[] };
      expect(stored.results).toEqual([added]);
      const denied = (await audits('access.denied')).filter((a) => a.user_id === inserter.userId);
      expect(denied.map((a) => a.detail)).toEqual([{ action: 'update' }, { action: 'delete' }]);
      expect((await audits('data.update')).some((a) => a.user_id === inserter.userId)).toBe(false);
      await ok(await call('POST', at('Genre', '/delete'), admin, encoded({ [n('GenreId')]: id })));
    });
  });

  describe('a database that is down', () => {
    it('answers 503 for it while the other database keeps answering', async () => {
      refused(
        await call('GET', '/api/sql/offline', admin),
        503,
        'The database offline is not reachable right now.',
      );
      refused(
        await call('GET', '/api/sql/offline/public/anything/page/1', admin),
        503,
        'The database offline is not reachable right now.',
      );
      const tables = (await ok(await call('GET', '/api/sql/chinook', admin))).data as unknown[];
      expect(tables.length).toBeGreaterThanOrEqual(11);
      await ok(await call('GET', at('Genre', '/page/1'), admin));
    });
  });
});
