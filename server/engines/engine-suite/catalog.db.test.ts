import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { chinookRows, chosen, expectError, openSuiteEngine } from '#server/test/engine-suite.ts';

describe.each(chosen)('the %s engine', (kind) => {
  let engine: DatabaseEngine;
  let schema: string;
  const { n, table } = openSuiteEngine(kind, (opened) => ({ engine, schema } = opened));

  describe('catalog', () => {
    it('lists the Chinook tables with exact row counts', async () => {
      const tables = (await engine.catalog()).filter((t) => t.schema === schema);
      const chinook = tables.filter((t) => !t.name.startsWith('dbui_'));
      expect(chinook.map((t) => t.name).sort()).toEqual(Object.keys(chinookRows).map(n).sort());
      for (const [name, rows] of Object.entries(chinookRows)) {
        const t = await table(name);
        expect([name, t.numberOfRows, t.numberOfRowsIsEstimate]).toEqual([name, rows, false]);
        expect(t.id).toBe(`chinook/${schema}/${n(name)}`);
        expect(t.isView).toBe(false);
      }
    });

    it('knows the columns of Track', async () => {
      const track = await table('Track');
      expect(track.columns.map((c) => c.name)).toEqual(
        [
          'TrackId',
          'Name',
          'AlbumId',
          'MediaTypeId',
          'GenreId',
          'Composer',
          'Milliseconds',
          'Bytes',
          'UnitPrice',
        ].map(n),
      );
      expect(track.numberOfColumns).toBe(9);
      const col = (name: string) => track.columns.find((c) => c.name === n(name))!;
      expect(col('TrackId')).toMatchObject({
        typeGroup: 'Number',
        isIdentity: true,
        isPrimaryKey: true,
        isIndexed: true,
        isNullable: false,
        id: 1,
      });
      expect(col('Name')).toMatchObject({
        typeGroup: 'Text',
        maxLength: 200,
        isNullable: false,
        isIndexed: false,
      });
      expect(col('Composer')).toMatchObject({ typeGroup: 'Text', maxLength: 220, isNullable: true });
      expect(col('AlbumId')).toMatchObject({
        typeGroup: 'Number',
        isForeignKey: true,
        isIndexed: true,
        isNullable: true,
      });
      expect(col('UnitPrice')).toMatchObject({
        typeGroup: 'Number',
        precision: 10,
        scale: 2,
        isNullable: false,
      });
      expect(col('TrackId').isForeignKeySource).toBe(true);
      expect(track).toMatchObject({
        hasIdentity: true,
        identityColumn: n('TrackId'),
        hasGuid: false,
        guidColumn: null,
        primaryKey: [n('TrackId')],
      });
    });

    it('knows keys, foreign keys and indexes', async () => {
      const track = await table('Track');
      const fks = track.foreignKeys
        .map((fk) => [fk.columns, fk.referencedTable, fk.referencedColumns])
        .sort();
      expect(fks).toEqual(
        [
          [[n('AlbumId')], n('Album'), [n('AlbumId')]],
          [[n('GenreId')], n('Genre'), [n('GenreId')]],
          [[n('MediaTypeId')], n('MediaType'), [n('MediaTypeId')]],
        ].sort(),
      );
      expect(track.foreignKeys.every((fk) => fk.referencedSchema === schema)).toBe(true);
      const ifk = track.indexes.find(
        (i) =>
          i.name.toLowerCase() === n('IFK_TrackAlbumId').toLowerCase() || i.columns.join() === n('AlbumId'),
      );
      expect(ifk).toMatchObject({ isUnique: false, isPrimaryKey: false, columns: [n('AlbumId')] });
      expect(
        track.indexes.some((i) => i.isPrimaryKey && i.isUnique && i.columns.join() === n('TrackId')),
      ).toBe(true);

      const link = await table('PlaylistTrack');
      expect(link).toMatchObject({
        primaryKey: [n('PlaylistId'), n('TrackId')],
        hasIdentity: false,
        hasGuid: false,
        identityColumn: null,
      });

      const employee = await table('Employee');
      expect(employee.foreignKeys.map((fk) => [fk.columns, fk.referencedTable])).toEqual([
        [[n('ReportsTo')], n('Employee')],
      ]);
      for (const index of [...track.indexes, ...link.indexes]) {
        if (index.averageFragmentation !== null) expect(index.averageFragmentation).toBeGreaterThanOrEqual(0);
        if (index.averageFragmentation !== null) expect(index.averageFragmentation).toBeLessThanOrEqual(100);
      }
    });

    it('maps every type group', async () => {
      const types = await table('dbui_types');
      const group = Object.fromEntries(types.columns.map((c) => [c.name, c.typeGroup]));
      expect(group).toEqual({
        id: 'Number',
        label: 'Text',
        note: 'Text',
        big: 'Number',
        amount: 'Number',
        ratio: 'Number',
        flag: 'bit',
        day: 'Date',
        stamp: 'Date',
        clock: 'Time',
        bytes: 'Binary',
        uid: 'guid',
        doubled: 'Number',
      });
      const col = (name: string) => types.columns.find((c) => c.name === name)!;
      expect(col('note').maxLength).toBe(kind === 'mysql' ? 65535 : -1);
      expect(col('amount')).toMatchObject({ precision: 18, scale: 4 });
      expect(col('doubled').isComputed).toBe(true);
      expect(col('uid').isGuid).toBe(true);
      expect(types).toMatchObject({
        hasIdentity: true,
        identityColumn: 'id',
        hasGuid: true,
        guidColumn: 'uid',
      });
    });

    it('knows each default a new row can show, and which the database works out', async () => {
      const defaults = await table('dbui_defaults');
      const shown = Object.fromEntries(
        defaults.columns.map((c) => [c.name, c.defaultIsExpression ? 'expression' : c.defaultConstant]),
      );
      expect(shown).toEqual({
        id: null,
        flag: true,
        qty: 1,
        price: '9.90',
        code: "it's",
        created: 'expression',
        day: '2020-01-02',
        note: null,
        neg: -1,
        plain: null,
      });
      expect((await table('dbui_types')).columns.find((c) => c.name === 'flag')?.defaultConstant).toBe(false);
      // The constants are what the database stores when a row leaves them out.
      const { after } = await engine.upsert(defaults, { plain: 5 });
      for (const column of defaults.columns.filter((c) => !c.defaultIsExpression && c.defaultValue !== null))
        expect([column.name, after[column.name]]).toEqual([column.name, column.defaultConstant]);
      expect(after.created).not.toBeNull();
    });

    it('refreshes on demand', async () => {
      await sql.raw('CREATE TABLE dbui_later (id int PRIMARY KEY)').execute(engine.db);
      await expectError(
        engine.table(schema, 'dbui_later'),
        404,
        `The table ${schema}.dbui_later was not found.`,
      );
      await engine.catalog({ refresh: true });
      expect((await engine.table(schema, 'dbui_later')).name).toBe('dbui_later');
    });
  });
});
