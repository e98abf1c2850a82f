import { describe, expect, it } from 'vitest';
import type { Table } from '#common/contract/sql.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { chosen, expectError, openSuiteEngine } from '#server/test/engine-suite.ts';

describe.each(chosen)('the %s engine', (kind) => {
  let engine: DatabaseEngine;
  let schema: string;
  const { n, table, allRows } = openSuiteEngine(kind, (opened) => ({ engine, schema } = opened));

  describe('foreign-key options and safety', () => {
    /** Every option of a foreign key for a term, page after page until hasMore is false (25 on each but the last). */
    async function everyOption(t: Table, column: string, term?: string) {
      const listed: { key: unknown; label: string; isMatch: boolean }[] = [];
      for (let page = 1; ; page++) {
        const options = await engine.foreignKeyOptions(t, column, { ...(term ? { term } : {}), page });
        if (options.hasMore) expect(options.results).toHaveLength(25);
        listed.push(...options.results);
        if (!options.hasMore) return { listed, pages: page };
      }
    }

    it('offers every referenced key with a readable label, 25 a page', async () => {
      const track = await table('Track');
      const first = await engine.foreignKeyOptions(track, n('AlbumId'), { page: 1 });
      expect(first.results).toHaveLength(25);
      expect(first.hasMore).toBe(true);
      expect(first.results[0]).toEqual({
        key: 1,
        label: 'For Those About To Rock We Salute You',
        isMatch: false,
      });
      const { listed, pages } = await everyOption(track, n('AlbumId'));
      expect(pages).toBe(14);
      expect(listed.map((o) => o.key)).toEqual(Array.from({ length: 347 }, (_, i) => i + 1));
      expect(listed.some((o) => o.isMatch)).toBe(false);
      const past = await engine.foreignKeyOptions(track, n('AlbumId'), { page: 15 });
      expect(past).toEqual({ results: [], hasMore: false });
      await expectError(
        engine.foreignKeyOptions(track, n('Name'), { page: 1 }),
        400,
        `${n('Name')} does not reference another table by itself, so it has no options.`,
      );
    });

    it('lists the matches of a term first, then every other option, each once (spec 000 §9)', async () => {
      // Album.ArtistId: the artists, labelled by their indexed Name, in the order of that index (ties by key).
      const album = await table('Album');
      const artist = await table('Artist');
      const byName = (await allRows(artist, n('Name'))).map((r) => r[n('ArtistId')]);
      for (const term of ['A', 'The', 'AC/DC', 'Zz no artist']) {
        // The engine's own "starts with" (the search form's rule on the same index) says which labels match.
        const matching = new Set(
          (await engine.page(artist, { filter: { [n('Name')]: term }, page: 1, pageSize: 100 })).results.map(
            (r) => r[n('ArtistId')],
          ),
        );
        const { listed } = await everyOption(album, n('ArtistId'), term);
        const expected = [
          ...byName.filter((key) => matching.has(key)),
          ...byName.filter((key) => !matching.has(key)),
        ];
        expect(
          listed.map((o) => o.key),
          term,
        ).toEqual(expected);
        expect(
          listed.map((o) => o.isMatch),
          term,
        ).toEqual(expected.map((key) => matching.has(key)));
      }
      expect(
        (await everyOption(album, n('ArtistId'), 'A')).listed.filter((o) => o.isMatch).length,
      ).toBeGreaterThan(25);

      // A term that is a key: that row first, then the labels that start with it, then the rest.
      const byKey = await engine.foreignKeyOptions(album, n('ArtistId'), { term: '1', page: 1 });
      expect(byKey.results[0]).toEqual({ key: 1, label: 'AC/DC', isMatch: true });
      const keyed = await everyOption(album, n('ArtistId'), '1');
      expect(keyed.listed.map((o) => o.key).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: 275 }, (_, i) => i + 1),
      );
      expect(keyed.listed.filter((o) => o.isMatch).map((o) => o.key)).toEqual([1]);

      // An unindexed label (Album.Title) on a small table is matched too; the rest follows in key order.
      const track = await table('Track');
      const search = await engine.foreignKeyOptions(track, n('AlbumId'), { term: 'For Those', page: 1 });
      expect(search.results.slice(0, 2)).toEqual([
        { key: 1, label: 'For Those About To Rock We Salute You', isMatch: true },
        { key: 2, label: 'Balls to the Wall', isMatch: false },
      ]);
      expect(search.hasMore).toBe(true);
    });

    it('treats identifiers and values from input as data, never as SQL', async () => {
      const evil = [
        `Artist"; DROP TABLE Artist; --`,
        'Artist`; DROP TABLE Artist; --',
        'Artist]; DROP TABLE Artist; --',
        "x' OR '1'='1",
      ];
      for (const name of evil) {
        await expectError(engine.table(schema, name), 404, `The table ${schema}.${name} was not found.`);
        await expectError(engine.table(name, n('Artist')), 404, /was not found/);
      }
      const artist = await table('Artist');
      for (const name of evil) {
        await expectError(
          engine.page(artist, { filter: { [name]: '1' }, page: 1, pageSize: 20 }),
          400,
          `${name} is not a column of ${n('Artist')}.`,
        );
        await expectError(
          engine.page(artist, { filter: {}, orderBy: `-${name}`, page: 1, pageSize: 20 }),
          400,
          `orderBy: ${name} is not a column of ${n('Artist')}.`,
        );
        await expectError(
          engine.upsert(artist, { [name]: 'x' }),
          400,
          `${name} is not a column of ${n('Artist')}.`,
        );
        const stored = (await engine.upsert(artist, { [n('Name')]: name })).after;
        expect(stored[n('Name')]).toBe(name);
        await engine.deleteRow(artist, stored);
      }
      expect((await engine.page(artist, { filter: {}, page: 1, pageSize: 20 })).count).toBe(275);
    });
  });
});
