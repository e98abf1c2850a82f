import * as tedious from 'tedious';
import { describe, expect, it } from 'vitest';
import { catalogQueries, readCatalog } from './catalog.ts';
import { compileOnlyDb, recordingDb, squash, tableOf, type RecordedQuery } from './test-support.ts';

/*
 * The catalog without a server: the queries as compiled, and the catalog assembled from rows shaped as tedious
 * answers them (bit as boolean, sums of bigint as strings). Chinook's own facts are checked live (live.db.test.ts).
 */

type Row = Record<string, unknown>;

const ALBUM = 101;
const TRACK = 102;
const PLAYLIST_TRACK = 103;
const EVENT = 104;
const SALES_VIEW = 105;
const FACT = 106;

const tables: Row[] = [
  { object_id: ALBUM, schema_name: 'dbo', object_name: 'Album', is_view: false, estimated_rows: '347' },
  {
    object_id: PLAYLIST_TRACK,
    schema_name: 'dbo',
    object_name: 'PlaylistTrack',
    is_view: false,
    estimated_rows: '8715',
  },
  { object_id: TRACK, schema_name: 'dbo', object_name: 'Track', is_view: false, estimated_rows: '3503' },
  { object_id: EVENT, schema_name: 'audit', object_name: 'Event', is_view: false, estimated_rows: '0' },
  { object_id: FACT, schema_name: 'dw', object_name: 'Fact', is_view: false, estimated_rows: null },
  { object_id: SALES_VIEW, schema_name: 'report', object_name: 'Sales', is_view: true, estimated_rows: null },
];

const column = (objectId: number, columnId: number, name: string, type: string, fields: Row = {}): Row => ({
  object_id: objectId,
  column_id: columnId,
  column_name: name,
  type_name: type,
  max_length: 4,
  precision: 10,
  scale: 0,
  is_nullable: false,
  is_identity: false,
  is_computed: false,
  is_rowguidcol: false,
  is_hidden: false,
  generated_always_type: 0,
  default_definition: null,
  ...fields,
});

const columns: Row[] = [
  column(ALBUM, 1, 'AlbumId', 'int', { is_identity: true }),
  column(ALBUM, 2, 'Title', 'nvarchar', { max_length: 320, precision: 0 }),
  column(ALBUM, 3, 'ArtistId', 'int'),
  column(TRACK, 1, 'TrackId', 'int', { is_identity: true }),
  column(TRACK, 2, 'Name', 'nvarchar', { max_length: 400, precision: 0 }),
  column(TRACK, 3, 'AlbumId', 'int', { is_nullable: true }),
  // A dropped column leaves a gap in column_id; `id` is the position.
  column(TRACK, 5, 'UnitPrice', 'numeric', { max_length: 5, precision: 10, scale: 2 }),
  column(PLAYLIST_TRACK, 1, 'PlaylistId', 'int'),
  column(PLAYLIST_TRACK, 2, 'TrackId', 'int'),
  column(EVENT, 1, 'EventId', 'uniqueidentifier', {
    max_length: 16,
    precision: 0,
    default_definition: '(newsequentialid())',
  }),
  column(EVENT, 2, 'CorrelationId', 'uniqueidentifier', { max_length: 16, precision: 0, is_nullable: true }),
  column(EVENT, 3, 'Version', 'timestamp', { max_length: 8, precision: 0 }),
  column(EVENT, 4, 'ValidFrom', 'datetime2', {
    max_length: 8,
    precision: 27,
    scale: 7,
    generated_always_type: 1,
    is_hidden: true,
  }),
  column(EVENT, 5, 'ValidTo', 'datetime2', {
    max_length: 8,
    precision: 27,
    scale: 7,
    generated_always_type: 2,
    is_hidden: true,
  }),
  column(EVENT, 6, 'Total', 'money', {
    max_length: 8,
    precision: 19,
    scale: 4,
    is_computed: true,
    is_nullable: true,
  }),
  column(EVENT, 7, 'Created', 'datetime', {
    max_length: 8,
    precision: 23,
    scale: 3,
    default_definition: '(getdate())',
  }),
  column(FACT, 1, 'Amount', 'decimal', { max_length: 9, precision: 18, scale: 4 }),
  column(SALES_VIEW, 1, 'Total', 'numeric', { max_length: 17, precision: 38, scale: 2, is_nullable: true }),
  // Rows of an object the tables query did not answer (created in between) are left out.
  column(999, 1, 'Ghost', 'int'),
];

const index = (
  objectId: number,
  indexId: number,
  name: string,
  type: string,
  columnName: string | null,
  keyOrdinal: number | null,
  fields: Row = {},
): Row => ({
  object_id: objectId,
  index_id: indexId,
  index_name: name,
  type_desc: type,
  is_unique: false,
  is_primary_key: false,
  column_name: columnName,
  key_ordinal: keyOrdinal,
  ...fields,
});

const indexes: Row[] = [
  index(ALBUM, 1, 'PK_Album', 'CLUSTERED', 'AlbumId', 1, { is_unique: true, is_primary_key: true }),
  index(ALBUM, 2, 'IFK_AlbumArtistId', 'NONCLUSTERED', 'ArtistId', 1),
  index(TRACK, 1, 'PK_Track', 'CLUSTERED', 'TrackId', 1, { is_unique: true, is_primary_key: true }),
  index(TRACK, 3, 'IX_Track_Name', 'NONCLUSTERED', 'Name', 1),
  // The primary key of a heap: the heap itself (index_id 0) is not an index.
  index(PLAYLIST_TRACK, 2, 'PK_PlaylistTrack', 'NONCLUSTERED', 'PlaylistId', 1, {
    is_unique: true,
    is_primary_key: true,
  }),
  index(PLAYLIST_TRACK, 2, 'PK_PlaylistTrack', 'NONCLUSTERED', 'TrackId', 2, {
    is_unique: true,
    is_primary_key: true,
  }),
  index(EVENT, 1, 'PK_Event', 'CLUSTERED', 'EventId', 1, { is_unique: true, is_primary_key: true }),
  // A columnstore index has no key columns: the query's join on key_ordinal > 0 answers one row without a column.
  index(FACT, 1, 'CCI_Fact', 'CLUSTERED COLUMNSTORE', null, null),
];

const foreignKeys: Row[] = [
  {
    object_id: ALBUM,
    constraint_name: 'FK_AlbumArtistId',
    column_name: 'ArtistId',
    referenced_schema: 'dbo',
    referenced_table: 'Artist',
    referenced_column: 'ArtistId',
    constraint_column_id: 1,
  },
  {
    object_id: TRACK,
    constraint_name: 'FK_TrackAlbumId',
    column_name: 'AlbumId',
    referenced_schema: 'dbo',
    referenced_table: 'Album',
    referenced_column: 'AlbumId',
    constraint_column_id: 1,
  },
  {
    object_id: PLAYLIST_TRACK,
    constraint_name: 'FK_Pair',
    column_name: 'PlaylistId',
    referenced_schema: 'dbo',
    referenced_table: 'Pair',
    referenced_column: 'A',
    constraint_column_id: 1,
  },
  {
    object_id: PLAYLIST_TRACK,
    constraint_name: 'FK_Pair',
    column_name: 'TrackId',
    referenced_schema: 'dbo',
    referenced_table: 'Pair',
    referenced_column: 'B',
    constraint_column_id: 2,
  },
];

const physicalStats: Row[] = [
  {
    object_id: ALBUM,
    index_id: 1,
    allocation_type: 'IN_ROW_DATA',
    page_count: '3',
    fragmentation: 33.333333,
  },
  { object_id: ALBUM, index_id: 2, allocation_type: 'IN_ROW_DATA', page_count: '2', fragmentation: 50 },
  {
    object_id: TRACK,
    index_id: 1,
    allocation_type: 'IN_ROW_DATA',
    page_count: '52',
    fragmentation: 1.9230769,
  },
  { object_id: TRACK, index_id: 1, allocation_type: 'LOB_DATA', page_count: '4', fragmentation: null },
  {
    object_id: PLAYLIST_TRACK,
    index_id: 2,
    allocation_type: 'IN_ROW_DATA',
    page_count: '0',
    fragmentation: 0,
  },
  { object_id: FACT, index_id: 1, allocation_type: 'LOB_DATA', page_count: '120', fragmentation: null },
];

const allocationUnits: Row[] = [
  { object_id: ALBUM, index_id: 1, allocation_type: 'IN_ROW_DATA', page_count: '4', fragmentation: null },
  { object_id: TRACK, index_id: 1, allocation_type: 'IN_ROW_DATA', page_count: '56', fragmentation: null },
];

function answerWith(overrides: { stats?: Row[] | Error; allocation?: Row[] | Error } = {}) {
  return (query: RecordedQuery): Row[] | Error => {
    const text = query.sql;
    if (text.includes('dm_db_index_physical_stats')) return overrides.stats ?? physicalStats;
    if (text.includes('sys.allocation_units')) return overrides.allocation ?? allocationUnits;
    if (text.includes('estimated_rows')) return tables;
    if (text.includes('default_definition')) return columns;
    if (text.includes('constraint_column_id')) return foreignKeys;
    if (text.includes('key_ordinal')) return indexes;
    return new Error(`unexpected query: ${text}`);
  };
}

const permissionDenied = () => {
  const error = new tedious.RequestError(
    "VIEW DATABASE STATE permission denied in database 'erp'.",
    'EREQUEST',
  );
  error.number = 300;
  return error;
};

describe('the catalog queries', () => {
  const db = compileOnlyDb();
  const compiled = Object.fromEntries(
    Object.entries(catalogQueries).map(([kind, query]) => [kind, query.compile(db)]),
  );

  it('are constant SQL: no parameters, nothing built from names', () => {
    for (const query of Object.values(compiled)) expect(query.parameters).toEqual([]);
  });

  it('read user tables and views only, outside the system and role schemas', () => {
    for (const query of Object.values(compiled)) {
      const text = squash(query.sql);
      expect(text).toContain(
        'from sys.tables where is_ms_shipped = 0 union all select object_id, schema_id, name, type, cast(0 as bit) from sys.views where is_ms_shipped = 0',
      );
      expect(text).toContain(
        "s.name not in ( N'sys', N'INFORMATION_SCHEMA', N'guest', N'db_owner', N'db_accessadmin', N'db_securityadmin', N'db_ddladmin', N'db_backupoperator', N'db_datareader', N'db_datawriter', N'db_denydatareader', N'db_denydatawriter')",
      );
      expect(text).toContain("ep.name = N'microsoft_database_tools_support'");
    }
  });

  it('take rows from sys.partitions, key columns in key order, foreign keys in column order, figures from the DMV', () => {
    expect(squash(compiled.tables!.sql)).toContain(
      'sum(p.rows) from sys.partitions as p where p.object_id = uo.object_id and p.index_id in (0, 1)',
    );
    expect(squash(compiled.columns!.sql)).toContain(
      'left join sys.types as bt on bt.user_type_id = t.system_type_id',
    );
    const indexSql = squash(compiled.indexes!.sql);
    expect(indexSql).toContain('ic.key_ordinal > 0');
    expect(indexSql).toContain('where i.type <> 0 and i.is_hypothetical = 0 and i.is_disabled = 0');
    expect(indexSql).toContain('order by i.object_id, i.index_id, ic.key_ordinal');
    expect(squash(compiled.foreignKeys!.sql)).toContain(
      'order by fk.parent_object_id, fk.name, fkc.constraint_column_id',
    );
    expect(squash(compiled.physicalStats!.sql)).toContain(
      "from sys.dm_db_index_physical_stats(db_id(), null, null, null, 'LIMITED') as ps",
    );
    expect(squash(compiled.allocationUnits!.sql)).toContain('sum(au.used_pages) as page_count');
  });
});

describe('readCatalog', () => {
  it('runs one query per kind, whatever the number of tables', async () => {
    const { db, queries } = recordingDb(answerWith());
    await readCatalog(db);
    expect(queries).toHaveLength(5);
  });

  it('answers tables and views with their estimates', async () => {
    const { db } = recordingDb(answerWith());
    const catalog = await readCatalog(db);
    expect(catalog.map((t) => [t.schema, t.name, t.isView, t.estimatedRows])).toEqual([
      ['dbo', 'Album', false, 347],
      ['dbo', 'PlaylistTrack', false, 8715],
      ['dbo', 'Track', false, 3503],
      ['audit', 'Event', false, 0],
      ['dw', 'Fact', false, null],
      ['report', 'Sales', true, null],
    ]);
  });

  it('answers columns with their position, type, lengths in characters and flags', async () => {
    const { db } = recordingDb(answerWith());
    const catalog = await readCatalog(db);
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
      [4, 'UnitPrice', 'numeric', 'Number', 0, 10, 2, false, false],
    ]);
    const event = tableOf(catalog, 'Event');
    const flags = event.columns.map((c) => ({
      name: c.name,
      guid: c.isGuid,
      computed: c.isComputed,
      hidden: c.isHidden,
      default: c.defaultValue,
    }));
    expect(flags).toEqual([
      { name: 'EventId', guid: true, computed: false, hidden: false, default: '(newsequentialid())' },
      { name: 'CorrelationId', guid: false, computed: false, hidden: false, default: null },
      { name: 'Version', guid: false, computed: true, hidden: false, default: null },
      { name: 'ValidFrom', guid: false, computed: true, hidden: true, default: null },
      { name: 'ValidTo', guid: false, computed: true, hidden: true, default: null },
      { name: 'Total', guid: false, computed: true, hidden: false, default: null },
      { name: 'Created', guid: false, computed: false, hidden: false, default: '(getdate())' },
    ]);
    expect(event.columns.find((c) => c.name === 'Version')).toMatchObject({
      type: 'timestamp',
      typeGroup: 'Binary',
      maxLength: 8,
    });
    expect(catalog.some((t) => t.columns.some((c) => c.name === 'Ghost'))).toBe(false);
  });

  it('answers the primary key in key order, indexes without heaps, and foreign keys in order', async () => {
    const { db } = recordingDb(answerWith());
    const catalog = await readCatalog(db);
    expect(tableOf(catalog, 'PlaylistTrack').primaryKey).toEqual(['PlaylistId', 'TrackId']);
    expect(tableOf(catalog, 'Album').primaryKey).toEqual(['AlbumId']);
    expect(tableOf(catalog, 'Fact').primaryKey).toEqual([]);
    expect(tableOf(catalog, 'Album').indexes).toEqual([
      {
        name: 'PK_Album',
        type: 'CLUSTERED',
        isUnique: true,
        isPrimaryKey: true,
        columns: ['AlbumId'],
        allocationType: 'IN_ROW_DATA',
        pageCount: 3,
        averageFragmentation: 33.33,
        statisticsSource: 'sys.dm_db_index_physical_stats',
      },
      {
        name: 'IFK_AlbumArtistId',
        type: 'NONCLUSTERED',
        isUnique: false,
        isPrimaryKey: false,
        columns: ['ArtistId'],
        allocationType: 'IN_ROW_DATA',
        pageCount: 2,
        averageFragmentation: 50,
        statisticsSource: 'sys.dm_db_index_physical_stats',
      },
    ]);
    expect(tableOf(catalog, 'Track').indexes[0]).toMatchObject({
      allocationType: 'IN_ROW_DATA, LOB_DATA',
      pageCount: 56,
      averageFragmentation: 1.92,
    });
    expect(tableOf(catalog, 'PlaylistTrack').indexes).toMatchObject([
      { name: 'PK_PlaylistTrack', columns: ['PlaylistId', 'TrackId'], pageCount: 0, averageFragmentation: 0 },
    ]);
    expect(tableOf(catalog, 'Fact').indexes).toMatchObject([
      {
        name: 'CCI_Fact',
        type: 'CLUSTERED COLUMNSTORE',
        columns: [],
        pageCount: 120,
        averageFragmentation: null,
      },
    ]);
    // An index the statistics do not cover (new since, or memory-optimized) says so with nulls.
    expect(tableOf(catalog, 'Track').indexes[1]).toMatchObject({
      name: 'IX_Track_Name',
      pageCount: null,
      averageFragmentation: null,
      allocationType: null,
      statisticsSource: null,
    });
    expect(tableOf(catalog, 'PlaylistTrack').foreignKeys).toEqual([
      {
        name: 'FK_Pair',
        columns: ['PlaylistId', 'TrackId'],
        referencedSchema: 'dbo',
        referencedTable: 'Pair',
        referencedColumns: ['A', 'B'],
        onDelete: 'no action',
      },
    ]);
    expect(tableOf(catalog, 'Track').foreignKeys).toEqual([
      {
        name: 'FK_TrackAlbumId',
        columns: ['AlbumId'],
        referencedSchema: 'dbo',
        referencedTable: 'Album',
        referencedColumns: ['AlbumId'],
        onDelete: 'no action',
      },
    ]);
  });

  it('falls back to sys.allocation_units without VIEW DATABASE STATE: pages, no fragmentation', async () => {
    const { db, queries } = recordingDb(answerWith({ stats: permissionDenied() }));
    const catalog = await readCatalog(db);
    expect(queries).toHaveLength(6);
    expect(tableOf(catalog, 'Album').indexes[0]).toMatchObject({
      pageCount: 4,
      averageFragmentation: null,
      allocationType: 'IN_ROW_DATA',
      statisticsSource: 'sys.allocation_units',
    });
    expect(tableOf(catalog, 'Album').indexes[1]).toMatchObject({ pageCount: null, statisticsSource: null });
  });

  it('still answers the catalog, figures null, when neither source can be read', async () => {
    const { db } = recordingDb(answerWith({ stats: permissionDenied(), allocation: permissionDenied() }));
    const catalog = await readCatalog(db);
    expect(tableOf(catalog, 'Track').indexes[0]).toMatchObject({
      pageCount: null,
      averageFragmentation: null,
      allocationType: null,
      statisticsSource: null,
    });
  });
});
