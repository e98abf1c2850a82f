import { describe, expect, it } from 'vitest';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { auditEntryWhat, bulkEntryOf, bulkFacts, whereText } from './bulk-entry-text.ts';

/*
 * A bulk change's entry in words (issue 38): the one-line summary of the trail and the start page, and the filter, set
 * and counts of its detail.
 */

const bulk = (detail: Record<string, unknown>, action = 'data.bulk', target = '/db/chinook/main/Track') => ({
  action,
  target,
  detail: {
    change: 'update',
    where: null,
    keys: null,
    set: null,
    count: 0,
    capped: false,
    job: 'a1b2',
    rows: 0,
    status: 'done',
    error: null,
    ...detail,
  },
});

describe('a bulk change in one sentence', () => {
  it('says what an update set, on how many rows of which table, and where', () => {
    expect(
      auditEntryWhat(
        bulk({
          set: { Composer: null },
          where: { column: 'GenreId', op: 'eq', value: 1 },
          count: 1234,
          rows: 1234,
        }),
      ),
    ).toBe('Set Composer = NULL on 1,234 rows of Track where GenreId = 1');
    expect(
      auditEntryWhat(bulk({ set: { Name: 'Rock', UnitPrice: '0.99' }, where: { and: [] }, rows: 1 })),
    ).toBe('Set Name = “Rock”, UnitPrice = “0.99” on 1 row of Track');
  });

  it('says what a delete took, a hand-made selection counted', () => {
    expect(
      auditEntryWhat(bulk({ change: 'delete', rows: 12 }, 'data.bulk', '/db/shop/public/invoice_line')),
    ).toBe('Deleted 12 rows of invoice_line');
    expect(
      auditEntryWhat(
        bulk({ change: 'delete', keys: [{ id: 1 }, { id: 2 }], where: { and: [] }, count: 2, rows: 2 }),
      ),
    ).toBe('Deleted 2 rows of Track (2 rows chosen by hand)');
  });

  it('says what an import wrote, from which file, and how it ran', () => {
    const entry = bulk(
      {
        change: 'import',
        file: 'genres.csv',
        size: 2048,
        mode: 'upsert',
        onError: 'skip',
        rows: 8,
        inserted: 6,
        updated: 2,
        skipped: 0,
        failed: 1,
      },
      'data.bulk',
      '/db/chinook/main/Genre',
    );
    expect(auditEntryWhat(entry)).toBe(
      'Imported genres.csv into Genre: 6 rows inserted, 2 updated, 1 failed',
    );
    const facts = Object.fromEntries(bulkFacts(bulkEntryOf(entry)!));
    expect(facts).toMatchObject({
      Change: 'Import a file',
      File: 'genres.csv (2,048 bytes)',
      Mode: 'Insert or update by key',
      'On error': 'Skip bad rows',
      Status: 'Done',
    });
  });

  it('says where an unfinished change stands, counting the rows it was started for', () => {
    const set = { set: { Composer: null }, count: 1_000_000, capped: true };
    expect(auditEntryWhat(bulk({ ...set, status: 'running', rows: 3000 }))).toBe(
      'Set Composer = NULL on 1,000,000+ rows of Track — running',
    );
    expect(auditEntryWhat(bulk({ ...set, status: 'cancelled', rows: 400 }))).toBe(
      'Set Composer = NULL on 1,000,000+ rows of Track — cancelled after 400 rows',
    );
    expect(
      auditEntryWhat(
        bulk({
          change: 'delete',
          count: 12,
          status: 'failed',
          rows: 5,
          error: 'The change stopped at the row {"id":6}: a row of invoice refers to it.',
        }),
      ),
    ).toBe(
      'Deleted 12 rows of Track — failed after 5 rows: The change stopped at the row {"id":6}: a row of invoice refers to it.',
    );
  });

  it('says what an undo of one put back', () => {
    const undo = (detail: Record<string, unknown>) =>
      auditEntryWhat({
        action: 'data.undo',
        target: '/db/chinook/main/Track',
        detail: { of: 40, change: 'bulk', job: 'c3', ...detail },
      });
    expect(undo({ rows: 230, status: 'done' })).toBe('Undid bulk change #40: put back 230 rows of Track');
    expect(undo({ rows: 0, status: 'queued' })).toBe('Undo of bulk change #40 on Track — waiting to start');
    expect(undo({ rows: 50, status: 'running' })).toBe('Undo of bulk change #40 on Track — running');
  });

  it('leaves other entries to their action’s words', () => {
    expect(
      auditEntryWhat({
        action: 'data.undo',
        target: '/db/chinook/main/Genre',
        detail: { of: 7, change: 'update', key: { GenreId: 1 }, before: null, after: null },
      }),
    ).toBe('Change undone');
    expect(
      bulkEntryOf({ action: 'data.update', detail: { key: {} } } as Pick<
        AuditEntryView,
        'action' | 'detail'
      >),
    ).toBeNull();
  });
});

describe('a filter document in words', () => {
  it('joins conditions with and / or, brackets nested groups and lists a few values of an in', () => {
    expect(whereText({ and: [] })).toBeNull();
    expect(whereText(null)).toBeNull();
    expect(
      whereText({
        and: [
          { column: 'Total', op: 'ge', value: 10 },
          {
            or: [
              { column: 'Country', op: 'isNull' },
              { column: 'Country', op: 'startsWith', value: 'U' },
            ],
          },
          { not: { column: 'Id', op: 'in', values: [1, 2, 3, 4, 5, 6, 7] } },
          { column: 'At', op: 'between', values: ['2026-01-01', '2026-02-01'] },
        ],
      }),
    ).toBe(
      'Total ≥ 10 and (Country is null or Country starts with “U”) and not (Id is one of 1, 2, 3, 4, 5 and 2 more) ' +
        'and At between “2026-01-01” and “2026-02-01”',
    );
  });
});

describe('a bulk change’s detail', () => {
  it('names the filter, the rows chosen, the set, the counts and why it stopped', () => {
    const entry = bulkEntryOf(
      bulk({
        where: { column: 'GenreId', op: 'eq', value: 1 },
        keys: [{ TrackId: 1 }, { TrackId: 2 }],
        set: { Composer: null },
        count: 2,
        rows: 1,
        status: 'failed',
        error: 'The change stopped at the row {"TrackId":2}: the database refused the change',
      }),
    );
    expect(entry && bulkFacts(entry)).toEqual([
      ['Change', 'Set values'],
      ['Filter', 'GenreId = 1'],
      ['Rows chosen', '2 rows: TrackId 1; TrackId 2'],
      ['Set', 'Composer = NULL'],
      ['Counted at the start', '2 rows'],
      ['Rows changed', '1 row'],
      ['Status', 'Failed'],
      ['Why it stopped', 'The change stopped at the row {"TrackId":2}: the database refused the change'],
    ]);
    const all = bulkEntryOf(bulk({ change: 'delete', where: { and: [] }, count: 3, rows: 3 }));
    expect(all && bulkFacts(all)).toContainEqual(['Filter', 'none: every row of the table']);
  });
});
