import { describe, expect, it } from 'vitest';
import { ROW_VERSION_KEY, type Row, type Table } from '#common/contract/sql.ts';
import { rowVersionMessages } from '#common/messages.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { rowVersion } from '#server/engines/row-version.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { mssqlAdapter } from './adapter.ts';
import { columnWith, recordingDb, squash, type RecordedQuery } from './test-support.ts';

/*
 * The lost-update rule on SQL Server (decision 0045), from the statements the generic engine sends: no server runs
 * here, so the driver records them and answers the row as SQL Server would (decimals and offsets selected as text).
 * The engine suite checks the same rule against the other engines' real servers.
 */

const table: Table = {
  id: 'shop/dbo/Product',
  schema: 'dbo',
  name: 'Product',
  isView: false,
  numberOfColumns: 5,
  numberOfRows: 1,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['Id'],
  identityColumn: 'Id',
  guidColumn: null,
  columns: [
    columnWith({ id: 1, name: 'Id', type: 'int', typeGroup: 'Number', isIdentity: true, isPrimaryKey: true }),
    columnWith({ id: 2, name: 'Name', type: 'nvarchar', typeGroup: 'Text', maxLength: 50 }),
    columnWith({ id: 3, name: 'Price', type: 'decimal', typeGroup: 'Number', precision: 10, scale: 2 }),
    columnWith({ id: 4, name: 'Changed', type: 'datetimeoffset', typeGroup: 'Date', scale: 7 }),
    // Computed from the clock: different at every read, so it is not part of the version.
    columnWith({ id: 5, name: 'ReadAt', type: 'datetime2', typeGroup: 'Date', scale: 7, isComputed: true }),
  ],
  indexes: [],
  foreignKeys: [],
};

/** The row as the database holds it, as tedious hands it over for the engine's select list. */
let stored: Record<string, unknown>;
const reads = () => ({ ...stored, ReadAt: new Date() });

/** An engine over a recording driver: a select by key answers the stored row, an update changes it. */
function recordingEngine() {
  const { db, queries } = recordingDb((query: RecordedQuery) => {
    const text = squash(query.sql);
    if (text.startsWith('select')) return [reads()];
    if (text.startsWith('update')) stored = { ...stored, Name: query.parameters[0] };
    if (text.startsWith('delete')) return [];
    return [];
  });
  const engine = createTableEngine('shop', mssqlAdapter(db, { name: 'shop', statementTimeoutMs: 15_000 }));
  return { engine, queries };
}

const asRead = (row: Row) => ({ ...row, [ROW_VERSION_KEY]: rowVersion(table, row)! });

describe('row versions on SQL Server', () => {
  it('reads the row under an update lock in the write, and writes nothing when it changed since it was read', async () => {
    stored = { Id: 7, Name: 'Lamp', Price: '12.50', Changed: '2024-02-29 10:11:12.1234567 +01:00' };
    const { engine, queries } = recordingEngine();
    const read = (await engine.readRow(table, { Id: 7 }))!;
    expect(read).toMatchObject({
      Id: 7,
      Name: 'Lamp',
      Price: '12.50',
      Changed: '2024-02-29T10:11:12.1234567+01:00',
    });
    const version = asRead(read);
    // The computed column differs at every read; the version does not.
    expect(rowVersion(table, (await engine.readRow(table, { Id: 7 }))!)).toBe(version[ROW_VERSION_KEY]);

    // Someone else renames the lamp after this read.
    stored = { ...stored, Name: 'Desk lamp' };
    queries.length = 0;
    const refusal = await engine.upsert(table, { ...version, Name: 'Floor lamp' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(EngineError);
    expect((refusal as EngineError).statusCode).toBe(409);
    expect((refusal as EngineError).message).toBe(rowVersionMessages.changedSince);
    expect((refusal as EngineError).data).toEqual({
      current: expect.objectContaining({ Name: 'Desk lamp', [ROW_VERSION_KEY]: expect.any(String) }),
    });
    // One statement: the locking read of the row by its key. No update; the version is no column.
    expect(queries.map((q) => squash(q.sql))).toEqual([
      expect.stringMatching(/^select .* from "dbo"\."Product" with \(updlock, rowlock\) where "Id" = @1$/),
    ]);
    expect(squash(queries[0]!.sql)).not.toContain(ROW_VERSION_KEY);
    expect(stored.Name).toBe('Desk lamp');

    // With the version of the row as it is now, the save is written.
    // (ReadAt left out: a read-only value that differs from the row's is refused, and this one always differs.)
    const { ReadAt: _readAt, ...current } = (refusal as EngineError & { data: { current: Row } }).data
      .current;
    queries.length = 0;
    const saved = await engine.upsert(table, { ...current, Name: 'Floor lamp' });
    expect(saved.after.Name).toBe('Floor lamp');
    const statements = queries.map((q) => squash(q.sql));
    expect(statements[0]).toMatch(/with \(updlock, rowlock\) where "Id" = @1$/);
    // The row as it was answered: every column it sent is written (the same values but Name).
    expect(statements[1]).toBe(
      'update "dbo"."Product" set "Name" = @1, "Price" = @2, "Changed" = @3 where "Id" = @4',
    );
    expect(queries[1]!.parameters[0]).toBe('Floor lamp');
  });

  it('refuses a delete with a stale version under the same lock', async () => {
    stored = { Id: 8, Name: 'Chair', Price: '40.00', Changed: null };
    const { engine, queries } = recordingEngine();
    const version = asRead((await engine.readRow(table, { Id: 8 }))!);
    stored = { ...stored, Price: '45.00' };
    queries.length = 0;
    const refusal = await engine
      .deleteRow(table, { Id: 8, [ROW_VERSION_KEY]: version[ROW_VERSION_KEY] })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((refusal as EngineError).statusCode).toBe(409);
    expect((refusal as EngineError).message).toBe(rowVersionMessages.changedSinceDelete);
    expect(queries.map((q) => squash(q.sql))).toEqual([expect.stringMatching(/with \(updlock, rowlock\)/)]);
  });
});
