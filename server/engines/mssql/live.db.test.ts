import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { CellValue, Column } from '#common/contract/sql.ts';
import type { CatalogTable } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { mssqlAdapter, type MssqlAdapter } from './adapter.ts';
import { connectMssql, openMssql } from './connect.ts';
import {
  columnOf,
  createMssqlDatabase,
  loadMssqlChinook,
  tableOf,
  type MssqlTestDatabase,
} from './test-support.ts';

/*
 * Against a real SQL Server (2016 or later), only when MSSQL_URL is set, e.g.
 *   MSSQL_URL='mssql://sa:Passw0rd!@127.0.0.1:1433/master?encrypt=false' npx vitest run server/engines/mssql
 * Each run creates its own databases (dbui_chinook_…, dbui_types_…) and drops them afterwards.
 */

const serverUrl = process.env.MSSQL_URL ?? '';
const options = { statementTimeoutMs: 15_000, poolSize: 4 };

/** Runs an adapter call and answers the EngineError its failure explains to. */
async function explained(
  adapter: MssqlAdapter,
  work: () => Promise<unknown>,
): Promise<{ status: number; message: string }> {
  try {
    await work();
  } catch (error) {
    const result = adapter.explainError(error);
    if (!result) throw error;
    expect(result).toBeInstanceOf(EngineError);
    return { status: result.statusCode, message: result.message };
  }
  throw new Error('expected the call to fail');
}

/** A row as the generic engine would read it: each column through selectExpression, then decodeValue. */
async function readRow(
  adapter: MssqlAdapter,
  table: CatalogTable,
  where: ReturnType<typeof sql>,
): Promise<Record<string, CellValue>> {
  const columns = table.columns.map((c) => columnOf([table], table.name, c.name));
  const list = sql.join(
    columns.map((c) => sql`${adapter.selectExpression(c, sql.id(c.name))} as ${sql.id(c.name)}`),
  );
  const { rows } = await sql<
    Record<string, unknown>
  >`select ${list} from ${sql.id(table.schema, table.name)} where ${where}`.execute(adapter.db);
  const raw = rows[0];
  if (!raw) throw new Error('no row');
  return Object.fromEntries(columns.map((c: Column) => [c.name, adapter.decodeValue(c, raw[c.name])]));
}

describe.skipIf(!serverUrl)('SQL Server adapter against Chinook (MSSQL_URL)', () => {
  let chinook: MssqlTestDatabase | undefined;
  let db: Kysely<DynamicSchema>;
  let adapter: MssqlAdapter;
  let catalog: CatalogTable[];

  beforeAll(async () => {
    chinook = await loadMssqlChinook(serverUrl);
    db = openMssql(chinook.url, options);
    adapter = mssqlAdapter(db, { name: 'chinook', statementTimeoutMs: options.statementTimeoutMs });
    catalog = await adapter.readCatalog();
  }, 300_000);

  afterAll(async () => {
    await db?.destroy();
    await chinook?.drop();
  }, 120_000);

  it('reads the 11 tables of Chinook in dbo', () => {
    expect(catalog.map((t) => `${t.schema}.${t.name}`).sort()).toEqual(
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
      ].map((name) => `dbo.${name}`),
    );
    expect(catalog.every((t) => !t.isView)).toBe(true);
  });

  it('reads the columns of Track with types, lengths, nullability and identity', () => {
    const track = tableOf(catalog, 'Track');
    expect(
      track.columns.map((c) => [
        c.id,
        c.name,
        c.type,
        c.typeGroup,
        c.maxLength,
        c.precision,
        c.scale,
        c.isNullable,
        c.isIdentity,
      ]),
    ).toEqual([
      [1, 'TrackId', 'int', 'Number', 0, 10, 0, false, true],
      [2, 'Name', 'nvarchar', 'Text', 200, 0, 0, false, false],
      [3, 'AlbumId', 'int', 'Number', 0, 10, 0, true, false],
      [4, 'MediaTypeId', 'int', 'Number', 0, 10, 0, false, false],
      [5, 'GenreId', 'int', 'Number', 0, 10, 0, true, false],
      [6, 'Composer', 'nvarchar', 'Text', 220, 0, 0, true, false],
      [7, 'Milliseconds', 'int', 'Number', 0, 10, 0, false, false],
      [8, 'Bytes', 'int', 'Number', 0, 10, 0, true, false],
      [9, 'UnitPrice', 'numeric', 'Number', 0, 10, 2, false, false],
    ]);
    expect(
      track.columns.every((c) => !c.isGuid && !c.isHidden && !c.isComputed && c.defaultValue === null),
    ).toBe(true);
  });

  it('reads the columns of Invoice', () => {
    const invoice = tableOf(catalog, 'Invoice');
    expect(
      invoice.columns.map((c) => [
        c.name,
        c.type,
        c.typeGroup,
        c.maxLength,
        c.precision,
        c.scale,
        c.isNullable,
        c.isIdentity,
      ]),
    ).toEqual([
      ['InvoiceId', 'int', 'Number', 0, 10, 0, false, true],
      ['CustomerId', 'int', 'Number', 0, 10, 0, false, false],
      ['InvoiceDate', 'datetime', 'Date', 0, 0, 3, false, false],
      ['BillingAddress', 'nvarchar', 'Text', 70, 0, 0, true, false],
      ['BillingCity', 'nvarchar', 'Text', 40, 0, 0, true, false],
      ['BillingState', 'nvarchar', 'Text', 40, 0, 0, true, false],
      ['BillingCountry', 'nvarchar', 'Text', 40, 0, 0, true, false],
      ['BillingPostalCode', 'nvarchar', 'Text', 10, 0, 0, true, false],
      ['Total', 'numeric', 'Number', 0, 10, 2, false, false],
    ]);
  });

  it('reads primary keys (PlaylistTrack: composite, no identity) and identity columns', () => {
    const keys = Object.fromEntries(catalog.map((t) => [t.name, t.primaryKey]));
    expect(keys).toEqual({
      Album: ['AlbumId'],
      Artist: ['ArtistId'],
      Customer: ['CustomerId'],
      Employee: ['EmployeeId'],
      Genre: ['GenreId'],
      Invoice: ['InvoiceId'],
      InvoiceLine: ['InvoiceLineId'],
      MediaType: ['MediaTypeId'],
      Playlist: ['PlaylistId'],
      PlaylistTrack: ['PlaylistId', 'TrackId'],
      Track: ['TrackId'],
    });
    const identities = Object.fromEntries(
      catalog.map((t) => [t.name, t.columns.filter((c) => c.isIdentity).map((c) => c.name)]),
    );
    expect(identities.PlaylistTrack).toEqual([]);
    for (const table of catalog.filter((t) => t.name !== 'PlaylistTrack'))
      expect(identities[table.name]).toEqual(table.primaryKey);
  });

  it('reads every foreign key with its referenced columns', () => {
    const fks = catalog.flatMap((t) =>
      t.foreignKeys.map(
        (fk) =>
          `${t.name}.${fk.columns.join('+')} -> ${fk.referencedSchema}.${fk.referencedTable}.${fk.referencedColumns.join('+')} (${fk.name})`,
      ),
    );
    expect(fks.sort()).toEqual(
      [
        'Album.ArtistId -> dbo.Artist.ArtistId (FK_AlbumArtistId)',
        'Customer.SupportRepId -> dbo.Employee.EmployeeId (FK_CustomerSupportRepId)',
        'Employee.ReportsTo -> dbo.Employee.EmployeeId (FK_EmployeeReportsTo)',
        'Invoice.CustomerId -> dbo.Customer.CustomerId (FK_InvoiceCustomerId)',
        'InvoiceLine.InvoiceId -> dbo.Invoice.InvoiceId (FK_InvoiceLineInvoiceId)',
        'InvoiceLine.TrackId -> dbo.Track.TrackId (FK_InvoiceLineTrackId)',
        'PlaylistTrack.PlaylistId -> dbo.Playlist.PlaylistId (FK_PlaylistTrackPlaylistId)',
        'PlaylistTrack.TrackId -> dbo.Track.TrackId (FK_PlaylistTrackTrackId)',
        'Track.AlbumId -> dbo.Album.AlbumId (FK_TrackAlbumId)',
        'Track.GenreId -> dbo.Genre.GenreId (FK_TrackGenreId)',
        'Track.MediaTypeId -> dbo.MediaType.MediaTypeId (FK_TrackMediaTypeId)',
      ].sort(),
    );
  });

  it('reads the IFK_* indexes and the primary key indexes, with figures from the engine', () => {
    const all = catalog.flatMap((t) => t.indexes.map((i) => ({ table: t.name, ...i })));
    const described = all
      .map(
        (i) =>
          `${i.table}.${i.name} ${i.type} unique=${i.isUnique} pk=${i.isPrimaryKey} (${i.columns.join(', ')})`,
      )
      .sort();
    expect(described).toEqual(
      [
        'Album.PK_Album CLUSTERED unique=true pk=true (AlbumId)',
        'Album.IFK_AlbumArtistId NONCLUSTERED unique=false pk=false (ArtistId)',
        'Artist.PK_Artist CLUSTERED unique=true pk=true (ArtistId)',
        'Customer.PK_Customer CLUSTERED unique=true pk=true (CustomerId)',
        'Customer.IFK_CustomerSupportRepId NONCLUSTERED unique=false pk=false (SupportRepId)',
        'Employee.PK_Employee CLUSTERED unique=true pk=true (EmployeeId)',
        'Employee.IFK_EmployeeReportsTo NONCLUSTERED unique=false pk=false (ReportsTo)',
        'Genre.PK_Genre CLUSTERED unique=true pk=true (GenreId)',
        'Invoice.PK_Invoice CLUSTERED unique=true pk=true (InvoiceId)',
        'Invoice.IFK_InvoiceCustomerId NONCLUSTERED unique=false pk=false (CustomerId)',
        'InvoiceLine.PK_InvoiceLine CLUSTERED unique=true pk=true (InvoiceLineId)',
        'InvoiceLine.IFK_InvoiceLineInvoiceId NONCLUSTERED unique=false pk=false (InvoiceId)',
        'InvoiceLine.IFK_InvoiceLineTrackId NONCLUSTERED unique=false pk=false (TrackId)',
        'MediaType.PK_MediaType CLUSTERED unique=true pk=true (MediaTypeId)',
        'Playlist.PK_Playlist CLUSTERED unique=true pk=true (PlaylistId)',
        'PlaylistTrack.PK_PlaylistTrack NONCLUSTERED unique=true pk=true (PlaylistId, TrackId)',
        'PlaylistTrack.IFK_PlaylistTrackPlaylistId NONCLUSTERED unique=false pk=false (PlaylistId)',
        'PlaylistTrack.IFK_PlaylistTrackTrackId NONCLUSTERED unique=false pk=false (TrackId)',
        'Track.PK_Track CLUSTERED unique=true pk=true (TrackId)',
        'Track.IFK_TrackAlbumId NONCLUSTERED unique=false pk=false (AlbumId)',
        'Track.IFK_TrackGenreId NONCLUSTERED unique=false pk=false (GenreId)',
        'Track.IFK_TrackMediaTypeId NONCLUSTERED unique=false pk=false (MediaTypeId)',
      ].sort(),
    );
    const pkTrack = tableOf(catalog, 'Track').indexes.find((i) => i.name === 'PK_Track');
    expect(['sys.dm_db_index_physical_stats', 'sys.allocation_units']).toContain(pkTrack?.statisticsSource);
    expect(pkTrack?.allocationType).toContain('IN_ROW_DATA');
    expect(pkTrack?.pageCount).toBeGreaterThan(10);
    if (pkTrack?.statisticsSource === 'sys.dm_db_index_physical_stats') {
      expect(pkTrack.averageFragmentation).toBeGreaterThanOrEqual(0);
      expect(pkTrack.averageFragmentation).toBeLessThanOrEqual(100);
    } else {
      expect(pkTrack?.averageFragmentation).toBeNull();
    }
  });

  it('estimates rows from sys.partitions', () => {
    const counts: Record<string, number> = {
      Album: 347,
      Artist: 275,
      Customer: 59,
      Employee: 8,
      Genre: 25,
      Invoice: 412,
      InvoiceLine: 2240,
      MediaType: 5,
      Playlist: 18,
      PlaylistTrack: 8715,
      Track: 3503,
    };
    for (const table of catalog) {
      const count = counts[table.name] ?? 0;
      expect(table.estimatedRows, table.name).toBeGreaterThanOrEqual(count * 0.9);
      expect(table.estimatedRows, table.name).toBeLessThanOrEqual(count * 1.1);
    }
  });

  it('pages with OFFSET … FETCH after an ORDER BY', async () => {
    const { rows } = await sql<{
      TrackId: number;
    }>`select ${sql.id('TrackId')} from ${sql.id('dbo', 'Track')} order by ${sql.id('TrackId')} ${adapter.limitOffset(5, 10)}`.execute(
      db,
    );
    expect(rows.map((r) => r.TrackId)).toEqual([11, 12, 13, 14, 15]);
    const unordered =
      await sql`select ${sql.id('PlaylistId')} from ${sql.id('dbo', 'PlaylistTrack')} order by (select null) ${adapter.limitOffset(3, 0)}`.execute(
        db,
      );
    expect(unordered.rows).toHaveLength(3);
  });

  it('finds names by prefix, taking wildcards literally', async () => {
    const names = async (prefix: string) =>
      (
        await sql<{
          Name: string;
        }>`select ${sql.id('Name')} from ${sql.id('dbo', 'Artist')} where ${adapter.textStartsWith(sql.id('Name'), prefix)} order by ${sql.id('Name')}`.execute(
          db,
        )
      ).rows.map((r) => r.Name);
    expect(await names('AC/')).toEqual(['AC/DC']);
    expect(await names('Antônio')).toEqual(['Antônio Carlos Jobim']);
    await adapter.insertRow(db, { schema: 'dbo', name: 'Artist' }, { Name: '100%_[sic]\\' }, ['ArtistId']);
    expect(await names('100%_[')).toEqual(['100%_[sic]\\']);
    expect(await names('100%_[sic]\\')).toEqual(['100%_[sic]\\']);
    expect(await names('1_0')).toEqual([]);
  });

  it('answers an index seek for the prefix on nvarchar and varchar columns of a big table', async () => {
    await sql`create table dbo.Words (Id int identity primary key, Word nvarchar(100) not null, Code varchar(50) not null)`.execute(
      db,
    );
    await sql`
      insert into dbo.Words (Word, Code)
      select top (50000) concat(N'w', right(concat('00000', n), 5)), concat('c', right(concat('00000', n), 5))
      from (select row_number() over (order by (select null)) as n from sys.all_columns as a cross join sys.all_columns as b) as numbers`.execute(
      db,
    );
    await sql`create index IX_Words_Word on dbo.Words (Word)`.execute(db);
    await sql`create index IX_Words_Code on dbo.Words (Code)`.execute(db);
    const plan = async (column: string, prefix: string, type: string) => {
      const { rows } = await sql<Record<string, unknown>>`
        set statistics xml on;
        select ${sql.id('Id')}, ${sql.id(column)} from ${sql.id('dbo', 'Words')} where ${adapter.textStartsWith(sql.id(column), prefix, { type })};
        set statistics xml off;`.execute(db);
      const xml = rows
        .flatMap((row) => Object.values(row))
        .find((value) => typeof value === 'string' && value.includes('<ShowPlanXML'));
      return { matches: rows.filter((row) => row.Id !== undefined).length, xml: String(xml ?? '') };
    };
    const word = await plan('Word', 'w1234', 'nvarchar');
    expect(word.matches).toBe(10);
    expect(word.xml).toMatch(/PhysicalOp="Index Seek"/);
    expect(word.xml).toContain('[IX_Words_Word]');
    const code = await plan('Code', 'c1234', 'varchar');
    expect(code.matches).toBe(10);
    expect(code.xml).toMatch(/PhysicalOp="Index Seek"/);
    expect(code.xml).toContain('[IX_Words_Code]');
  });

  it('inserts rows and answers generated keys, also on a table with a trigger', async () => {
    const genre = await adapter.insertRow(db, { schema: 'dbo', name: 'Genre' }, { Name: 'Fado' }, [
      'GenreId',
    ]);
    expect(genre).toEqual({ GenreId: 26 });
    await sql`create trigger dbo.AlbumTouched on dbo.Album after insert as begin set nocount on; end`.execute(
      db,
    );
    const album = await adapter.insertRow(
      db,
      { schema: 'dbo', name: 'Album' },
      { Title: 'Live', ArtistId: 1 },
      ['AlbumId'],
    );
    expect(album).toEqual({ AlbumId: 348 });
    const pair = await adapter.insertRow(
      db,
      { schema: 'dbo', name: 'PlaylistTrack' },
      { PlaylistId: 2, TrackId: 1 },
      ['PlaylistId', 'TrackId'],
    );
    expect(pair).toEqual({ PlaylistId: 2, TrackId: 1 });
  });

  it('explains real violations, a timeout and a refused connection', async () => {
    const first = (
      await sql<{
        PlaylistId: number;
        TrackId: number;
      }>`select top (1) PlaylistId, TrackId from dbo.PlaylistTrack order by PlaylistId, TrackId`.execute(db)
    ).rows[0]!;
    const duplicate = await explained(adapter, () =>
      adapter.insertRow(db, { schema: 'dbo', name: 'PlaylistTrack' }, { ...first }, [
        'PlaylistId',
        'TrackId',
      ]),
    );
    expect(duplicate).toEqual({
      status: 409,
      message: `(${first.PlaylistId}, ${first.TrackId}) already exists (PK_PlaylistTrack): the value must be unique.`,
    });

    expect(
      await explained(adapter, () =>
        adapter.insertRow(db, { schema: 'dbo', name: 'Album' }, { Title: 'Nobody', ArtistId: 99999 }, [
          'AlbumId',
        ]),
      ),
    ).toEqual({
      status: 400,
      message: 'The ArtistId given does not exist in Artist (FK_AlbumArtistId).',
    });
    expect(
      await explained(adapter, () => sql`delete from dbo.Artist where ArtistId = ${1}`.execute(db)),
    ).toEqual({
      status: 409,
      message:
        'This row is still referenced by rows of Album (FK_AlbumArtistId); change or delete those first.',
    });
    expect(
      await explained(adapter, () =>
        adapter.insertRow(
          db,
          { schema: 'dbo', name: 'Track' },
          { Name: null, MediaTypeId: 1, Milliseconds: 1, UnitPrice: '0.99' },
          ['TrackId'],
        ),
      ),
    ).toEqual({ status: 400, message: 'Name is required.' });
    const tooLong = await explained(adapter, () =>
      adapter.insertRow(db, { schema: 'dbo', name: 'Genre' }, { Name: 'x'.repeat(121) }, ['GenreId']),
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.message).toMatch(
      /^(Name is too long for its column\.|A value is too long for its column\.)$/,
    );
    expect(await explained(adapter, () => sql`select cast(${'abc'} as int) as n`.execute(db))).toEqual({
      status: 400,
      message: "'abc' is not a valid int.",
    });
    expect(
      await explained(adapter, () =>
        adapter.insertRow(
          db,
          { schema: 'dbo', name: 'Track' },
          { Name: 'x', MediaTypeId: 1, Milliseconds: 1, UnitPrice: '123456789012' },
          ['TrackId'],
        ),
      ),
    ).toMatchObject({
      status: 400,
    });

    const quick = openMssql(chinook!.url, { statementTimeoutMs: 500, poolSize: 1 });
    const quickAdapter = mssqlAdapter(quick, { name: 'chinook', statementTimeoutMs: 500 });
    try {
      expect(await explained(quickAdapter, () => sql`waitfor delay '00:00:03'`.execute(quick))).toEqual({
        status: 504,
        message: 'The database did not answer within 0.5 seconds; narrow the search or try again.',
      });
    } finally {
      await quick.destroy();
    }

    const refused = openMssql('mssql://sa:x@127.0.0.1:1/chinook?encrypt=false', {
      statementTimeoutMs: 1000,
      poolSize: 1,
    });
    const refusedAdapter = mssqlAdapter(refused, { name: 'chinook', statementTimeoutMs: 1000 });
    try {
      expect(await explained(refusedAdapter, () => sql`select 1 as one`.execute(refused))).toEqual({
        status: 503,
        message: 'The database chinook is not reachable right now.',
      });
    } finally {
      await refused.destroy();
    }
  });

  it('serves the catalog through the generic engine', async () => {
    const engine = connectMssql('chinook', chinook!.url, options);
    try {
      const tables = await engine.catalog();
      const track = tables.find((t) => t.name === 'Track');
      expect(track?.identityColumn).toBe('TrackId');
      expect(track?.columns.find((c) => c.name === 'AlbumId')).toMatchObject({
        isIndexed: true,
        isForeignKey: true,
      });
      expect(tables.find((t) => t.name === 'PlaylistTrack')).toMatchObject({
        hasIdentity: false,
        primaryKey: ['PlaylistId', 'TrackId'],
      });
    } finally {
      await engine.close();
    }
  });
});

describe.skipIf(!serverUrl)('SQL Server types, values and round trips (MSSQL_URL)', () => {
  let database: MssqlTestDatabase | undefined;
  let db: Kysely<DynamicSchema>;
  let adapter: MssqlAdapter;
  let table: CatalogTable;

  beforeAll(async () => {
    database = await createMssqlDatabase(serverUrl, 'dbui_types');
    db = openMssql(database.url, options);
    adapter = mssqlAdapter(db, { name: 'types', statementTimeoutMs: options.statementTimeoutMs });
    await sql`
      create table dbo.AllTypes (
        Id bigint identity(1, 1) primary key,
        RowGuid uniqueidentifier not null default newid(),
        OtherGuid uniqueidentifier null,
        Code char(10) null,
        Short varchar(50) null,
        Notes varchar(max) null,
        Name nvarchar(100) not null,
        Body nvarchar(max) null,
        Flag nchar(5) null,
        Legacy text null,
        LegacyUnicode ntext null,
        Hash binary(4) null,
        Payload varbinary(200) null,
        Photo varbinary(max) null,
        Scan image null,
        Tiny tinyint null,
        Small smallint null,
        Whole int null,
        Big bigint null,
        Single real null,
        Double float null,
        Price money null,
        SmallPrice smallmoney null,
        Amount decimal(18, 4) null,
        Ratio numeric(10, 2) null,
        Day date null,
        Stamp datetime null,
        Precise datetime2(7) null,
        Coarse datetime2(0) null,
        Zoned datetimeoffset(7) null,
        Minute smalldatetime null,
        Clock time(7) null,
        Active bit not null default 0,
        Doc xml null,
        Anything sql_variant null,
        Node hierarchyid null,
        Place geography null,
        Version rowversion,
        Doubled as (cast(Whole as bigint) * 2),
        constraint UQ_AllTypes_Name unique (Name)
      )`.execute(db);
    table = tableOf(await adapter.readCatalog(), 'AllTypes');
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  }, 120_000);

  it('maps every native type to its group, lengths in characters', () => {
    const facts = Object.fromEntries(
      table.columns.map((c) => [
        c.name,
        [c.type, c.typeGroup, c.maxLength, c.precision, c.scale, c.isNullable],
      ]),
    );
    expect(facts).toEqual({
      Id: ['bigint', 'Number', 0, 19, 0, false],
      RowGuid: ['uniqueidentifier', 'guid', 0, 0, 0, false],
      OtherGuid: ['uniqueidentifier', 'guid', 0, 0, 0, true],
      Code: ['char', 'Text', 10, 0, 0, true],
      Short: ['varchar', 'Text', 50, 0, 0, true],
      Notes: ['varchar', 'Text', -1, 0, 0, true],
      Name: ['nvarchar', 'Text', 100, 0, 0, false],
      Body: ['nvarchar', 'Text', -1, 0, 0, true],
      Flag: ['nchar', 'Text', 5, 0, 0, true],
      Legacy: ['text', 'Text', -1, 0, 0, true],
      LegacyUnicode: ['ntext', 'Text', -1, 0, 0, true],
      Hash: ['binary', 'Binary', 4, 0, 0, true],
      Payload: ['varbinary', 'Binary', 200, 0, 0, true],
      Photo: ['varbinary', 'image', -1, 0, 0, true],
      Scan: ['image', 'image', -1, 0, 0, true],
      Tiny: ['tinyint', 'Number', 0, 3, 0, true],
      Small: ['smallint', 'Number', 0, 5, 0, true],
      Whole: ['int', 'Number', 0, 10, 0, true],
      Big: ['bigint', 'Number', 0, 19, 0, true],
      Single: ['real', 'Number', 0, 24, 0, true],
      Double: ['float', 'Number', 0, 53, 0, true],
      Price: ['money', 'Number', 0, 19, 4, true],
      SmallPrice: ['smallmoney', 'Number', 0, 10, 4, true],
      Amount: ['decimal', 'Number', 0, 18, 4, true],
      Ratio: ['numeric', 'Number', 0, 10, 2, true],
      Day: ['date', 'Date', 0, 0, 0, true],
      Stamp: ['datetime', 'Date', 0, 0, 3, true],
      Precise: ['datetime2', 'Date', 0, 0, 7, true],
      Coarse: ['datetime2', 'Date', 0, 0, 0, true],
      Zoned: ['datetimeoffset', 'Date', 0, 0, 7, true],
      Minute: ['smalldatetime', 'Date', 0, 0, 0, true],
      Clock: ['time', 'Time', 0, 0, 7, true],
      Active: ['bit', 'bit', 0, 1, 0, false],
      Doc: ['xml', 'Other', -1, 0, 0, true],
      Anything: ['sql_variant', 'Other', 0, 0, 0, true],
      Node: ['hierarchyid', 'Other', 0, 0, 0, true],
      Place: ['geography', 'Other', -1, 0, 0, true],
      Version: ['timestamp', 'Binary', 8, 0, 0, false],
      Doubled: ['bigint', 'Number', 0, 19, 0, true],
    });
    const flags = (name: string) => {
      const c = table.columns.find((column) => column.name === name);
      return {
        identity: c?.isIdentity,
        guid: c?.isGuid,
        computed: c?.isComputed,
        defaulted: c?.defaultValue !== null,
      };
    };
    expect(flags('Id')).toEqual({ identity: true, guid: false, computed: false, defaulted: false });
    expect(flags('RowGuid')).toEqual({ identity: false, guid: true, computed: false, defaulted: true });
    expect(flags('OtherGuid')).toEqual({ identity: false, guid: false, computed: false, defaulted: false });
    expect(flags('Version')).toMatchObject({ computed: true });
    expect(flags('Doubled')).toMatchObject({ computed: true });
    expect(table.columns.map((c) => c.id)).toEqual(table.columns.map((_, i) => i + 1));
    expect(table.indexes.find((i) => i.isUnique && !i.isPrimaryKey)).toMatchObject({
      name: 'UQ_AllTypes_Name',
      columns: ['Name'],
    });
  });

  it('round-trips values exactly: encodeValue, insertRow, selectExpression, decodeValue', async () => {
    const column = (name: string) => columnOf([table], table.name, name);
    const sent: Record<string, string | number | boolean | Buffer> = {
      Code: 'AB',
      Short: 'plain',
      Notes: 'n'.repeat(9000),
      Name: 'Zoë ✓ 😀',
      Body: 'Ünïcödé '.repeat(1000),
      Flag: 'ab',
      Legacy: 'old text',
      LegacyUnicode: 'alte Schrift ß',
      Hash: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
      Payload: Buffer.from([0, 1, 2, 255]),
      Photo: Buffer.from('GIF89a'),
      Scan: Buffer.from([1, 2, 3]),
      Tiny: 255,
      Small: -32768,
      Whole: 2147483647,
      Big: '9007199254740993',
      Single: 1.1,
      Double: 0.1,
      Price: '12.3',
      SmallPrice: '-0.5',
      Amount: '12345678901234.5678',
      Ratio: '0.99',
      Day: '2024-02-29',
      Stamp: '2024-02-29T13:45:01.997',
      Precise: '2024-02-29T13:45:01.1234567',
      Coarse: '2024-02-29T13:45:01',
      Zoned: '2024-02-29T13:45:01.1234567+05:30',
      Minute: '2024-02-29T13:45:00',
      Clock: '23:59:59.9999999',
      Active: true,
      Doc: '<a b="1"/>',
      Node: '/1/2/',
      Place: 'POINT (-122.34 47.65)',
      OtherGuid: '6f9619ff-8b86-d011-b42d-00c04fd430c8',
    };
    const values = Object.fromEntries(
      Object.entries(sent).map(([name, value]) => [name, adapter.encodeValue(column(name), value)]),
    );
    const keys = await adapter.insertRow(db, { schema: 'dbo', name: 'AllTypes' }, values, ['Id']);
    expect(keys.Id).toBe('1');
    const row = await readRow(adapter, table, sql`${sql.id('Id')} = ${1}`);
    expect(row).toMatchObject({
      Id: 1,
      Code: 'AB        ',
      Short: 'plain',
      Notes: 'n'.repeat(9000),
      Name: 'Zoë ✓ 😀',
      Body: 'Ünïcödé '.repeat(1000),
      Flag: 'ab   ',
      Legacy: 'old text',
      LegacyUnicode: 'alte Schrift ß',
      Hash: '3q2+7w==',
      Payload: 'AAEC/w==',
      Photo: 'R0lGODlh',
      Scan: 'AQID',
      Tiny: 255,
      Small: -32768,
      Whole: 2147483647,
      Big: '9007199254740993',
      Single: 1.1,
      Double: 0.1,
      Price: '12.3000',
      SmallPrice: '-0.5000',
      Amount: '12345678901234.5678',
      Ratio: '0.99',
      Day: '2024-02-29',
      Stamp: '2024-02-29T13:45:01.997',
      Precise: '2024-02-29T13:45:01.1234567',
      Coarse: '2024-02-29T13:45:01',
      Zoned: '2024-02-29T13:45:01.1234567+05:30',
      Minute: '2024-02-29T13:45:00',
      Clock: '23:59:59.9999999',
      Active: true,
      // SQL Server writes an empty element back with a space before />.
      Doc: '<a b="1" />',
      Node: '/1/2/',
      Place: 'POINT (-122.34 47.65)',
      OtherGuid: '6f9619ff-8b86-d011-b42d-00c04fd430c8',
      Doubled: 4294967294,
    });
    expect(row.RowGuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(row.Version).toMatch(/^[A-Za-z0-9+/]{11}=$/);

    // Read without selectExpression, tedious keeps datetime2's 100 ns (nanosecondsDelta) but not the offset.
    const { rows } = await sql<
      Record<string, unknown>
    >`select Precise, Zoned, Clock from dbo.AllTypes where Id = ${1}`.execute(db);
    expect(adapter.decodeValue(column('Precise'), rows[0]?.Precise)).toBe('2024-02-29T13:45:01.1234567');
    expect(adapter.decodeValue(column('Zoned'), rows[0]?.Zoned)).toBe('2024-02-29T08:15:01.1234567Z');
    expect(adapter.decodeValue(column('Clock'), rows[0]?.Clock)).toBe('23:59:59.9999999');
  });

  it('round-trips NULLs, including into binary and image columns', async () => {
    const nulls = Object.fromEntries(
      table.columns.filter((c) => c.isNullable && !c.isComputed && !c.isIdentity).map((c) => [c.name, null]),
    );
    const keys = await adapter.insertRow(
      db,
      { schema: 'dbo', name: 'AllTypes' },
      { ...nulls, Name: 'nulls' },
      ['Id', 'RowGuid'],
    );
    expect(keys.RowGuid).toMatch(/^[0-9a-f-]{36}$/);
    const row = await readRow(adapter, table, sql`${sql.id('Id')} = ${Number(keys.Id)}`);
    for (const name of Object.keys(nulls)) expect(row[name], name).toBeNull();
    expect(row.Active).toBe(false);
  });
});
