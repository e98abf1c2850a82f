import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { compileOnlyDb, recordingDb, squash } from './test-support.ts';
import { escapeLike, insertRow, limitOffset, textStartsWith } from './queries.ts';

/* The SQL the adapter writes, compiled by Kysely's SQL Server dialect without a server. */

const db = compileOnlyDb();

describe('limitOffset', () => {
  it('writes OFFSET … FETCH NEXT with both numbers bound, after the ORDER BY', () => {
    const query = sql`select ${sql.id('TrackId')}, ${sql.id('Name')} from ${sql.id('dbo', 'Track')} order by ${sql.id('TrackId')} ${limitOffset(25, 50)}`;
    const compiled = query.compile(db);
    expect(squash(compiled.sql)).toBe(
      'select "TrackId", "Name" from "dbo"."Track" order by "TrackId" offset @1 rows fetch next @2 rows only',
    );
    expect(compiled.parameters).toEqual([50, 25]);
  });

  it('follows the ORDER BY (SELECT NULL) the generic engine writes for a table without a key', () => {
    const compiled =
      sql`select * from ${sql.id('dbo', 'Heap')} order by (select null) ${limitOffset(10, 0)}`.compile(db);
    expect(squash(compiled.sql)).toBe(
      'select * from "dbo"."Heap" order by (select null) offset @1 rows fetch next @2 rows only',
    );
    expect(compiled.parameters).toEqual([0, 10]);
  });

  it('refuses what SQL Server would refuse: FETCH NEXT 0 ROWS, a negative offset', () => {
    expect(() => limitOffset(0, 0)).toThrow(RangeError);
    expect(() => limitOffset(10, -1)).toThrow(RangeError);
    expect(() => limitOffset(1.5, 0)).toThrow(RangeError);
  });
});

describe('textStartsWith', () => {
  it('is a LIKE with a bound pattern and a backslash escape', () => {
    const compiled =
      sql`select ${sql.id('Name')} from ${sql.id('dbo', 'Artist')} where ${textStartsWith(sql.id('Name'), 'AC/D')}`.compile(
        db,
      );
    expect(squash(compiled.sql)).toBe(`select "Name" from "dbo"."Artist" where "Name" like @1 escape '\\'`);
    expect(compiled.parameters).toEqual(['AC/D%']);
  });

  it.each([
    ['100%', '100\\%%'],
    ['a_b', 'a\\_b%'],
    ['[x]', '\\[x]%'],
    ['C:\\dir', 'C:\\\\dir%'],
    ["O'Brien", "O'Brien%"],
    ['^[!]', '^\\[!]%'],
  ])('takes %s literally', (term, pattern) => {
    expect(textStartsWith(sql.id('Name'), term).compile(db).parameters).toEqual([pattern]);
    expect(escapeLike(term) + '%').toBe(pattern);
  });

  it('casts an ASCII pattern to varchar for a varchar column, so a SQL_* collation still seeks', () => {
    const varchar = textStartsWith(sql.id('Code'), 'AB_', { type: 'varchar' }).compile(db);
    expect(squash(varchar.sql)).toBe(`"Code" like cast(@1 as varchar(8000)) escape '\\'`);
    expect(varchar.parameters).toEqual(['AB\\_%']);
    // Not for nvarchar, and not for a term a code page may not hold.
    expect(squash(textStartsWith(sql.id('Name'), 'AB', { type: 'nvarchar' }).compile(db).sql)).toBe(
      `"Name" like @1 escape '\\'`,
    );
    expect(squash(textStartsWith(sql.id('Code'), 'Zoë', { type: 'varchar' }).compile(db).sql)).toBe(
      `"Code" like @1 escape '\\'`,
    );
  });
});

describe('insertRow', () => {
  it('inserts with OUTPUT … INTO a temporary copy of the key columns and answers the keys', async () => {
    const { db: recording, queries } = recordingDb(() => [{ AlbumId: 348 }]);
    const keys = await insertRow(recording, { schema: 'dbo', name: 'Album' }, { Title: 'New', ArtistId: 1 }, [
      'AlbumId',
    ]);
    expect(keys).toEqual({ AlbumId: 348 });
    expect(queries).toHaveLength(1);
    expect(squash(queries[0]!.sql)).toBe(
      [
        'select "AlbumId" into #dbui_inserted_keys from "dbo"."Album" where 1 = 0',
        'union all select "AlbumId" from "dbo"."Album" where 1 = 0;',
        'insert into "dbo"."Album" ("Title", "ArtistId") output inserted."AlbumId" into #dbui_inserted_keys ("AlbumId") values (@1, @2);',
        'select "AlbumId" from #dbui_inserted_keys;',
      ].join(' '),
    );
    expect(queries[0]!.parameters).toEqual(['New', 1]);
  });

  it('answers a composite key, writes NULL as a literal and never sets IDENTITY_INSERT', async () => {
    const { db: recording, queries } = recordingDb(() => [{ PlaylistId: 1, TrackId: 2 }]);
    const bytes = Buffer.from([1, 2]);
    const keys = await insertRow(
      recording,
      { schema: 'dbo', name: 'PlaylistTrack' },
      { PlaylistId: 1, TrackId: 2, Note: null, Cover: bytes },
      ['PlaylistId', 'TrackId'],
    );
    expect(keys).toEqual({ PlaylistId: 1, TrackId: 2 });
    const text = squash(queries[0]!.sql);
    expect(text).toContain(
      'output inserted."PlaylistId", inserted."TrackId" into #dbui_inserted_keys ("PlaylistId", "TrackId")',
    );
    expect(text).toContain('values (@1, @2, null, @3)');
    expect(text).not.toMatch(/identity_insert/i);
    expect(queries[0]!.parameters).toEqual([1, 2, bytes]);
  });

  it('uses DEFAULT VALUES when no value is given, and the last row when a trigger selected rows first', async () => {
    const { db: recording, queries } = recordingDb(() => [{ trigger: 'noise' }, { Id: 'b3c1…' }]);
    const keys = await insertRow(recording, { schema: 'audit', name: 'Event' }, {}, ['Id']);
    expect(keys).toEqual({ Id: 'b3c1…' });
    expect(squash(queries[0]!.sql)).toContain(
      'insert into "audit"."Event" output inserted."Id" into #dbui_inserted_keys ("Id") default values;',
    );
  });

  it('is a plain INSERT when the table has no key to answer', async () => {
    const { db: recording, queries } = recordingDb(() => []);
    expect(await insertRow(recording, { schema: 'dbo', name: 'Log' }, { Line: 'x' }, [])).toEqual({});
    expect(await insertRow(recording, { schema: 'dbo', name: 'Log' }, {}, [])).toEqual({});
    expect(queries.map((q) => squash(q.sql))).toEqual([
      'insert into "dbo"."Log" ("Line") values (@1)',
      'insert into "dbo"."Log" default values',
    ]);
  });

  it('quotes hostile names as names', async () => {
    const { db: recording, queries } = recordingDb(() => [{ 'I"d': 1 }]);
    await insertRow(recording, { schema: 'we"ird', name: 'Ta]ble;--' }, { 'Co"l': "x'); drop table t;--" }, [
      'I"d',
    ]);
    expect(squash(queries[0]!.sql)).toContain(
      'insert into "we""ird"."Ta]ble;--" ("Co""l") output inserted."I""d"',
    );
    expect(queries[0]!.parameters).toEqual(["x'); drop table t;--"]);
  });
});
