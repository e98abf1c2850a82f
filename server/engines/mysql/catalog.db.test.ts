import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogColumn, CatalogTable, EngineAdapter } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { createMysqlDatabase, mysqlServerUrl, type TestDatabase } from '#server/test/server-databases.ts';
import { mysqlAdapter } from './adapter.ts';
import { openMysql } from './connect.ts';
import { tableOf } from './test-support.ts';

const options = { statementTimeoutMs: 10_000, poolSize: 3 };

/** The facts of a column that a test states, in one line each. */
const facts = (c: CatalogColumn) =>
  [c.id, c.name, c.type, c.typeGroup, c.maxLength, c.precision, c.scale, c.isNullable ? 'null' : 'not null']
    .concat(c.isIdentity ? ['identity'] : [])
    .join(' ');

describe('MySQL catalog of Chinook', () => {
  let chinook: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let adapter: EngineAdapter;
  let tables: CatalogTable[];

  beforeAll(async () => {
    chinook = await loadChinook('mysql');
    db = openMysql(chinook.url, options);
    adapter = mysqlAdapter(db, { name: 'chinook', ...options });
    for (const name of ['Track', 'PlaylistTrack', 'InvoiceLine', 'Invoice']) {
      await sql`analyze table ${sql.id(name)}`.execute(db);
    }
    tables = await adapter.readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await chinook?.drop();
  });

  it('lists the 11 tables of the URL database only, none a view', () => {
    expect(tables.map((t) => t.name)).toEqual([
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
    ]);
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([chinook.name]));
    expect(tables.every((t) => !t.isView)).toBe(true);
  });

  it('reads the columns of Track and Invoice', () => {
    expect(tableOf(tables, 'Track').columns.map(facts)).toEqual([
      '1 TrackId int Number 0 10 0 not null identity',
      '2 Name varchar Text 200 0 0 not null',
      '3 AlbumId int Number 0 10 0 null',
      '4 MediaTypeId int Number 0 10 0 not null',
      '5 GenreId int Number 0 10 0 null',
      '6 Composer varchar Text 220 0 0 null',
      '7 Milliseconds int Number 0 10 0 not null',
      '8 Bytes int Number 0 10 0 null',
      '9 UnitPrice decimal Number 0 10 2 not null',
    ]);
    expect(tableOf(tables, 'Invoice').columns.map(facts)).toEqual([
      '1 InvoiceId int Number 0 10 0 not null identity',
      '2 CustomerId int Number 0 10 0 not null',
      '3 InvoiceDate datetime Date 0 0 0 not null',
      '4 BillingAddress varchar Text 70 0 0 null',
      '5 BillingCity varchar Text 40 0 0 null',
      '6 BillingState varchar Text 40 0 0 null',
      '7 BillingCountry varchar Text 40 0 0 null',
      '8 BillingPostalCode varchar Text 10 0 0 null',
      '9 Total decimal Number 0 10 2 not null',
    ]);
    const all = tables.flatMap((t) => t.columns);
    expect(all.every((c) => !c.isGuid && !c.isHidden && !c.isComputed && c.defaultValue === null)).toBe(true);
  });

  it('knows the primary keys and identity columns, the composite PlaylistTrack key having none', () => {
    const keys = Object.fromEntries(tables.map((t) => [t.name, t.primaryKey.join(',')]));
    expect(keys).toEqual({
      Album: 'AlbumId',
      Artist: 'ArtistId',
      Customer: 'CustomerId',
      Employee: 'EmployeeId',
      Genre: 'GenreId',
      Invoice: 'InvoiceId',
      InvoiceLine: 'InvoiceLineId',
      MediaType: 'MediaTypeId',
      Playlist: 'PlaylistId',
      PlaylistTrack: 'PlaylistId,TrackId',
      Track: 'TrackId',
    });
    const identities = tables.map(
      (t) =>
        `${t.name}:${t.columns
          .filter((c) => c.isIdentity)
          .map((c) => c.name)
          .join(',')}`,
    );
    expect(identities).toContain('PlaylistTrack:');
    expect(identities.filter((i) => !i.endsWith(':'))).toHaveLength(10);
    for (const table of tables.filter((t) => t.name !== 'PlaylistTrack')) {
      expect(table.columns.filter((c) => c.isIdentity).map((c) => c.name)).toEqual(table.primaryKey);
    }
  });

  it('reads every foreign key with its referenced columns', () => {
    const foreignKeys = tables.flatMap((t) =>
      t.foreignKeys.map(
        (fk) =>
          `${t.name}.${fk.name}(${fk.columns.join(',')}) -> ${fk.referencedSchema === chinook.name ? '' : '?'}${fk.referencedTable}(${fk.referencedColumns.join(',')})`,
      ),
    );
    expect(foreignKeys).toEqual([
      'Album.FK_AlbumArtistId(ArtistId) -> Artist(ArtistId)',
      'Customer.FK_CustomerSupportRepId(SupportRepId) -> Employee(EmployeeId)',
      'Employee.FK_EmployeeReportsTo(ReportsTo) -> Employee(EmployeeId)',
      'Invoice.FK_InvoiceCustomerId(CustomerId) -> Customer(CustomerId)',
      'InvoiceLine.FK_InvoiceLineInvoiceId(InvoiceId) -> Invoice(InvoiceId)',
      'InvoiceLine.FK_InvoiceLineTrackId(TrackId) -> Track(TrackId)',
      'PlaylistTrack.FK_PlaylistTrackPlaylistId(PlaylistId) -> Playlist(PlaylistId)',
      'PlaylistTrack.FK_PlaylistTrackTrackId(TrackId) -> Track(TrackId)',
      'Track.FK_TrackAlbumId(AlbumId) -> Album(AlbumId)',
      'Track.FK_TrackGenreId(GenreId) -> Genre(GenreId)',
      'Track.FK_TrackMediaTypeId(MediaTypeId) -> MediaType(MediaTypeId)',
    ]);
  });

  it('reads the primary and IFK_ indexes with InnoDB page counts and the table free space', () => {
    const indexes = tables.flatMap((t) =>
      t.indexes.map(
        (i) =>
          `${t.name}.${i.name} ${i.type}${i.isUnique ? ' unique' : ''}${i.isPrimaryKey ? ' primary' : ''} (${i.columns.join(',')})`,
      ),
    );
    expect(indexes.filter((i) => i.includes('PRIMARY'))).toHaveLength(11);
    expect(indexes.filter((i) => i.includes('.IFK_'))).toHaveLength(11);
    expect(indexes).toHaveLength(22);
    expect(indexes).toContain('PlaylistTrack.PRIMARY btree unique primary (PlaylistId,TrackId)');
    expect(indexes).toContain('PlaylistTrack.IFK_PlaylistTrackTrackId btree (TrackId)');
    expect(indexes).toContain('Track.IFK_TrackAlbumId btree (AlbumId)');
    expect(tableOf(tables, 'Track').indexes[0]?.name).toBe('PRIMARY');
    for (const index of tables.flatMap((t) => t.indexes)) {
      expect(index.allocationType).toBe('InnoDB');
      expect(index.pageCount).toBeGreaterThanOrEqual(1);
      expect(index.averageFragmentation).toBeGreaterThanOrEqual(0);
      expect(index.averageFragmentation).toBeLessThanOrEqual(100);
      expect(index.statisticsSource).toBe(
        "mysql.innodb_index_stats 'size'; information_schema.TABLES.DATA_FREE (whole table)",
      );
    }
  });

  it('takes the row estimates from InnoDB statistics', () => {
    const estimate = (name: string) => tableOf(tables, name).estimatedRows ?? -1;
    // InnoDB samples pages: after ANALYZE the estimates are close, here usually exact.
    expect(estimate('Track')).toBeGreaterThan(3503 * 0.5);
    expect(estimate('Track')).toBeLessThan(3503 * 1.5);
    expect(estimate('PlaylistTrack')).toBeGreaterThan(8715 * 0.5);
    expect(estimate('PlaylistTrack')).toBeLessThan(8715 * 1.5);
    expect(estimate('Genre')).toBeGreaterThan(0);
  });

  it('lists every non-system database when the URL names none', async () => {
    const serverDb = openMysql(mysqlServerUrl, options);
    try {
      const all = await mysqlAdapter(serverDb, { name: 'server', ...options }).readCatalog();
      const schemas = new Set(all.map((t) => t.schema));
      expect(schemas.has(chinook.name)).toBe(true);
      for (const system of ['mysql', 'information_schema', 'performance_schema', 'sys']) {
        expect(schemas.has(system)).toBe(false);
      }
      expect(all.filter((t) => t.schema === chinook.name)).toHaveLength(11);
    } finally {
      await serverDb.destroy();
    }
  });
});

describe('MySQL native types onto type groups', () => {
  let database: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let tables: CatalogTable[];

  beforeAll(async () => {
    database = await createMysqlDatabase('mysql_types');
    db = openMysql(database.url, options);
    await sql`
      create table every_type (
        id bigint not null auto_increment primary key,
        code char(3) not null,
        title varchar(100) not null default 'untitled',
        tiny tinytext, note text, medium mediumtext, body longtext,
        price decimal(18,4), rate float, ratio double,
        tiny_number tinyint, small smallint, medium_number mediumint, whole int, big bigint unsigned,
        flag tinyint(1) not null default 0, one_bit bit(1), bits bit(12), yr year,
        day date, moment datetime(6), stamp timestamp(3) null, at time(6),
        fixed binary(4), raw varbinary(16), small_blob blob, photo longblob,
        uid uuid not null default uuid(),
        doc json, status enum('new', 'done'), tags set('a', 'b', 'c'),
        doubled decimal(19,4) as (price * 2) virtual, tripled int as (whole * 3) stored,
        secret int invisible, spot point, address inet6
      )`.execute(db);
    await sql`create view every_title as select id, title from every_type`.execute(db);
    await sql`create table plain_myisam (id int primary key, label varchar(10), key label_key (label)) engine = MyISAM`.execute(
      db,
    );
    tables = await mysqlAdapter(db, { name: 'types', ...options }).readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('maps each native type', () => {
    const columns = tableOf(tables, 'every_type').columns.map(
      (c) => `${c.name}: ${c.type} ${c.typeGroup} ${c.maxLength} ${c.precision} ${c.scale}`,
    );
    expect(columns).toEqual([
      'id: bigint Number 0 19 0',
      'code: char Text 3 0 0',
      'title: varchar Text 100 0 0',
      'tiny: tinytext Text 255 0 0',
      'note: text Text 65535 0 0',
      'medium: mediumtext Text 16777215 0 0',
      'body: longtext Text -1 0 0',
      'price: decimal Number 0 18 4',
      'rate: float Number 0 12 0',
      'ratio: double Number 0 22 0',
      'tiny_number: tinyint Number 0 3 0',
      'small: smallint Number 0 5 0',
      'medium_number: mediumint Number 0 7 0',
      'whole: int Number 0 10 0',
      'big: bigint Number 0 20 0',
      'flag: tinyint bit 0 3 0',
      'one_bit: bit bit 0 1 0',
      'bits: bit Number 0 12 0',
      'yr: year Number 0 0 0',
      'day: date Date 0 0 0',
      'moment: datetime Date 0 0 6',
      'stamp: timestamp Date 0 0 3',
      'at: time Time 0 0 6',
      'fixed: binary Binary 4 0 0',
      'raw: varbinary Binary 16 0 0',
      'small_blob: blob Binary 65535 0 0',
      'photo: longblob image -1 0 0',
      'uid: uuid guid 0 0 0',
      'doc: json Other -1 0 0',
      'status: enum Text 4 0 0',
      'tags: set Text 5 0 0',
      'doubled: decimal Number 0 19 4',
      'tripled: int Number 0 10 0',
      'secret: int Number 0 10 0',
      'spot: point Other 0 0 0',
      'address: inet6 Other 0 0 0',
    ]);
  });

  it('reads identity, guid, computed, hidden, nullability and defaults', () => {
    const table = tableOf(tables, 'every_type');
    const flagged = (flag: 'isIdentity' | 'isGuid' | 'isComputed' | 'isHidden') =>
      table.columns.filter((c) => c[flag]).map((c) => c.name);
    expect(flagged('isIdentity')).toEqual(['id']);
    expect(flagged('isGuid')).toEqual(['uid']);
    expect(flagged('isComputed')).toEqual(['doubled', 'tripled']);
    expect(flagged('isHidden')).toEqual(['secret']);
    expect(table.columns.filter((c) => !c.isNullable).map((c) => c.name)).toEqual([
      'id',
      'code',
      'title',
      'flag',
      'uid',
    ]);
    const defaults = Object.fromEntries(
      table.columns.filter((c) => c.defaultValue !== null).map((c) => [c.name, c.defaultValue]),
    );
    // As MariaDB reports them (string literals quoted); a DEFAULT NULL is no default.
    expect(defaults).toEqual({ title: "'untitled'", flag: '0', uid: 'uuid()' });
    expect(table.primaryKey).toEqual(['id']);
  });

  it('lists views without estimates and other storage engines with their own figures', () => {
    const view = tableOf(tables, 'every_title');
    expect(view.isView).toBe(true);
    expect(view.estimatedRows).toBeNull();
    expect(view.columns.map((c) => c.name)).toEqual(['id', 'title']);
    expect(view.indexes).toEqual([]);
    const myisam = tableOf(tables, 'plain_myisam');
    expect(myisam.estimatedRows).toBe(0);
    expect(myisam.indexes.map((i) => [i.name, i.allocationType, i.pageCount])).toEqual([
      ['PRIMARY', 'MyISAM', null],
      ['label_key', 'MyISAM', null],
    ]);
  });
});
