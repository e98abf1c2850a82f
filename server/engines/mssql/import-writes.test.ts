import { describe, expect, it } from 'vitest';
import type { Table } from '#common/contract/sql.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { mssqlAdapter } from './adapter.ts';
import { columnWith, recordingDb, squash, type RecordedQuery } from './test-support.ts';

/*
 * An import's writes and their undo on SQL Server (issue 39, decision 0070), from the statements the generic engine
 * sends: no server runs here, so a recording driver answers and the test reads what was sent. The engine suite runs
 * the same writes against the other engines' real servers (server/features/imports).
 */

const table: Table = {
  id: 'shop/dbo/Song',
  schema: 'dbo',
  name: 'Song',
  isView: false,
  numberOfColumns: 3,
  numberOfRows: 2,
  numberOfRowsIsEstimate: false,
  hasIdentity: false,
  hasGuid: false,
  primaryKey: ['Id'],
  identityColumn: null,
  guidColumn: null,
  columns: [
    columnWith({ id: 1, name: 'Id', type: 'int', typeGroup: 'Number', isPrimaryKey: true }),
    columnWith({ id: 2, name: 'Name', type: 'nvarchar', typeGroup: 'Text', maxLength: 200 }),
    columnWith({
      id: 3,
      name: 'Note',
      type: 'nvarchar',
      typeGroup: 'Text',
      maxLength: 200,
      isNullable: true,
    }),
  ],
  indexes: [],
  foreignKeys: [],
};

function recordingEngine(rows: Record<string, unknown>[] = []) {
  const { db, queries } = recordingDb((query: RecordedQuery) =>
    squash(query.sql).startsWith('select') ? rows : [],
  );
  const engine = createTableEngine('shop', mssqlAdapter(db, { name: 'shop', statementTimeoutMs: 15_000 }));
  return { engine, queries: () => queries.map((q) => ({ sql: squash(q.sql), parameters: q.parameters })) };
}

describe('imports on SQL Server', () => {
  it('inserts a batch as multi-row statements under a savepoint, NULL as the literal, and reads it back', async () => {
    const { engine, queries } = recordingEngine([{ Id: 1, Name: 'One', Note: null }]);
    const writer = await engine.openImportWriter(table, { oneTransaction: false });
    await writer.writeBatch([
      { values: { Id: '1', Name: 'One', Note: null }, existing: false },
      { values: { Id: '2', Name: 'Two', Note: 'x' }, existing: false },
    ]);
    const sent = queries();
    expect(sent[0]?.sql).toMatch(/^save transaction dbui_import_\d+$/);
    expect(sent[1]).toEqual({
      sql: 'insert into "dbo"."Song" ("Id", "Name", "Note") values (@1, @2, null), (@3, @4, @5)',
      parameters: [1, 'One', 2, 'Two', 'x'],
    });
    expect(sent[2]?.sql).toMatch(/^select .* from "dbo"\."Song" where "Id" in \(@1, @2\)$/);
  });

  it('binds fewer than SQL Server’s 2,100 parameters a statement for a batch of 1,000 rows', async () => {
    const { engine, queries } = recordingEngine();
    const writer = await engine.openImportWriter(table, { oneTransaction: false });
    await writer.writeBatch(
      Array.from({ length: 1000 }, (_, i) => ({
        values: { Id: String(i + 1), Name: `n${i}`, Note: 'x' },
        existing: false,
      })),
    );
    const inserts = queries().filter((q) => q.sql.startsWith('insert'));
    expect(inserts).toHaveLength(2);
    expect(Math.max(...queries().map((q) => q.parameters.length))).toBeLessThan(2100);
  });

  it('updates an upserted row by its key after reading it under the update lock', async () => {
    const { engine, queries } = recordingEngine([{ Id: 1, Name: 'Old', Note: null }]);
    const writer = await engine.openImportWriter(table, { oneTransaction: false });
    await writer.writeBatch([{ values: { Id: '1', Name: 'New', Note: null }, existing: true }]);
    const sent = queries();
    expect(sent[1]?.sql).toMatch(/from "dbo"\."Song" with \(updlock, rowlock\) where "Id" in \(@1\)$/);
    expect(sent[2]).toEqual({
      sql: 'update "dbo"."Song" set "Name" = @1, "Note" = null where "Id" = @2',
      parameters: ['New', 1],
    });
  });

  it('undoes a batch: the inserted rows deleted by key, the replaced values written back', async () => {
    const { engine, queries } = recordingEngine([
      { Id: 1, Name: 'New', Note: null },
      { Id: 2, Name: 'Two', Note: null },
    ]);
    await engine.revertImportBatch(table, [
      {
        key: { Id: 1 },
        before: { Id: 1, Name: 'Old', Note: null },
        after: { Id: 1, Name: 'New', Note: null },
      },
      { key: { Id: 2 }, before: null, after: { Id: 2, Name: 'Two', Note: null } },
    ]);
    const sent = queries();
    expect(sent[0]?.sql).toMatch(/with \(updlock, rowlock\) where "Id" in \(@1, @2\)$/);
    expect(sent[1]).toEqual({ sql: 'delete from "dbo"."Song" where "Id" in (@1)', parameters: [2] });
    expect(sent[2]).toEqual({
      sql: 'update "dbo"."Song" set "Name" = @1 where "Id" = @2',
      parameters: ['Old', 1],
    });
  });
});
