import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Row, Table } from '#common/contract/sql.ts';
import { PAGE_SIZES } from '#common/limits.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, PageQuery } from '#server/engines/engine.ts';
import { chosen, expectError, openSuiteEngine } from '#server/test/engine-suite.ts';

describe.each(chosen)('the %s engine', (kind) => {
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let schema: string;
  const { n, table, allRows } = openSuiteEngine(kind, (opened) => ({ database, engine, schema } = opened));

  describe('paging, sorting and search', () => {
    it('pages with each page size and ends on the last page', async () => {
      const track = await table('Track');
      for (const pageSize of PAGE_SIZES) {
        const first = await engine.page(track, { filter: {}, page: 1, pageSize });
        expect(first.results).toHaveLength(pageSize);
        expect(first).toMatchObject({ count: 3503, countIsExact: true });
      }
      const last = await engine.page(track, { filter: {}, page: 36, pageSize: 100 });
      expect(last.results.map((r) => r[n('TrackId')])).toEqual([3501, 3502, 3503]);
      await expectError(
        engine.page(track, { filter: {}, page: 37, pageSize: 100 }),
        400,
        'Page 37 is past the last page (36).',
      );
      await expectError(
        engine.page(track, { filter: {}, page: 0, pageSize: 100 }),
        400,
        'page must be a whole number from 1.',
      );
    });

    it('sorts both ways, ties broken by the key', async () => {
      const track = await table('Track');
      const ms = n('Milliseconds');
      const all = await allRows(track);
      const expected = [...all].sort(
        (a, b) => Number(a[ms]) - Number(b[ms]) || Number(a[n('TrackId')]) - Number(b[n('TrackId')]),
      );
      const up = await engine.page(track, { filter: {}, orderBy: ms, page: 3, pageSize: 20 });
      expect(up.results.map((r) => r[n('TrackId')])).toEqual(
        expected.slice(40, 60).map((r) => r[n('TrackId')]),
      );
      const down = await engine.page(track, { filter: {}, orderBy: `-${ms}`, page: 1, pageSize: 20 });
      const reversed = [...all].sort(
        (a, b) => Number(b[ms]) - Number(a[ms]) || Number(b[n('TrackId')]) - Number(a[n('TrackId')]),
      );
      expect(down.results.map((r) => r[n('TrackId')])).toEqual(
        reversed.slice(0, 20).map((r) => r[n('TrackId')]),
      );
      await expectError(
        engine.page(track, { filter: {}, orderBy: 'Nope', page: 1, pageSize: 20 }),
        400,
        `orderBy: Nope is not a column of ${n('Track')}.`,
      );
    });

    it('reaches neighbouring pages by seeking, with the same rows as by number', async () => {
      const invoiceLine = await table('InvoiceLine');
      const fresh = await connectDatabase('fresh', kind, database.url);
      try {
        const byNumber = async (page: number, orderBy: string) =>
          (
            await fresh.page(await fresh.table(schema, invoiceLine.name), {
              filter: {},
              orderBy,
              page,
              pageSize: 20,
            })
          ).results;
        for (const orderBy of [
          n('InvoiceLineId'),
          `-${n('InvoiceLineId')}`,
          n('TrackId'),
          `-${n('Quantity')}`,
        ]) {
          const walked: Row[][] = [];
          let from: PageQuery['from'];
          for (const page of [1, 2, 3, 4]) {
            const result = await engine.page(invoiceLine, { filter: {}, orderBy, page, pageSize: 20, from });
            walked.push(result.results);
            from = { page, boundary: result.boundary! };
          }
          // Backwards: page 3 again is read by seeking before page 4.
          const back = (await engine.page(invoiceLine, { filter: {}, orderBy, page: 3, pageSize: 20, from }))
            .results;
          for (const [i, rows] of walked.entries())
            expect(rows, `${orderBy} page ${i + 1}`).toEqual(await byNumber(i + 1, orderBy));
          expect(back).toEqual(walked[2]);
        }
      } finally {
        await fresh.close();
      }
    });

    /** The ids OFFSET gives: the page's statement written out, the key breaking ties in the sort's direction. */
    async function idsByOffset(
      t: Table,
      id: string,
      orderBy: string,
      page: number,
      pageSize: number,
    ): Promise<unknown[]> {
      const descending = orderBy.startsWith('-');
      const column = orderBy.replace(/^-/, '');
      const direction = sql.raw(descending ? 'desc' : 'asc');
      const order =
        column === id
          ? sql`${sql.id(id)} ${direction}`
          : sql`${sql.id(column)} ${direction}, ${sql.id(id)} ${direction}`;
      const { rows } = await sql<{ id: unknown }>`select ${sql.id(id)} as id from ${sql.id(schema, t.name)}
        order by ${order} limit ${sql.lit(pageSize)} offset ${sql.lit((page - 1) * pageSize)}`.execute(
        engine.db,
      );
      return rows.map((r) => Number(r.id));
    }

    it('reads the last page from the end, with the rows OFFSET gives on an exact count', async () => {
      const track = await table('Track');
      const id = n('TrackId');
      const fresh = await connectDatabase('fresh', kind, database.url);
      try {
        const freshTrack = await fresh.table(schema, track.name);
        // Unique, non-unique, and nullable (a total order with the key, though not seekable) sort columns.
        for (const orderBy of [id, `-${id}`, n('Milliseconds'), `-${n('Composer')}`]) {
          for (const pageSize of [20, 100]) {
            const last = Math.ceil(3503 / pageSize);
            const page = await fresh.page(freshTrack, { filter: {}, orderBy, page: last, pageSize });
            expect(page).toMatchObject({ count: 3503, countIsExact: true });
            expect(
              page.results.map((r) => Number(r[id])),
              `${orderBy} last page of ${pageSize}`,
            ).toEqual(await idsByOffset(track, id, orderBy, last, pageSize));
          }
        }
        // With an estimated count, the last page is the table's final rows whatever the estimate says.
        const estimated = { ...freshTrack, numberOfRows: 3450, numberOfRowsIsEstimate: true };
        const end = await fresh.page(estimated, { filter: {}, page: 35, pageSize: 100 });
        expect(end).toMatchObject({ count: 3450, countIsExact: false });
        expect(end.results.map((r) => Number(r[id]))).toEqual(
          Array.from({ length: 100 }, (_, i) => 3404 + i),
        );
      } finally {
        await fresh.close();
      }
    });

    it('goes back from the last page by seeking, to the page OFFSET gave', async () => {
      const artist = await table('Artist');
      const id = n('ArtistId');
      const orderBy = `-${id}`;
      const walker = await connectDatabase('walker', kind, database.url);
      try {
        const walkerArtist = await walker.table(schema, artist.name);
        const lastPage = Math.ceil(275 / 20);
        const expectedLast = await idsByOffset(artist, id, orderBy, lastPage, 20);
        const expectedPrevious = await idsByOffset(artist, id, orderBy, lastPage - 1, 20);
        const last = await walker.page(walkerArtist, { filter: {}, orderBy, page: lastPage, pageSize: 20 });
        expect(last.results.map((r) => Number(r[id]))).toEqual(expectedLast);
        expect(expectedLast).toHaveLength(15);

        // A row added at the front: OFFSET now gives other rows for the previous page, seeking from the last page's
        // first row (its cursor) the same ones.
        await sql`insert into ${sql.id(schema, artist.name)} (${sql.id(n('Name'))}) values (${'Zz seek probe'})`.execute(
          walker.db,
        );
        try {
          const shifted = await idsByOffset(artist, id, orderBy, lastPage - 1, 20);
          expect(shifted).not.toEqual(expectedPrevious);
          const previous = await walker.page(walkerArtist, {
            filter: {},
            orderBy,
            page: lastPage - 1,
            pageSize: 20,
            from: { page: lastPage, boundary: last.boundary! },
          });
          expect(previous.results.map((r) => Number(r[id]))).toEqual(expectedPrevious);
        } finally {
          await sql`delete from ${sql.id(schema, artist.name)} where ${sql.id(n('Name'))} = ${'Zz seek probe'}`.execute(
            walker.db,
          );
        }
      } finally {
        await walker.close();
      }
    });

    it('searches text by prefix, using the index', async () => {
      const artist = await table('Artist');
      const name = n('Name');
      const all = await allRows(artist);
      const expected = all.filter((r) => String(r[name]).startsWith('The')).map((r) => r[n('ArtistId')]);
      const found = await engine.page(artist, { filter: { [name]: '  The ' }, page: 1, pageSize: 100 });
      expect(found.results.map((r) => r[n('ArtistId')]).sort()).toEqual(expected.sort());
      expect(found).toMatchObject({ count: expected.length, countIsExact: true });
      const none = await engine.page(artist, { filter: { [name]: "' OR '1'='1" }, page: 1, pageSize: 20 });
      expect(none).toMatchObject({ results: [], count: 0 });
      const empty = await engine.page(artist, { filter: { [name]: '   ' }, page: 1, pageSize: 20 });
      expect(empty.count).toBe(275);
    });

    it('searches numbers exactly and refuses a malformed term or an unindexed column', async () => {
      const track = await table('Track');
      const result = await engine.page(track, { filter: { [n('AlbumId')]: '1' }, page: 1, pageSize: 20 });
      expect(result.results.map((r) => r[n('TrackId')])).toEqual([1, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
      await expectError(
        engine.page(track, { filter: { [n('AlbumId')]: 'one' }, page: 1, pageSize: 20 }),
        400,
        `${n('AlbumId')}: "one" is not a number.`,
      );
      await expectError(
        engine.page(track, { filter: { [n('AlbumId')]: '1.5' }, page: 1, pageSize: 20 }),
        400,
        `${n('AlbumId')}: "1.5" is not a whole number.`,
      );
      await expectError(
        engine.page(track, { filter: { [n('UnitPrice')]: '0.99' }, page: 1, pageSize: 20 }),
        400,
        new RegExp(`^${n('UnitPrice')} is not indexed, so it cannot be searched\\. Search by `),
      );
      await expectError(
        engine.page(track, { filter: { Nope: '1' }, page: 1, pageSize: 20 }),
        400,
        `Nope is not a column of ${n('Track')}.`,
      );
    });

    it('searches a date as the whole day', async () => {
      const invoice = await table('Invoice');
      const date = n('InvoiceDate');
      const all = await allRows(invoice);
      const day = String(all[10]![date]).slice(0, 10);
      const expected = all.filter((r) => String(r[date]).startsWith(day)).map((r) => r[n('InvoiceId')]);
      const found = await engine.page(invoice, { filter: { [date]: day }, page: 1, pageSize: 20 });
      expect(found.results.map((r) => r[n('InvoiceId')])).toEqual(expected);
      await expectError(
        engine.page(invoice, { filter: { [date]: 'yesterday' }, page: 1, pageSize: 20 }),
        400,
        /^.+: "yesterday" is not a date/,
      );
    });
  });
});
