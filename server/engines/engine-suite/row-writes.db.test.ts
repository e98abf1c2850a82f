import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ROW_VERSION_KEY, type Row, type Table } from '#common/contract/sql.ts';
import { rowVersionMessages } from '#common/messages.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { rowVersion, withRowVersion } from '#server/engines/row-version.ts';
import { chosen, expectError, openSuiteEngine } from '#server/test/engine-suite.ts';

describe.each(chosen)('the %s engine', (kind) => {
  let engine: DatabaseEngine;
  let schema: string;
  const { n, table } = openSuiteEngine(kind, (opened) => ({ engine, schema } = opened));

  describe('row writes', () => {
    it('inserts, updates and deletes a row, answering it as the database holds it', async () => {
      const artist = await table('Artist');
      const created = await engine.upsert(artist, { [n('Name')]: 'Zz Test Ärtist 漢字' });
      expect(created.before).toBeNull();
      const saved = created.after;
      const id = saved[n('ArtistId')];
      expect(typeof id).toBe('number');
      expect(saved[n('Name')]).toBe('Zz Test Ärtist 漢字');
      const change = await engine.upsert(artist, { [n('ArtistId')]: id!, [n('Name')]: 'Zz Renamed' });
      expect(change.before).toEqual(saved);
      const renamed = change.after;
      expect(renamed).toEqual({ [n('ArtistId')]: id, [n('Name')]: 'Zz Renamed' });
      expect(await engine.deleteRow(artist, { [n('ArtistId')]: id! })).toEqual(renamed);
      await expectError(
        engine.deleteRow(artist, { [n('ArtistId')]: id! }),
        404,
        'This row no longer exists: it may have been deleted. Reload the page.',
      );
      await expectError(
        engine.upsert(artist, { [n('ArtistId')]: id!, [n('Name')]: 'x' }),
        404,
        /no longer exists/,
      );
    });

    it('round-trips every type group without loss', async () => {
      const types = await table('dbui_types');
      const values = {
        label: `quote ' "double" , comma\nnewline ☃`,
        note: 'x'.repeat(5000),
        big: '9007199254740993',
        // SQLite stores DECIMAL as an 8-byte float: exact to 15 significant digits, no more.
        amount: kind === 'sqlite' ? '1234567890.1234' : '12345678901234.5678',
        ratio: 0.5,
        flag: true,
        day: '2024-02-29',
        clock: '13:14:15',
        bytes: Buffer.from([0, 1, 2, 250, 255]).toString('base64'),
      };
      const saved = (await engine.upsert(types, values)).after;
      expect(saved).toMatchObject(values);
      expect(saved.doubled).toBe('18014398509481986');
      expect(saved.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(typeof saved.id).toBe('number');
      const found = await engine.page(types, { filter: { big: '9007199254740993' }, page: 1, pageSize: 20 });
      expect(found.results).toEqual([saved]);
      expect((await engine.page(types, { filter: { flag: 'true' }, page: 1, pageSize: 20 })).results).toEqual(
        [saved],
      );
      expect(
        (
          await engine.page(types, {
            filter: { uid: String(saved.uid).toUpperCase() },
            page: 1,
            pageSize: 20,
          })
        ).results,
      ).toEqual([saved]);
      const nulls = (await engine.upsert(types, { label: 'all nulls' })).after;
      expect(nulls).toMatchObject({
        note: null,
        big: null,
        amount: null,
        flag: false,
        day: null,
        bytes: null,
      });
    });

    it('refuses writes to read-only columns and explains constraint violations', async () => {
      const track = await table('Track');
      const newTrack = {
        [n('Name')]: 'New',
        [n('MediaTypeId')]: 1,
        [n('Milliseconds')]: 1,
        [n('UnitPrice')]: '0.99',
      };
      await expectError(
        engine.upsert(track, { ...newTrack, [n('TrackId')]: null, [n('Bytes')]: 'many' }),
        400,
        `${n('Bytes')}: "many" is not a number.`,
      );
      await expectError(
        engine.upsert(track, { ...newTrack, [n('Name')]: null }),
        400,
        `${n('Name')} is required.`,
      );
      await expectError(
        engine.upsert(track, { ...newTrack, [n('Name')]: 'x'.repeat(201) }),
        400,
        `${n('Name')} cannot be more than 200 characters.`,
      );
      await expectError(
        engine.upsert(track, { ...newTrack, [n('UnitPrice')]: '1.234' }),
        400,
        `${n('UnitPrice')}: "1.234" is not a number with at most 2 decimals.`,
      );
      await expectError(
        engine.upsert(track, { ...newTrack, [n('AlbumId')]: 999999 }),
        400,
        `${n('AlbumId')} 999999 does not exist in ${n('Album')}.`,
      );
      await expectError(
        engine.upsert(track, { [n('TrackId')]: 1, [n('AlbumId')]: 2 }),
        400,
        `${n('AlbumId')} cannot be changed in an existing row.`,
      );
      await expectError(engine.upsert(track, { Nope: 1 }), 400, `Nope is not a column of ${n('Track')}.`);
      const types = await table('dbui_types');
      await expectError(
        engine.upsert(types, { label: 'x', doubled: 4 }),
        400,
        'doubled is filled in by the database and cannot be set.',
      );
      await expectError(
        engine.upsert(types, { label: 'dup' }).then(() => engine.upsert(types, { label: 'dup' })),
        409,
        /.+/,
      );
      const unchanged = (
        await engine.upsert(track, {
          [n('TrackId')]: 1,
          [n('AlbumId')]: 1,
          [n('Milliseconds')]: 343720,
        })
      ).after;
      expect(unchanged[n('Milliseconds')]).toBe(343720);
    });

    it('adds and deletes rows of a table with a composite key, and refuses to change them', async () => {
      const link = await table('PlaylistTrack');
      const key = { [n('PlaylistId')]: 2, [n('TrackId')]: 1 };
      expect((await engine.upsert(link, key)).after).toEqual(key);
      await expectError(
        engine.upsert(link, { ...key }),
        400,
        /cannot be changed because it has no identity or guid column/,
      );
      await engine.deleteRow(link, key);
      await expectError(
        engine.deleteRow(link, { [n('PlaylistId')]: 2 }),
        400,
        `To delete a row, send its key: ${n('TrackId')}.`,
      );
    });

    it('puts a deleted row back (undo), under its old key where the engine takes it', async () => {
      const line = await table('InvoiceLine');
      const id = n('InvoiceLineId');
      const deleted = await engine.deleteRow(line, { [id]: 10 });
      const restored = await engine.restoreRow(line, deleted);
      // PostgreSQL's Chinook numbers its identities GENERATED ALWAYS: an explicit value is refused, a new one given.
      const takesIdentity = kind !== 'postgres';
      expect(restored.keptKey).toBe(takesIdentity);
      expect(restored.row).toEqual({ ...deleted, [id]: takesIdentity ? 10 : expect.any(Number) });
      if (takesIdentity) {
        await expectError(engine.restoreRow(line, deleted), 409, /same key exists again/);
      } else {
        expect(restored.row[id]).toBeGreaterThan(2240);
      }

      // A composite key is plain values: always kept.
      const link = await table('PlaylistTrack');
      const key = { [n('PlaylistId')]: 1, [n('TrackId')]: 3402 };
      const gone = await engine.deleteRow(link, key);
      expect(await engine.restoreRow(link, gone)).toEqual({ row: key, keptKey: true });
    });

    it('shows the current row to the checks before a write or a delete, which may refuse it', async () => {
      const genre = await table('Genre');
      const seen: unknown[] = [];
      await engine.upsert(
        genre,
        { [n('GenreId')]: 5, [n('Name')]: 'Rock And Roll' },
        { beforeWrite: (change, current) => void seen.push(change, current) },
      );
      expect(seen).toEqual(['update', { [n('GenreId')]: 5, [n('Name')]: 'Rock And Roll' }]);
      const refusal = new Error('changed since');
      await expect(
        engine.deleteRow(
          genre,
          { [n('GenreId')]: 5 },
          {
            beforeDelete: (current) => {
              seen.push(current);
              throw refusal;
            },
          },
        ),
      ).rejects.toBe(refusal);
      expect(seen[2]).toEqual({ [n('GenreId')]: 5, [n('Name')]: 'Rock And Roll' });
      expect((await engine.page(genre, { filter: { [n('GenreId')]: 5 }, page: 1, pageSize: 20 })).count).toBe(
        1,
      );
    });
  });

  describe('lost updates (decision 0045)', () => {
    /** The call's error, which must be an EngineError. */
    async function failureOf(work: Promise<unknown>): Promise<EngineError> {
      const error = await work.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, 'expected the call to fail').toBeInstanceOf(EngineError);
      return error as EngineError;
    }
    const versioned = (t: Table, row: Row) => ({ ...row, [ROW_VERSION_KEY]: rowVersion(t, row)! });

    it('saves a row sent back with its version only while it is still as it was read', async () => {
      const types = await table('dbui_types');
      const { after: made } = await engine.upsert(types, {
        label: 'two editors',
        note: 'as made',
        big: '9007199254740993',
        amount: '12.5000',
        ratio: 0.25,
        flag: true,
        day: '2024-02-29',
        clock: '13:14:15',
        bytes: Buffer.from([0, 1, 255]).toString('base64'),
      });
      const key = { id: made.id! };
      // Two people read the same row from a page, as the data API answers it.
      const [read] = (await engine.page(types, { filter: { label: 'two editors' }, page: 1, pageSize: 20 }))
        .results;
      expect(read).toEqual(made);
      const asRead = versioned(types, read!);
      // The version is the same whichever way the row is read: a page, the locking read of a write, the write's answer.
      expect(rowVersion(types, (await engine.readRow(types, key))!)).toBe(asRead[ROW_VERSION_KEY]);

      // The first saves the row as they received it, one field changed: written.
      const first = await engine.upsert(types, { ...asRead, note: 'first' });
      expect(first.after.note).toBe('first');
      expect(first.before).toEqual(made);
      // The second, from the same read: refused, nothing written, and told the row as it is now with its version.
      const refused = await failureOf(engine.upsert(types, { ...asRead, note: 'second', ratio: 0.75 }));
      expect(refused.statusCode).toBe(409);
      expect(refused.message).toBe(rowVersionMessages.changedSince);
      expect(refused.data).toEqual({ current: versioned(types, first.after) });
      expect(await engine.readRow(types, key)).toEqual(first.after);
      // With the version of the row as it is now, the second writes over the first.
      const current = (refused.data as { current: Row }).current;
      const second = await engine.upsert(types, { ...current, note: 'second' });
      expect(second.after.note).toBe('second');

      // A delete with a stale version is refused too; with the row's own version it deletes.
      const stale = await failureOf(
        engine.deleteRow(types, { ...key, [ROW_VERSION_KEY]: asRead[ROW_VERSION_KEY] }),
      );
      expect([stale.statusCode, stale.message]).toEqual([409, rowVersionMessages.changedSinceDelete]);
      expect(stale.data).toEqual({ current: versioned(types, second.after) });
      expect(await engine.readRow(types, key)).toEqual(second.after);
      expect(await engine.deleteRow(types, versioned(types, second.after))).toEqual(second.after);
    });

    it('lets one of two saves from the same read win and refuses the other, even at the same moment', async () => {
      const genre = await table('Genre');
      const id = n('GenreId');
      const name = n('Name');
      const { after: made } = await engine.upsert(genre, { [name]: 'Both at once' });
      const asRead = versioned(genre, made);
      for (let round = 0; round < 3; round++) {
        const current = versioned(genre, (await engine.readRow(genre, { [id]: made[id]! }))!);
        const outcomes = await Promise.allSettled([
          engine.upsert(genre, { ...current, [name]: `alice ${round}` }),
          engine.upsert(genre, { ...current, [name]: `bob ${round}` }),
        ]);
        const written = outcomes.filter((o) => o.status === 'fulfilled');
        const refused = outcomes.filter((o) => o.status === 'rejected');
        expect(written, `round ${round}`).toHaveLength(1);
        expect(refused.map((o) => (o.reason as EngineError).statusCode)).toEqual([409]);
        const winner = (written[0] as PromiseFulfilledResult<{ after: Row }>).value.after;
        expect((await engine.readRow(genre, { [id]: made[id]! }))![name]).toBe(winner[name]);
      }
      // Without a version a save is written whatever the row holds (last write wins), as before versions existed.
      const { [ROW_VERSION_KEY]: _dropped, ...unversioned } = asRead;
      expect((await engine.upsert(genre, { ...unversioned, [name]: 'last' })).after[name]).toBe('last');
      await engine.deleteRow(genre, { [id]: made[id]! });
    });

    it('never takes the version for a column, ignores it on an insert and refuses one that is not text', async () => {
      const artist = await table('Artist');
      const name = n('Name');
      // A row copied with its version and saved as a new row: no row was read before an insert.
      const { after: copy } = await engine.upsert(artist, {
        [name]: 'Copied',
        [ROW_VERSION_KEY]: 'from elsewhere',
      });
      expect(copy[name]).toBe('Copied');
      for (const bad of [12, true, null])
        await expectError(
          engine.upsert(artist, { ...copy, [ROW_VERSION_KEY]: bad }),
          400,
          rowVersionMessages.notAVersion(ROW_VERSION_KEY),
        );
      await engine.deleteRow(artist, versioned(artist, copy));
      // A table with a column of that very name has no versions: the key is its column.
      const quoted = kind === 'mysql' ? '`$version`' : '"$version"';
      await sql
        .raw(
          `CREATE TABLE dbui_own_version (code varchar(10) PRIMARY KEY, ${quoted} varchar(20), note varchar(20))`,
        )
        .execute(engine.db);
      await engine.catalog({ refresh: true });
      const own = await engine.table(schema, 'dbui_own_version');
      await engine.upsert(own, { code: 'a', [ROW_VERSION_KEY]: 'v1', note: 'x' });
      const [stored] = (await engine.page(own, { filter: {}, page: 1, pageSize: 20 })).results;
      expect(stored).toEqual({ code: 'a', [ROW_VERSION_KEY]: 'v1', note: 'x' });
      expect(rowVersion(own, stored!)).toBeNull();
      expect(withRowVersion(own, { ...stored! })).toEqual(stored);
      await engine.deleteRow(own, { code: 'a', [ROW_VERSION_KEY]: 'anything' });
      expect((await engine.page(own, { filter: {}, page: 1, pageSize: 20 })).results).toEqual([]);
      // A view's rows are never written here: no versions to compute for its pages.
      const genre = await table('Genre');
      expect(rowVersion({ ...genre, isView: true }, { [n('GenreId')]: 1, [n('Name')]: 'Rock' })).toBeNull();
    });
  });
});
