import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { CatalogColumn, CatalogTable } from '#server/engines/adapter.ts';
import { defaultEngineOptions, type DynamicSchema } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { postgresAdapter } from './adapter.ts';
import { openPostgres } from './connect.ts';

/* The PostgreSQL catalog against the real server: Chinook's facts exactly, then one column of every type. */

const find = (tables: CatalogTable[], name: string, schema = 'public') => {
  const table = tables.find((t) => t.schema === schema && t.name === name);
  if (!table) throw new Error(`${schema}.${name} is not in the catalog`);
  return table;
};
const column = (table: CatalogTable, name: string) => {
  const found = table.columns.find((c) => c.name === name);
  if (!found) throw new Error(`${table.name}.${name} is not in the catalog`);
  return found;
};
/** The facts of a column as a compact tuple: type, group, maxLength, precision, scale, nullable. */
const facts = (c: CatalogColumn) => [c.type, c.typeGroup, c.maxLength, c.precision, c.scale, c.isNullable];
const intColumn = { type: 'int4', typeGroup: 'Number', maxLength: 0, precision: 10, scale: 0 };

describe('the PostgreSQL catalog of Chinook', () => {
  let database: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let tables: CatalogTable[];

  beforeAll(async () => {
    database = await loadChinook('postgres');
    db = openPostgres(database.url, defaultEngineOptions);
    await sql`analyze`.execute(db);
    tables = await postgresAdapter(db, defaultEngineOptions, 'chinook').readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('lists the 11 tables of the public schema and nothing of the system schemas', () => {
    expect(tables.map((t) => `${t.schema}.${t.name}`)).toEqual(
      [
        'album',
        'artist',
        'customer',
        'employee',
        'genre',
        'invoice',
        'invoice_line',
        'media_type',
        'playlist',
        'playlist_track',
        'track',
      ].map((name) => `public.${name}`),
    );
    expect(tables.every((t) => !t.isView)).toBe(true);
  });

  it('reads the columns of track with their types, lengths, nullability and identity', () => {
    const track = find(tables, 'track');
    expect(track.columns).toEqual(
      [
        { id: 1, name: 'track_id', ...intColumn, isNullable: false, isIdentity: true },
        {
          id: 2,
          name: 'name',
          type: 'varchar',
          typeGroup: 'Text',
          maxLength: 200,
          precision: 0,
          scale: 0,
          isNullable: false,
          isIdentity: false,
        },
        { id: 3, name: 'album_id', ...intColumn, isNullable: true, isIdentity: false },
        { id: 4, name: 'media_type_id', ...intColumn, isNullable: false, isIdentity: false },
        { id: 5, name: 'genre_id', ...intColumn, isNullable: true, isIdentity: false },
        {
          id: 6,
          name: 'composer',
          type: 'varchar',
          typeGroup: 'Text',
          maxLength: 220,
          precision: 0,
          scale: 0,
          isNullable: true,
          isIdentity: false,
        },
        { id: 7, name: 'milliseconds', ...intColumn, isNullable: false, isIdentity: false },
        { id: 8, name: 'bytes', ...intColumn, isNullable: true, isIdentity: false },
        {
          id: 9,
          name: 'unit_price',
          type: 'numeric',
          typeGroup: 'Number',
          maxLength: 0,
          precision: 10,
          scale: 2,
          isNullable: false,
          isIdentity: false,
        },
      ].map((c) => ({ ...c, isGuid: false, isHidden: false, isComputed: false, defaultValue: null })),
    );
    expect(track.primaryKey).toEqual(['track_id']);
  });

  it('reads invoice: a timestamp, the numeric(10,2) total and nullable billing columns', () => {
    const invoice = find(tables, 'invoice');
    expect(invoice.columns.map((c) => c.name)).toEqual([
      'invoice_id',
      'customer_id',
      'invoice_date',
      'billing_address',
      'billing_city',
      'billing_state',
      'billing_country',
      'billing_postal_code',
      'total',
    ]);
    expect(facts(column(invoice, 'invoice_date'))).toEqual(['timestamp', 'Date', 0, 0, 6, false]);
    expect(facts(column(invoice, 'billing_postal_code'))).toEqual(['varchar', 'Text', 10, 0, 0, true]);
    expect(facts(column(invoice, 'total'))).toEqual(['numeric', 'Number', 0, 10, 2, false]);
    expect(column(invoice, 'invoice_id').isIdentity).toBe(true);
    expect(invoice.columns.filter((c) => c.isIdentity).map((c) => c.name)).toEqual(['invoice_id']);
  });

  it('reads primary keys in key order, the composite playlist_track key without identity', () => {
    expect(Object.fromEntries(tables.map((t) => [t.name, t.primaryKey]))).toEqual({
      album: ['album_id'],
      artist: ['artist_id'],
      customer: ['customer_id'],
      employee: ['employee_id'],
      genre: ['genre_id'],
      invoice: ['invoice_id'],
      invoice_line: ['invoice_line_id'],
      media_type: ['media_type_id'],
      playlist: ['playlist_id'],
      playlist_track: ['playlist_id', 'track_id'],
      track: ['track_id'],
    });
    expect(find(tables, 'playlist_track').columns.some((c) => c.isIdentity)).toBe(false);
  });

  it('reads every foreign key with its referenced table and columns', () => {
    const keys = tables.flatMap((t) =>
      t.foreignKeys.map(
        (fk) =>
          `${t.name}.${fk.name}: (${fk.columns.join(',')}) -> ${fk.referencedSchema}.${fk.referencedTable}(${fk.referencedColumns.join(',')})`,
      ),
    );
    expect(keys).toEqual([
      'album.album_artist_id_fkey: (artist_id) -> public.artist(artist_id)',
      'customer.customer_support_rep_id_fkey: (support_rep_id) -> public.employee(employee_id)',
      'employee.employee_reports_to_fkey: (reports_to) -> public.employee(employee_id)',
      'invoice.invoice_customer_id_fkey: (customer_id) -> public.customer(customer_id)',
      'invoice_line.invoice_line_invoice_id_fkey: (invoice_id) -> public.invoice(invoice_id)',
      'invoice_line.invoice_line_track_id_fkey: (track_id) -> public.track(track_id)',
      'playlist_track.playlist_track_playlist_id_fkey: (playlist_id) -> public.playlist(playlist_id)',
      'playlist_track.playlist_track_track_id_fkey: (track_id) -> public.track(track_id)',
      'track.track_album_id_fkey: (album_id) -> public.album(album_id)',
      'track.track_genre_id_fkey: (genre_id) -> public.genre(genre_id)',
      'track.track_media_type_id_fkey: (media_type_id) -> public.media_type(media_type_id)',
    ]);
  });

  it('reads the foreign-key and primary-key indexes with page counts from pg_class', () => {
    const track = find(tables, 'track');
    expect(track.indexes.map((i) => [i.name, i.type, i.isUnique, i.isPrimaryKey, i.columns])).toEqual([
      ['track_album_id_idx', 'btree', false, false, ['album_id']],
      ['track_genre_id_idx', 'btree', false, false, ['genre_id']],
      ['track_media_type_id_idx', 'btree', false, false, ['media_type_id']],
      ['track_pkey', 'btree', true, true, ['track_id']],
    ]);
    expect(
      find(tables, 'playlist_track').indexes.map((i) => [i.name, i.isUnique, i.isPrimaryKey, i.columns]),
    ).toEqual([
      ['playlist_track_pkey', true, true, ['playlist_id', 'track_id']],
      ['playlist_track_playlist_id_idx', false, false, ['playlist_id']],
      ['playlist_track_track_id_idx', false, false, ['track_id']],
    ]);
    expect(tables.flatMap((t) => t.indexes).length).toBe(22);
    for (const index of tables.flatMap((t) => t.indexes)) {
      expect(index.allocationType).toBeNull();
      expect(index.averageFragmentation).toBeNull();
      expect(index.statisticsSource).toBe('pg_class.relpages');
      expect(index.pageCount).toBeGreaterThanOrEqual(2); // a metapage and at least one leaf
    }
  });

  it('estimates row counts from the statistics after ANALYZE', () => {
    const estimates = Object.fromEntries(tables.map((t) => [t.name, t.estimatedRows]));
    // Chinook's row counts; ANALYZE reads every page of tables this small, so the estimates are exact.
    expect(estimates).toEqual({
      album: 347,
      artist: 275,
      customer: 59,
      employee: 8,
      genre: 25,
      invoice: 412,
      invoice_line: 2240,
      media_type: 5,
      playlist: 18,
      playlist_track: 8715,
      track: 3503,
    });
  });

  it('measures btree fragmentation with pgstatindex once the pgstattuple extension is installed', async () => {
    await sql`create extension pgstattuple`.execute(db);
    // Random keys split leaf pages out of order: a fragmented index.
    await sql`create table scattered (v text)`.execute(db);
    await sql`create index scattered_v on scattered (v)`.execute(db);
    await sql`create index scattered_hash on scattered using hash (v)`.execute(db);
    await sql`insert into scattered select md5(g::text) from generate_series(1, 20000) g`.execute(db);
    const measured = await postgresAdapter(db, defaultEngineOptions, 'chinook').readCatalog();

    const btrees = measured.flatMap((t) => t.indexes).filter((i) => i.type === 'btree');
    expect(btrees.length).toBe(23);
    for (const index of btrees) {
      expect(index.statisticsSource).toBe('pgstatindex');
      expect(index.averageFragmentation).toBeGreaterThanOrEqual(0);
      expect(index.averageFragmentation).toBeLessThanOrEqual(100);
      expect(Number.isInteger(index.pageCount)).toBe(true);
      expect(index.pageCount).toBeGreaterThanOrEqual(2);
    }
    const scattered = find(measured, 'scattered');
    const [hash, btree] = [scattered.indexes[0], scattered.indexes[1]];
    expect(btree?.name).toBe('scattered_v');
    expect(btree?.averageFragmentation).toBeGreaterThan(10);
    // pgstatindex measures btree indexes only: a hash index keeps relpages and says so.
    expect(hash).toMatchObject({
      name: 'scattered_hash',
      type: 'hash',
      averageFragmentation: null,
      statisticsSource: 'pg_class.relpages',
    });
    // Never vacuumed nor analysed: no estimate rather than a made-up one.
    expect(scattered.estimatedRows).toBeNull();
  });
});

describe('the PostgreSQL catalog of every native type', () => {
  let database: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let tables: CatalogTable[];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    db = openPostgres(database.url, defaultEngineOptions);
    await sql`create extension citext`.execute(db);
    await sql`create type mood as enum ('sad', 'ok', 'happy')`.execute(db);
    await sql`create domain short_code as varchar(5) not null`.execute(db);
    await sql`create domain price as numeric(8, 3)`.execute(db);
    await sql`create domain dear_price as price`.execute(db);
    await sql`
      create table every_type (
        id bigint generated always as identity primary key,
        counter serial,
        chosen int generated by default as identity,
        code char(3) not null,
        name varchar(40) not null,
        any_length varchar,
        notes text,
        label citext,
        small smallint,
        whole integer default 7,
        big bigint,
        ratio real,
        precise double precision,
        amount numeric(12, 4),
        any_number numeric,
        cash money,
        born date,
        at_local timestamp,
        at_utc timestamptz,
        at_ms timestamp(3),
        alarm time,
        alarm_tz timetz(0),
        span interval,
        flag boolean not null default false,
        one_bit bit(1),
        bits bit(8),
        some_bits varbit(16),
        data bytea,
        avatar bytea,
        uid uuid default gen_random_uuid(),
        doc json,
        docb jsonb,
        tags text[],
        scores int4[],
        feeling mood,
        shortcode short_code,
        cost price,
        dear dear_price,
        address inet,
        during tsrange,
        page xml,
        doubled numeric(13, 4) generated always as (amount * 2) stored
      )`.execute(db);
    await sql`alter table every_type drop column notes`.execute(db);
    await sql`create schema sales`.execute(db);
    await sql`create table sales.region (country char(2), code int, name text, primary key (country, code))`.execute(
      db,
    );
    await sql`
      create table sales.shop (
        id int primary key,
        region_code int,
        region_country char(2),
        name text,
        foreign key (region_code, region_country) references sales.region (code, country)
      )`.execute(db);
    await sql`create index shop_lower_name on sales.shop (lower(name), id) include (region_code)`.execute(db);
    await sql`create index shop_brin on sales.shop using brin (id)`.execute(db);
    await sql`create index every_gin on every_type using gin (docb)`.execute(db);
    await sql`create unique index every_code on every_type (code) where code <> 'xxx'`.execute(db);
    await sql`create view sales.shop_names as select id, name from sales.shop`.execute(db);
    await sql`create materialized view sales.shop_count as select count(*) as n from sales.shop`.execute(db);
    await sql`create table sales.sale (id int, sold date not null) partition by range (sold)`.execute(db);
    await sql`create table sales.sale_2024 partition of sales.sale for values from ('2024-01-01') to ('2025-01-01')`.execute(
      db,
    );
    await sql`create index sale_sold on sales.sale (sold)`.execute(db);
    await sql`create temp table scratch (id int)`.execute(db);
    await sql`analyze sales.shop_count`.execute(db);
    tables = await postgresAdapter(db, defaultEngineOptions, 'types').readCatalog();
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  it('maps every native type onto its type group with lengths, precision and scale', () => {
    const table = find(tables, 'every_type');
    const mapped = Object.fromEntries(table.columns.map((c) => [c.name, facts(c)]));
    expect(mapped).toEqual({
      id: ['int8', 'Number', 0, 19, 0, false],
      counter: ['int4', 'Number', 0, 10, 0, false],
      chosen: ['int4', 'Number', 0, 10, 0, false],
      code: ['bpchar', 'Text', 3, 0, 0, false],
      name: ['varchar', 'Text', 40, 0, 0, false],
      any_length: ['varchar', 'Text', -1, 0, 0, true],
      label: ['citext', 'Text', -1, 0, 0, true],
      small: ['int2', 'Number', 0, 5, 0, true],
      whole: ['int4', 'Number', 0, 10, 0, true],
      big: ['int8', 'Number', 0, 19, 0, true],
      ratio: ['float4', 'Number', 0, 24, 0, true],
      precise: ['float8', 'Number', 0, 53, 0, true],
      amount: ['numeric', 'Number', 0, 12, 4, true],
      any_number: ['numeric', 'Number', 0, 0, 0, true],
      cash: ['money', 'Number', 0, 19, 2, true],
      born: ['date', 'Date', 0, 0, 0, true],
      at_local: ['timestamp', 'Date', 0, 0, 6, true],
      at_utc: ['timestamptz', 'Date', 0, 0, 6, true],
      at_ms: ['timestamp', 'Date', 0, 0, 3, true],
      alarm: ['time', 'Time', 0, 0, 6, true],
      alarm_tz: ['timetz', 'Time', 0, 0, 0, true],
      span: ['interval', 'Other', 0, 0, 0, true],
      flag: ['bool', 'bit', 0, 0, 0, false],
      one_bit: ['bit', 'bit', 0, 0, 0, true],
      bits: ['bit', 'Other', 8, 0, 0, true],
      some_bits: ['varbit', 'Other', 16, 0, 0, true],
      data: ['bytea', 'Binary', -1, 0, 0, true],
      avatar: ['bytea', 'image', -1, 0, 0, true],
      uid: ['uuid', 'guid', 0, 0, 0, true],
      doc: ['json', 'Other', -1, 0, 0, true],
      docb: ['jsonb', 'Other', -1, 0, 0, true],
      tags: ['text[]', 'Other', -1, 0, 0, true],
      scores: ['int4[]', 'Other', -1, 0, 0, true],
      feeling: ['mood', 'Text', 0, 0, 0, true],
      shortcode: ['varchar', 'Text', 5, 0, 0, false],
      cost: ['numeric', 'Number', 0, 8, 3, true],
      dear: ['numeric', 'Number', 0, 8, 3, true],
      address: ['inet', 'Other', 0, 0, 0, true],
      during: ['tsrange', 'Other', 0, 0, 0, true],
      page: ['xml', 'Other', -1, 0, 0, true],
      doubled: ['numeric', 'Number', 0, 13, 4, true],
    });
    // Ordinal positions count the live columns from 1 (notes was dropped).
    expect(table.columns.map((c) => c.id)).toEqual(table.columns.map((_, i) => i + 1));
  });

  it('reads identity (identity columns and serial), computed, guid and default values', () => {
    const table = find(tables, 'every_type');
    expect(table.columns.filter((c) => c.isIdentity).map((c) => c.name)).toEqual(['id', 'counter', 'chosen']);
    expect(table.columns.filter((c) => c.isComputed).map((c) => c.name)).toEqual(['doubled']);
    expect(table.columns.filter((c) => c.isGuid).map((c) => c.name)).toEqual(['uid']);
    expect(table.columns.some((c) => c.isHidden)).toBe(false);
    expect(column(table, 'counter').defaultValue).toBe("nextval('every_type_counter_seq'::regclass)");
    expect(column(table, 'whole').defaultValue).toBe('7');
    expect(column(table, 'flag').defaultValue).toBe('false');
    expect(column(table, 'uid').defaultValue).toBe('gen_random_uuid()');
    expect(column(table, 'id').defaultValue).toBeNull();
    // A generation expression is not a default.
    expect(column(table, 'doubled').defaultValue).toBeNull();
  });

  it('reads expression, INCLUDE, partial, gin and brin indexes', () => {
    const shop = find(tables, 'shop', 'sales');
    expect(shop.indexes.map((i) => [i.name, i.type, i.isUnique, i.isPrimaryKey, i.columns])).toEqual([
      ['shop_brin', 'brin', false, false, ['id']],
      ['shop_lower_name', 'btree', false, false, ['lower(name)', 'id']],
      ['shop_pkey', 'btree', true, true, ['id']],
    ]);
    const everyType = find(tables, 'every_type');
    expect(everyType.indexes.map((i) => [i.name, i.type, i.isUnique, i.columns])).toEqual([
      ['every_code', 'btree', true, ['code']],
      ['every_gin', 'gin', false, ['docb']],
      ['every_type_pkey', 'btree', true, ['id']],
    ]);
  });

  it('keeps the column order of a composite foreign key and its referenced columns', () => {
    expect(find(tables, 'shop', 'sales').foreignKeys).toEqual([
      {
        name: 'shop_region_code_region_country_fkey',
        columns: ['region_code', 'region_country'],
        referencedSchema: 'sales',
        referencedTable: 'region',
        referencedColumns: ['code', 'country'],
        onDelete: 'no action',
      },
    ]);
    expect(find(tables, 'region', 'sales').primaryKey).toEqual(['country', 'code']);
  });

  it('lists views, materialized views and partitioned tables of every user schema, not temporary tables', () => {
    expect(tables.map((t) => [`${t.schema}.${t.name}`, t.isView])).toEqual([
      ['public.every_type', false],
      ['sales.region', false],
      ['sales.sale', false],
      ['sales.sale_2024', false],
      ['sales.shop', false],
      ['sales.shop_count', true],
      ['sales.shop_names', true],
    ]);
    const view = find(tables, 'shop_names', 'sales');
    expect(view.estimatedRows).toBeNull();
    expect(view.columns.map((c) => [c.name, c.type, c.isNullable])).toEqual([
      ['id', 'int4', true],
      ['name', 'text', true],
    ]);
    expect(find(tables, 'shop_count', 'sales').estimatedRows).toBe(1);
    // A partitioned index has no pages of its own; its partition's index has.
    expect(find(tables, 'sale', 'sales').indexes).toEqual([
      {
        name: 'sale_sold',
        type: 'btree',
        isUnique: false,
        isPrimaryKey: false,
        columns: ['sold'],
        allocationType: null,
        pageCount: null,
        averageFragmentation: null,
        statisticsSource: null,
      },
    ]);
    expect(find(tables, 'sale_2024', 'sales').indexes[0]).toMatchObject({
      columns: ['sold'],
      pageCount: 1,
      statisticsSource: 'pg_class.relpages',
    });
  });

  it('reads a catalog of 300 tables in a handful of queries', async () => {
    await sql`
      do $$ begin
        for i in 1..300 loop
          execute format('create table many_%s (id int primary key, parent int references many_%s (id), name varchar(50), made timestamptz)', i, greatest(i - 1, 1));
          execute format('create index on many_%s (name)', i);
        end loop;
      end $$`.execute(db);
    // Counted, not timed: the catalog's statements are the same few whatever the number of tables.
    let statements = 0;
    const counting = db.withPlugin({
      transformQuery: (args) => (statements++, args.node),
      transformResult: async (args) => args.result,
    });
    const many = await postgresAdapter(counting, defaultEngineOptions, 'types').readCatalog();
    expect(many.length).toBe(307);
    expect(find(many, 'many_300').foreignKeys[0]?.referencedTable).toBe('many_299');
    expect(find(many, 'many_300').indexes.map((i) => i.columns)).toEqual([['name'], ['id']]);
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(10);
  });
});
