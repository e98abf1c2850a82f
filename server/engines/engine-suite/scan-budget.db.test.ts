import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Filter } from '#common/contract/filter.ts';
import type { Table } from '#common/contract/sql.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import {
  bigTableScan as scanning,
  bigTableSchema,
  createBigTable,
  runningOnBigTable,
} from '#server/test/big-table.ts';
import { chosen } from '#server/test/engine-suite.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';

/*
 * Scans under a budget (issue 35, decision 0061) on a generated table of a few million rows (server/test/big-table.ts):
 * a filter no index serves is stopped by the database itself at a small budget, answered with what scans and what
 * would make it fast, and leaves nothing running (pg_stat_activity, information_schema.processlist); a writer is not
 * held up by a scan; an indexed filter on the same table answers at once; an export's count under a scan stops at
 * the budget too.
 */

/** The budget the tests' engine is given. */
const BUDGET_MS = 200;

describe.each(chosen)('scans under a budget on %s', (kind) => {
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let big: Table;

  beforeAll(async () => {
    database = await createBigTable(kind);
    engine = await connectDatabase('big', kind, database.url, {
      statementTimeoutMs: 15_000,
      poolSize: 4,
      scanTimeoutMs: BUDGET_MS,
    });
    big = await engine.table(bigTableSchema(kind, database), 'dbui_big');
  }, 600_000);
  afterAll(async () => {
    await engine?.close();
    await database?.drop();
  });

  /** The statements of the scan still running on the server (none on SQLite: it runs in the process). */
  const running = () => runningOnBigTable(kind, engine);

  it('stops a scan at the budget on the database side, says what scans and what would make it fast', async () => {
    expect((await engine.plan(big, { where: scanning })).scans).toBe(true);
    const error = await engine.page(big, { filter: {}, where: scanning, page: 1, pageSize: 20 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, 'the scan was not stopped').toBeInstanceOf(EngineError);
    const { statusCode, message } = error as EngineError;
    expect(statusCode).toBe(504);
    expect(message).toMatch(/^The filter examines every row of dbui_big, and its scan was stopped at 200 ms/);
    expect(message).toContain('where.or[0] (label contains): label has no index, so every row is examined.');
    expect(message).toMatch(
      /An index on label would let the database find the rows without reading them all, or add a condition on an indexed column \((id, n|id or n)\) that narrows the rows first\.$/,
    );
    // SQLite's own check counts the rows it examined.
    if (kind === 'sqlite') expect(message).toMatch(/stopped at 200 ms after examining [\d,]+ rows\./);
    // Cancelled on the database's side: nothing of it runs on.
    await expect.poll(running).toBe(0);
  });

  it('answers an indexed filter on the same table, and a scan narrowed by an index first', async () => {
    const narrowed: Filter = { and: [{ column: 'n', op: 'eq', value: 7 }, scanning] };
    expect((await engine.plan(big, { where: narrowed })).scans).toBe(false);
    const page = await engine.page(big, { filter: {}, where: narrowed, page: 1, pageSize: 20 });
    expect(page).toMatchObject({ results: [], count: 0, countIsExact: true });
    const indexed = await engine.page(big, {
      filter: {},
      where: { column: 'n', op: 'between', values: [1, 2] },
      page: 1,
      pageSize: 20,
    });
    expect(indexed.results).toHaveLength(20);
  });

  it('answers a scan that finds its rows in time, its count stopped at the budget as "at least"', async () => {
    // Most rows match: the first page comes at once, the count of all of them would scan the whole table.
    const common: Filter = { not: { column: 'label', op: 'startsWith', value: 'zz' } };
    expect((await engine.plan(big, { where: common })).scans).toBe(true);
    const page = await engine.page(big, { filter: {}, where: common, page: 1, pageSize: 20 });
    expect(page.results).toHaveLength(20);
    // The count stops at the capped count (100,000), as any filtered count does, or, when counting that many takes
    // longer than the budget (MariaDB on a busy machine), at the rows known so far: "at least" either way.
    expect(page.countIsExact).toBe(false);
    expect([100_000, 20]).toContain(page.count);
    // An export's count of a scan that finds nothing is stopped too: the table's figure bounds it.
    expect(await engine.countRows(big, { filter: {}, where: scanning })).toEqual({
      count: big.numberOfRows,
      exact: false,
    });
    await expect.poll(running).toBe(0);
  });

  it.skipIf(kind === 'sqlite')('lets writers change the table while a scan reads it', async () => {
    const slow = await connectDatabase('slow', kind, database.url, {
      statementTimeoutMs: 15_000,
      poolSize: 2,
      scanTimeoutMs: 10_000,
    });
    try {
      const table = await slow.table(big.schema, 'dbui_big');
      const scan = slow.page(table, { filter: {}, where: scanning, page: 1, pageSize: 20 }).then(
        () => 'answered',
        (e: unknown) => (e instanceof EngineError ? e.statusCode : e),
      );
      await expect.poll(running).toBeGreaterThan(0);
      // A write on a row the scan reads, which fails if it waits for a lock for two seconds: it is not made to wait.
      await engine.db.connection().execute(async (connection) => {
        if (kind === 'postgres') await sql`set lock_timeout = 2000`.execute(connection);
        else await sql`set session innodb_lock_wait_timeout = 2`.execute(connection);
        await sql`update dbui_big set n = n + 1000 where id = 5`.execute(connection);
        await sql`update dbui_big set n = n - 1000 where id = 5`.execute(connection);
      });
      // The scan ends as it would have (its rows or its budget), whatever the write did.
      expect(['answered', 504]).toContain(await scan);
    } finally {
      await slow.close();
    }
  });
});
