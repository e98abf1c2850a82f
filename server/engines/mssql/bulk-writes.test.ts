import { describe, expect, it } from 'vitest';
import type { Filter } from '#common/contract/filter.ts';
import type { Table } from '#common/contract/sql.ts';
import { createTableEngine } from '#server/engines/table-engine.ts';
import { mssqlAdapter } from './adapter.ts';
import { columnWith, recordingDb, squash, type RecordedQuery } from './test-support.ts';

/*
 * Bulk changes on SQL Server (issue 38, decision 0068), from the statements the generic engine sends: no server runs
 * here or in CI, so a recording driver answers as SQL Server would and the test reads what was sent. The engine
 * suite runs the same batches against the other engines' real servers (server/features/bulk).
 */

const table: Table = {
  id: 'shop/dbo/Track',
  schema: 'dbo',
  name: 'Track',
  isView: false,
  numberOfColumns: 3,
  numberOfRows: 3,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['TrackId'],
  identityColumn: 'TrackId',
  guidColumn: null,
  columns: [
    columnWith({
      id: 1,
      name: 'TrackId',
      type: 'int',
      typeGroup: 'Number',
      isIdentity: true,
      isPrimaryKey: true,
    }),
    columnWith({ id: 2, name: 'Name', type: 'nvarchar', typeGroup: 'Text', maxLength: 200 }),
    columnWith({ id: 3, name: 'Composer', type: 'nvarchar', typeGroup: 'Text', maxLength: 220 }),
  ],
  indexes: [],
  foreignKeys: [],
};

/** The table's rows as the driver hands them over. */
const stored = [
  { TrackId: 1, Name: 'For Those About To Rock', Composer: 'Angus Young' },
  { TrackId: 2, Name: 'Balls to the Wall', Composer: null },
  { TrackId: 3, Name: 'Fast As a Shark', Composer: 'F. Baltes' },
];

/** An engine over a recording driver: every select answers the rows whose key it binds (or all of them). */
function recordingEngine() {
  const { db, queries } = recordingDb((query: RecordedQuery) => {
    const text = squash(query.sql);
    if (text.startsWith('select count')) return [{ n: stored.length }];
    if (text.startsWith('select')) return stored;
    return [];
  });
  const engine = createTableEngine('shop', mssqlAdapter(db, { name: 'shop', statementTimeoutMs: 15_000 }));
  return { engine, queries: () => queries.map((q) => ({ sql: squash(q.sql), parameters: q.parameters })) };
}

const composerStartsWithA: Filter = { column: 'Composer', op: 'startsWith', value: 'A' };

describe('bulk changes on SQL Server', () => {
  it('reads a batch with TOP under an update lock, past the last key, and changes it by key', async () => {
    const { engine, queries } = recordingEngine();
    const changes = await engine.bulkBatch(table, {
      selection: { where: composerStartsWithA },
      after: { TrackId: 0 },
      limit: 1000,
      set: { Composer: 'AC/DC' },
    });
    expect(changes).toHaveLength(3);
    const sent = queries();
    const [select, update, again] = sent;
    expect(select?.sql).toMatch(
      /^select top \(@1\) .* from "dbo"\."Track" with \(updlock, rowlock\) where .*"Composer" like @\d+ escape '\\' and \(\("TrackId" > @\d+\)\) order by "TrackId"$/,
    );
    expect(select?.parameters).toContain(1000);
    expect(update?.sql).toBe('update "dbo"."Track" set "Composer" = @1 where "TrackId" in (@2, @3, @4)');
    expect(update?.parameters).toEqual(['AC/DC', 1, 2, 3]);
    expect(again?.sql).toMatch(/^select .* from "dbo"\."Track" where "TrackId" in \(@1, @2, @3\)$/);
  });

  it('deletes a batch by key, and writes NULL as the literal', async () => {
    const { engine, queries } = recordingEngine();
    await engine.bulkBatch(table, {
      selection: { where: composerStartsWithA },
      after: null,
      limit: 1000,
      set: null,
    });
    expect(queries()[1]?.sql).toBe('delete from "dbo"."Track" where "TrackId" in (@1, @2, @3)');

    const nulls = recordingEngine();
    await nulls.engine.bulkBatch(table, {
      selection: { keys: [{ TrackId: 2 }] },
      after: null,
      limit: 1000,
      set: { Composer: null },
    });
    const [select, update] = nulls.queries();
    expect(select?.sql).toMatch(/with \(updlock, rowlock\) where "TrackId" in \(@2\) order by "TrackId"$/);
    expect(update?.sql).toBe('update "dbo"."Track" set "Composer" = null where "TrackId" in (@1, @2, @3)');
  });

  it('binds at most one parameter per key and value, under SQL Server’s 2,100 for a batch of 1,000', async () => {
    const { db, queries } = recordingDb((query) => {
      const text = squash(query.sql);
      if (!text.startsWith('select')) return [];
      // 1,000 rows, as a full batch reads them.
      return Array.from({ length: 1000 }, (_, i) => ({ TrackId: i + 1, Name: `n${i}`, Composer: null }));
    });
    const engine = createTableEngine('shop', mssqlAdapter(db, { name: 'shop', statementTimeoutMs: 15_000 }));
    await engine.bulkBatch(table, { selection: {}, after: null, limit: 1000, set: { Composer: 'x' } });
    const most = Math.max(...queries.map((q) => q.parameters.length));
    expect(most).toBe(1001);
    expect(most).toBeLessThan(2100);
  });

  it('counts the selection up to the cap and puts an update back by key, in CASE statements under 2,100 parameters', async () => {
    const { engine, queries } = recordingEngine();
    expect(await engine.countBulk(table, { where: composerStartsWithA }, 1_000_000)).toBe(3);
    expect(queries()[0]).toEqual({
      sql: `select count(*) as n from (select top (@1) 1 as one from "dbo"."Track" where "Composer" like @2 escape '\\') as counted`,
      parameters: [1_000_001, 'A%'],
    });

    const revert = recordingEngine();
    await revert.engine.revertBatch(table, {
      change: 'update',
      rows: [{ key: { TrackId: 1 }, before: stored[0]!, after: { ...stored[0]!, Composer: 'AC/DC' } }],
    });
    const sent = revert.queries();
    expect(sent[0]?.sql).toMatch(/with \(updlock, rowlock\) where "TrackId" in \(@2\)/);
    expect(sent[1]?.sql).toBe(
      'update "dbo"."Track" set "Composer" = case when "TrackId" = @1 then @2 else "Composer" end where "TrackId" in (@3)',
    );
    expect(sent[1]?.parameters).toEqual([1, 'Angus Young', 1]);

    // A full batch of 1,000 rows goes back in as many statements as SQL Server's 2,100 parameters need.
    const full = recordingEngine();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      key: { TrackId: i + 1 },
      before: { TrackId: i + 1, Name: `n${i}`, Composer: `c${i}` },
      after: { TrackId: i + 1, Name: `n${i}`, Composer: 'AC/DC' },
    }));
    await full.engine.revertBatch(table, { change: 'update', rows });
    const updates = full.queries().filter((q) => q.sql.startsWith('update'));
    expect(updates.length).toBeGreaterThan(1);
    expect(Math.max(...updates.map((q) => q.parameters.length))).toBeLessThanOrEqual(2100);
    expect(updates.reduce((sum, q) => sum + (q.sql.match(/ when /g)?.length ?? 0), 0)).toBe(1000);
  });
});
