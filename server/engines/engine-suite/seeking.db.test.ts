import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Row, Table } from '#common/contract/sql.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, PageQuery } from '#server/engines/engine.ts';
import { chosen, openSuiteEngine, type SuiteEngine } from '#server/test/engine-suite.ts';

describe.each(chosen)('the %s engine', (kind) => {
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let schema: string;
  const { n, table } = openSuiteEngine(kind, (opened) => ({ database, engine, schema } = opened));

  describe('stateless paging (issue 17)', () => {
    const seekDdl: Record<SuiteEngine, string> = {
      sqlite:
        'CREATE TABLE dbui_seek (id INTEGER PRIMARY KEY, day DATE, stamp DATETIME, big BIGINT, amount DECIMAL(18,4), label VARCHAR(20) NOT NULL)',
      postgres:
        'CREATE TABLE dbui_seek (id integer PRIMARY KEY, day date, stamp timestamptz, big bigint, amount numeric(18,4), label varchar(20) NOT NULL)',
      mysql:
        'CREATE TABLE dbui_seek (id int PRIMARY KEY, day date, stamp datetime(6), big bigint, amount decimal(18,4), label varchar(20) NOT NULL)',
    };
    const binaryDdl: Record<SuiteEngine, string> = {
      sqlite: 'CREATE TABLE dbui_seek_bin (k BLOB PRIMARY KEY NOT NULL, label TEXT)',
      postgres: 'CREATE TABLE dbui_seek_bin (k bytea PRIMARY KEY, label text)',
      mysql: 'CREATE TABLE dbui_seek_bin (k varbinary(16) PRIMARY KEY, label text)',
    };
    const SEEK_ROWS = 53;

    beforeAll(async () => {
      await sql.raw(seekDdl[kind]).execute(engine.db);
      await sql.raw(binaryDdl[kind]).execute(engine.db);
      for (let i = 1; i <= SEEK_ROWS; i++) {
        // Ties in every column, NULLs in the nullable ones, big integers past 2^53, microseconds.
        const day = i % 4 === 0 ? null : `2024-01-0${(i % 7) + 1}`;
        const stamp = i % 5 === 0 ? null : `2024-03-01 10:00:0${i % 9}.12345${i % 3}`;
        const big = i % 6 === 0 ? null : (9007199254740993n + BigInt(i % 8)).toString();
        const amount = i % 3 === 0 ? null : ((i % 10) / 4).toFixed(2);
        await sql`insert into dbui_seek (id, day, stamp, big, amount, label)
          values (${i}, ${day}, ${stamp}, ${big}, ${amount}, ${`L${i % 11}`})`.execute(engine.db);
        await sql`insert into dbui_seek_bin (k, label) values (${Buffer.from([i % 7, i, 255 - i])}, ${`B${i}`})`.execute(
          engine.db,
        );
      }
      await engine.catalog({ refresh: true });
    });

    /** Every id in the order OFFSET pages give: the sort column in its direction, then the key. */
    async function orderedIds(
      t: Table,
      id: string,
      orderBy: string | null,
      where = sql`1 = 1`,
    ): Promise<unknown[]> {
      const descending = orderBy?.startsWith('-') ?? false;
      const column = orderBy?.replace(/^-/, '') ?? id;
      const direction = sql.raw(descending ? 'desc' : 'asc');
      const order =
        column === id
          ? sql`${sql.id(id)} ${direction}`
          : sql`${sql.id(column)} ${direction}, ${sql.id(id)} ${direction}`;
      const { rows } = await sql<{ id: unknown }>`select ${sql.id(id)} as id from ${sql.id(schema, t.name)}
        where ${where} order by ${order}`.execute(engine.db);
      return rows.map((r) => (Buffer.isBuffer(r.id) ? r.id.toString('base64') : Number(r.id)));
    }

    /** Walks every page forward from page 1 and back from the last with cursors (each seeking from the page
     * before), checking each page against OFFSET's slice of the same order. */
    async function walk(
      t: Table,
      id: string,
      orderBy: string | null,
      pageSize: number,
      filter = {},
      where = sql`1 = 1`,
    ) {
      const expected = await orderedIds(t, id, orderBy, where);
      const pages = Math.ceil(expected.length / pageSize);
      const ids = (rows: Row[]) => rows.map((r) => (typeof r[id] === 'string' ? r[id] : Number(r[id])));
      let from: PageQuery['from'];
      for (let page = 1; page <= pages; page++) {
        const result = await engine.page(t, { filter, orderBy, page, pageSize, from });
        const label = `${t.name} ${orderBy ?? 'key'} page ${page} forward`;
        expect(ids(result.results), label).toEqual(expected.slice((page - 1) * pageSize, page * pageSize));
        expect(result.boundary, label).not.toBeNull();
        expect(result.readBy.seek, label).toBe(page > 1);
        from = { page, boundary: result.boundary! };
      }
      for (let page = pages - 1; page >= 1; page--) {
        const result = await engine.page(t, { filter, orderBy, page, pageSize, from });
        const label = `${t.name} ${orderBy ?? 'key'} page ${page} back`;
        expect(ids(result.results), label).toEqual(expected.slice((page - 1) * pageSize, page * pageSize));
        expect(result.readBy.seek, label).toBe(true);
        from = { page, boundary: result.boundary! };
      }
    }

    it('walks every order by cursor, both ways, to the pages OFFSET gives: ties, NULLs, dates, big integers', async () => {
      const seek = await engine.table(schema, 'dbui_seek');
      for (const column of ['id', 'day', 'stamp', 'big', 'amount', 'label'])
        for (const orderBy of [column, `-${column}`]) await walk(seek, 'id', orderBy, 7);
      // A binary key (the cursor carries it as base64).
      await walk(await engine.table(schema, 'dbui_seek_bin'), 'k', null, 6);
      await walk(await engine.table(schema, 'dbui_seek_bin'), 'k', '-label', 6);
    });

    it('walks Chinook by cursor with a filter, a nullable text column and ties', async () => {
      const track = await table('Track');
      const id = n('TrackId');
      await walk(track, id, `-${n('Composer')}`, 100);
      await walk(track, id, n('Composer'), 100);
      await walk(track, id, n('Milliseconds'), 100);
      await walk(
        track,
        id,
        `-${n('AlbumId')}`,
        40,
        { [n('GenreId')]: 1 },
        sql`${sql.id(n('GenreId'))} = ${1}`,
      );
    });

    it('seeks past a boundary row that changed since its cursor was made', async () => {
      const seek = await engine.table(schema, 'dbui_seek');
      const page2 = await engine.page(seek, { filter: {}, orderBy: 'label', page: 2, pageSize: 7 });
      const lastId = Number(page2.results.at(-1)!.id);
      const before = await orderedIds(seek, 'id', 'label');
      // The boundary row is deleted and rows are added before it: the next page is what follows the rows shown.
      const row = (
        await sql<Record<string, unknown>>`select * from dbui_seek where id = ${lastId}`.execute(engine.db)
      ).rows[0]!;
      await sql`delete from dbui_seek where id = ${lastId}`.execute(engine.db);
      await sql`insert into dbui_seek (id, label) values (${1000}, ${'A first'}), (${1001}, ${'A second'})`.execute(
        engine.db,
      );
      try {
        const next = await engine.page(seek, {
          filter: {},
          orderBy: 'label',
          page: 3,
          pageSize: 7,
          from: { page: 2, boundary: page2.boundary! },
        });
        const after = before.slice(before.indexOf(lastId) + 1, before.indexOf(lastId) + 8);
        expect(next.results.map((r) => Number(r.id))).toEqual(after);
      } finally {
        await sql`delete from dbui_seek where id in (${1000}, ${1001})`.execute(engine.db);
        await sql`insert into dbui_seek (id, day, stamp, big, amount, label)
          values (${row.id as number}, ${row.day as never}, ${row.stamp as never}, ${row.big as never}, ${row.amount as never}, ${row.label as string})`.execute(
          engine.db,
        );
      }
    });

    it('reads a page by number whose cursor is not a neighbour’s, and one with a boundary of another shape', async () => {
      const seek = await engine.table(schema, 'dbui_seek');
      const expected = await orderedIds(seek, 'id', '-day');
      const page1 = await engine.page(seek, { filter: {}, orderBy: '-day', page: 1, pageSize: 7 });
      for (const from of [
        { page: 1, boundary: page1.boundary! },
        { page: 6, boundary: { first: [1], last: [2] } },
      ]) {
        const page5 = await engine.page(seek, { filter: {}, orderBy: '-day', page: 5, pageSize: 7, from });
        expect(page5.results.map((r) => Number(r.id))).toEqual(expected.slice(28, 35));
        expect(page5.readBy.seek).toBe(false);
      }
    });

    it('reads deep pages by number, and past the middle from the end, as OFFSET does', async () => {
      const track = await table('Track');
      const id = n('TrackId');
      // On PostgreSQL the deferred join needs an index over the sort column and the key.
      const index =
        kind === 'postgres'
          ? `CREATE INDEX ix_track_ms_id ON track (milliseconds, track_id)`
          : `CREATE INDEX ix_track_ms ON Track (Milliseconds)`;
      await sql.raw(index).execute(engine.db);
      const fresh = await connectDatabase('fresh', kind, database.url);
      try {
        const freshTrack = await fresh.table(schema, track.name);
        for (const orderBy of [
          id,
          `-${id}`,
          n('Milliseconds'),
          `-${n('Milliseconds')}`,
          `-${n('Composer')}`,
          n('Name'),
        ]) {
          const expected = await orderedIds(track, id, orderBy);
          for (const page of [2, 51, 60, 87, 88, 89, 120, 175, 176]) {
            const result = await fresh.page(freshTrack, { filter: {}, orderBy, page, pageSize: 20 });
            expect(
              result.results.map((r) => Number(r[id])),
              `${orderBy} page ${page}`,
            ).toEqual(expected.slice((page - 1) * 20, page * 20));
            // The second half from the end; deep offsets through the index alone where one covers the order.
            const covered =
              kind !== 'sqlite' &&
              [id, `-${id}`, n('Milliseconds'), `-${n('Milliseconds')}`].includes(orderBy);
            const offset = page >= 89 ? Math.max(0, 3503 - page * 20) : (page - 1) * 20;
            expect(result.readBy, `${orderBy} page ${page}`).toEqual({
              seek: false,
              fromEnd: page >= 89,
              deferredJoin: covered && offset >= 1000,
            });
          }
        }
        // With an estimate, pages past the middle are counted back from the table's real end, the last page being
        // its final 20 rows (0026), so they meet it exactly whatever the figure: right (3503, the same place as
        // OFFSET's but for the last page's remainder) or 53 rows short.
        const rightEstimate = { ...freshTrack, numberOfRows: 3503, numberOfRowsIsEstimate: true };
        const expected = await orderedIds(track, id, null);
        const tail = [];
        for (const page of [174, 175, 176])
          tail.push(
            ...(await fresh.page(rightEstimate, { filter: {}, page, pageSize: 20 })).results.map((r) =>
              Number(r[id]),
            ),
          );
        expect(tail).toEqual(expected.slice(-60));
        const page100 = await fresh.page(rightEstimate, { filter: {}, page: 100, pageSize: 20 });
        expect(page100.results.map((r) => Number(r[id]))).toEqual(
          expected.slice(3503 - 76 * 20 - 20, 3503 - 76 * 20),
        );
        const short = { ...freshTrack, numberOfRows: 3450, numberOfRowsIsEstimate: true };
        const lastPage = Math.ceil(3450 / 20);
        const ends = [];
        for (const page of [lastPage - 2, lastPage - 1, lastPage])
          ends.push(
            ...(await fresh.page(short, { filter: {}, page, pageSize: 20 })).results.map((r) =>
              Number(r[id]),
            ),
          );
        expect(ends).toEqual(expected.slice(-60));
        // Before the middle, pages by number are OFFSET's whatever the estimate.
        const early = await fresh.page(short, { filter: {}, page: 60, pageSize: 20 });
        expect(early.results.map((r) => Number(r[id]))).toEqual(expected.slice(59 * 20, 60 * 20));
        // With a filter and an exact count, past the middle from the end too.
        const rock = await orderedIds(
          track,
          id,
          `-${n('Milliseconds')}`,
          sql`${sql.id(n('GenreId'))} = ${1}`,
        );
        const rockPages = Math.ceil(rock.length / 20);
        for (const page of [3, rockPages - 3, rockPages]) {
          const result = await fresh.page(freshTrack, {
            filter: { [n('GenreId')]: 1 },
            orderBy: `-${n('Milliseconds')}`,
            page,
            pageSize: 20,
          });
          expect(
            result.results.map((r) => Number(r[id])),
            `rock page ${page}`,
          ).toEqual(rock.slice((page - 1) * 20, page * 20));
        }
      } finally {
        await fresh.close();
      }
    });
  });
});
