import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Filter } from '#common/contract/filter.ts';
import type { Row, Table } from '#common/contract/sql.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { chosen, expectError, openSuiteEngine } from '#server/test/engine-suite.ts';
import { exact, filterRows, generalCi, type OracleColumns } from '#server/test/filter-oracle.ts';

/*
 * The filter document (issue 35, decision 0061) on every engine: each operator and nesting, checked against the same
 * filter computed in the test (server/test/filter-oracle.ts) from every row of Chinook read through the engine. Pages,
 * counts and streams of the filtered rows, LIKE's wildcards taken literally, and the 400s that name the condition.
 */

describe.each(chosen)('filters on the %s engine', (kind) => {
  let engine: DatabaseEngine;
  let schema: string;
  const { n, table, allRows } = openSuiteEngine(kind, (opened) => ({ engine, schema } = opened));
  /** MariaDB's Chinook is utf8 with utf8_general_ci (case- and accent-insensitive); SQLite's and PostgreSQL's
   * (C.UTF-8) compare code points. */
  const fold = kind === 'mysql' ? generalCi : exact;

  let track: Table;
  let invoice: Table;
  let trackRows: Row[];
  let invoiceRows: Row[];
  let trackColumns: OracleColumns;
  let invoiceColumns: OracleColumns;

  beforeAll(async () => {
    track = await table('Track');
    invoice = await table('Invoice');
    trackRows = await allRows(track);
    invoiceRows = await allRows(invoice);
    trackColumns = {
      [n('TrackId')]: { kind: 'number' },
      [n('Name')]: { kind: 'text', fold },
      [n('Composer')]: { kind: 'text', fold },
      [n('AlbumId')]: { kind: 'number' },
      [n('GenreId')]: { kind: 'number' },
      [n('Milliseconds')]: { kind: 'number' },
      [n('Bytes')]: { kind: 'number' },
      [n('UnitPrice')]: { kind: 'number' },
    };
    invoiceColumns = {
      [n('InvoiceId')]: { kind: 'number' },
      [n('CustomerId')]: { kind: 'number' },
      [n('InvoiceDate')]: { kind: 'datetime' },
      [n('BillingState')]: { kind: 'text', fold },
      [n('BillingCountry')]: { kind: 'text', fold },
      [n('Total')]: { kind: 'number' },
    };
  });

  const ids = (rows: Row[], key: string) => rows.map((row) => row[n(key)]);

  /** Every row the engine's filtered pages hold, and the first page's count. */
  async function pagedRows(t: Table, where: Filter, orderBy: string | null = null) {
    const rows: Row[] = [];
    let count = -1;
    let exactCount = false;
    for (let page = 1; ; page++) {
      const result = await engine.page(t, { filter: {}, where, orderBy, page, pageSize: 100 });
      if (page === 1) ({ count, countIsExact: exactCount } = result);
      rows.push(...result.results);
      if (result.results.length < 100 || rows.length >= count) break;
    }
    return { rows, count, exactCount };
  }

  /** The filter's rows through pages, count and stream are the oracle's. */
  async function expectSame(t: Table, key: string, where: Filter, all: Row[], columns: OracleColumns) {
    const expected = ids(filterRows(all, where, columns), key);
    const paged = await pagedRows(t, where);
    expect(ids(paged.rows, key), JSON.stringify(where)).toEqual(expected);
    expect(paged.count, JSON.stringify(where)).toBe(expected.length);
    expect(paged.exactCount).toBe(true);
    const counted = await engine.countRows(t, { filter: {}, where });
    expect(counted).toEqual({ count: expected.length, exact: true });
    return expected.length;
  }

  const onTrack = (where: Filter) => expectSame(track, 'TrackId', where, trackRows, trackColumns);
  const onInvoice = (where: Filter) => expectSame(invoice, 'InvoiceId', where, invoiceRows, invoiceColumns);
  const c = (column: string, op: string, rest: { value?: unknown; values?: unknown[] } = {}) =>
    ({ column: n(column), op, ...rest }) as Filter;

  it('compares numbers with every operator, exact decimals as text', async () => {
    const kept: number[] = [];
    for (const where of [
      c('Milliseconds', 'eq', { value: 343719 }),
      c('Milliseconds', 'ne', { value: 343719 }),
      c('Milliseconds', 'lt', { value: 100000 }),
      c('Milliseconds', 'le', { value: '99999' }),
      c('Milliseconds', 'gt', { value: 1000000 }),
      c('Milliseconds', 'ge', { value: 1000000 }),
      c('Milliseconds', 'between', { values: [200000, 210000] }),
      c('Milliseconds', 'between', { values: [210000, 200000] }),
      c('GenreId', 'in', { values: [1, '3', 25] }),
      c('UnitPrice', 'eq', { value: '1.99' }),
      c('UnitPrice', 'gt', { value: 0.99 }),
      c('UnitPrice', 'le', { value: '0.99' }),
      c('Bytes', 'lt', { value: '9007199254740993' }),
    ])
      kept.push(await onTrack(where));
    // Each filter kept some rows and dropped some, but the between backwards (none) and the number past 2^53 (all).
    expect(kept.filter((k) => k > 0 && k < trackRows.length)).toHaveLength(11);
    // Numbers past what the column's type holds (PostgreSQL would refuse to compare them): none equal, all below.
    const huge = '99999999999999999999';
    expect(await onTrack(c('Milliseconds', 'eq', { value: huge }))).toBe(0);
    expect(await onTrack(c('Milliseconds', 'ne', { value: huge }))).toBe(trackRows.length);
    expect(await onTrack(c('Milliseconds', 'lt', { value: huge }))).toBe(trackRows.length);
    expect(await onTrack(c('Milliseconds', 'gt', { value: `-${huge}` }))).toBe(trackRows.length);
    expect(await onTrack(c('Milliseconds', 'ge', { value: huge }))).toBe(0);
    expect(await onTrack(c('Milliseconds', 'in', { values: [huge, 343719] }))).toBe(1);
    expect(await onTrack(c('Milliseconds', 'between', { values: [`-${huge}`, 200000] }))).toBeGreaterThan(0);
    expect(await onTrack({ not: c('Milliseconds', 'in', { values: [huge] }) })).toBe(trackRows.length);
    expect(await onTrack(c('UnitPrice', 'lt', { value: '100000000000' }))).toBe(trackRows.length);
  });

  it('compares booleans, GUIDs, times and dates of a table with every type', async () => {
    const types = await table('dbui_types');
    const uids: [string, string, string] = [
      '0a6f3f5e-7d2b-4c1e-9a0b-1c2d3e4f5a6b',
      '1b7e4a6f-8e3c-4d2f-8b1c-2d3e4f5a6b7c',
      '2c8f5b70-9f4d-4e3a-9c2d-3e4f5a6b7c8d',
    ];
    const made: Record<string, string | boolean | null>[] = [
      {
        label: 'one',
        flag: true,
        day: '2024-02-29',
        clock: '08:00:00',
        stamp: '2024-03-01 10:00:00',
        uid: uids[0],
      },
      {
        label: 'two',
        flag: false,
        day: '2024-03-01',
        clock: '12:30:00',
        stamp: '2024-03-01 23:59:59',
        uid: uids[1],
      },
      { label: 'three', flag: true, day: null, clock: null, stamp: '2024-03-02 00:00:00', uid: uids[2] },
      { label: 'four', flag: false },
    ];
    // uid is the row's guid (DBUI fills it in): set it with SQL of the test's own.
    for (const { uid, ...row } of made) {
      await engine.upsert(types, row);
      if (typeof uid === 'string')
        await sql`update dbui_types set uid = ${uid} where label = ${row.label}`.execute(engine.db);
    }
    const rows = await allRows(types);
    expect(rows).toHaveLength(4);
    const columns: OracleColumns = {
      id: { kind: 'number' },
      label: { kind: 'text', fold },
      flag: { kind: 'boolean' },
      day: { kind: 'date' },
      clock: { kind: 'text', fold: exact },
      stamp: { kind: 'datetime' },
      uid: { kind: 'guid' },
    };
    const onTypes = (where: Filter) => expectSame(types, 'id', where, rows, columns);
    expect(await onTypes({ column: 'flag', op: 'eq', value: true })).toBe(2);
    expect(await onTypes({ column: 'flag', op: 'ne', value: 'true' })).toBe(2);
    expect(await onTypes({ not: { column: 'flag', op: 'eq', value: false } })).toBe(2);
    expect(await onTypes({ column: 'uid', op: 'eq', value: uids[1].toUpperCase() })).toBe(1);
    expect(await onTypes({ column: 'uid', op: 'in', values: [uids[0], `{${uids[2]}}`] })).toBe(2);
    expect(await onTypes({ column: 'uid', op: 'isNotNull' })).toBe(4);
    expect(await onTypes({ column: 'clock', op: 'lt', value: '12:00:00' })).toBe(1);
    expect(await onTypes({ column: 'clock', op: 'ge', value: '08:00:00' })).toBe(2);
    expect(await onTypes({ column: 'day', op: 'eq', value: '2024-02-29' })).toBe(1);
    expect(await onTypes({ column: 'day', op: 'le', value: '2024-03-01' })).toBe(2);
    expect(await onTypes({ column: 'stamp', op: 'eq', value: '2024-03-01' })).toBe(2);
    expect(await onTypes({ column: 'stamp', op: 'gt', value: '2024-03-01' })).toBe(1);
    expect(await onTypes({ column: 'stamp', op: 'le', value: '2024-03-01' })).toBe(2);
    expect(await onTypes({ column: 'bytes', op: 'isNull' })).toBe(4);
    const page = (where: Filter) => engine.page(types, { filter: {}, where, page: 1, pageSize: 20 });
    await expectError(
      page({ column: 'bytes', op: 'eq', value: 'AAE=' }),
      400,
      /^where \(bytes eq\): eq does not suit .+ values; bytes \(.+\) takes isNull, isNotNull\.$/,
    );
    await expectError(
      page({ column: 'flag', op: 'lt', value: true }),
      400,
      /^where \(flag lt\): lt does not suit/,
    );
    await expectError(
      page({ column: 'uid', op: 'eq', value: 'not-a-guid' }),
      400,
      'where (uid eq): "not-a-guid" is not a GUID (8-4-4-4-12 hexadecimal digits).',
    );
    await expectError(
      page({ column: 'clock', op: 'eq', value: 12 }),
      400,
      'where (clock eq): clock takes a time (HH:MM:SS) as text, not 12.',
    );
    await expectError(
      page({ column: 'flag', op: 'eq', value: 'yes' }),
      400,
      'where (flag eq): "yes" is not true or false.',
    );
  });

  it('treats null as a value no comparison keeps, and not as the complement', async () => {
    const composer = n('Composer');
    const nulls = trackRows.filter((row) => row[composer] === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(await onTrack(c('Composer', 'isNull'))).toBe(nulls);
    expect(await onTrack(c('Composer', 'isNotNull'))).toBe(trackRows.length - nulls);
    const ac = c('Composer', 'eq', { value: 'AC/DC' });
    const acdc = await onTrack(ac);
    expect(acdc).toBeGreaterThan(0);
    // ne keeps the rows with another value; not eq also the rows without one.
    expect(await onTrack(c('Composer', 'ne', { value: 'AC/DC' }))).toBe(trackRows.length - nulls - acdc);
    expect(await onTrack({ not: ac })).toBe(trackRows.length - acdc);
    expect(await onTrack({ not: { not: ac } })).toBe(acdc);
    expect(await onTrack({ not: c('Composer', 'contains', { value: 'Johnson' }) })).toBeGreaterThan(nulls);
    expect(await onTrack({ not: c('Composer', 'isNull') })).toBe(trackRows.length - nulls);
  });

  it('matches text: equality, lists, starts with, contains, ends with, ranges', async () => {
    for (const where of [
      c('Name', 'eq', { value: 'Balls to the Wall' }),
      c('Name', 'in', { values: ['Balls to the Wall', 'Fast As a Shark', 'Nobody Here'] }),
      c('Name', 'startsWith', { value: 'Love' }),
      c('Name', 'startsWith', { value: 'love' }),
      c('Name', 'contains', { value: 'love' }),
      c('Name', 'contains', { value: 'Love' }),
      c('Name', 'contains', { value: '(' }),
      c('Name', 'endsWith', { value: 'Blues' }),
      c('Name', 'endsWith', { value: ')' }),
      c('Composer', 'contains', { value: 'Jagger' }),
      c('Composer', 'startsWith', { value: '' }),
      c('Name', 'contains', { value: '' }),
      c('Name', 'lt', { value: 'B' }),
      c('Name', 'ge', { value: 'W' }),
      c('Name', 'between', { values: ['M', 'O'] }),
    ])
      await onTrack(where);
    // Case follows the engine's starts-with rule: exact on SQLite and PostgreSQL, the collation's on MariaDB.
    const lower = await onTrack(c('Name', 'contains', { value: 'love' }));
    const upper = await onTrack(c('Name', 'contains', { value: 'Love' }));
    if (kind === 'mysql') expect(lower).toBe(upper);
    else expect(lower).not.toBe(upper);
  });

  it('matches a bare date as its whole day and a date-time exactly', async () => {
    const date = n('InvoiceDate');
    const sample = invoiceRows[100]?.[date] as string;
    const day = sample.slice(0, 10);
    expect(await onInvoice(c('InvoiceDate', 'eq', { value: day }))).toBeGreaterThan(0);
    for (const where of [
      c('InvoiceDate', 'ne', { value: day }),
      c('InvoiceDate', 'lt', { value: day }),
      c('InvoiceDate', 'le', { value: day }),
      c('InvoiceDate', 'gt', { value: day }),
      c('InvoiceDate', 'ge', { value: day }),
      c('InvoiceDate', 'between', { values: ['2010-01-01', '2010-03-31'] }),
      c('InvoiceDate', 'in', { values: [day, '2012-01-01', '2013-12-22'] }),
      c('InvoiceDate', 'eq', { value: sample }),
      c('InvoiceDate', 'gt', { value: sample }),
    ])
      await onInvoice(where);
    await expectError(
      engine.page(invoice, {
        filter: {},
        where: c('InvoiceDate', 'eq', { value: '2010-02-30' }),
        page: 1,
        pageSize: 20,
      }),
      400,
      `where (${date} eq): "2010-02-30" is not a day of the calendar.`,
    );
  });

  it('nests and, or and not', async () => {
    const rock = c('GenreId', 'eq', { value: 1 });
    const long = c('Milliseconds', 'gt', { value: 300000 });
    const cheap = c('UnitPrice', 'le', { value: '0.99' });
    const composed = c('Composer', 'isNotNull');
    for (const where of [
      { and: [] },
      { and: [rock] },
      { or: [rock] },
      { and: [rock, long] },
      { or: [rock, long] },
      { and: [rock, { or: [long, { not: cheap }] }] },
      { or: [{ and: [rock, long] }, { and: [{ not: rock }, { not: composed }] }] },
      { not: { or: [rock, { and: [long, composed] }] } },
      { not: { and: [{ not: rock }, { or: [long, { not: c('Composer', 'contains', { value: 'a' }) }] }] } },
      {
        and: [
          { or: [{ not: { and: [rock, { or: [long, cheap] }] } }, c('Name', 'startsWith', { value: 'A' })] },
          c('AlbumId', 'between', { values: [1, 100] }),
        ],
      },
      { or: [{ and: [] }, rock] },
      { and: [{ and: [] }, rock] },
    ] as Filter[])
      await onTrack(where);
    expect(await onTrack({ and: [] })).toBe(trackRows.length);
  });

  it('takes % _ and the escape characters literally in text operators', async () => {
    const artist = await table('Artist');
    const names = ['50% off', '50 percent', 'a_b', 'axb', 'back\\slash', 'bang!', 'brace[x]', "it's"];
    for (const name of names) await engine.upsert(artist, { [n('Name')]: name });
    const rows = await allRows(artist);
    const columns: OracleColumns = {
      [n('ArtistId')]: { kind: 'number' },
      [n('Name')]: { kind: 'text', fold },
    };
    const onArtist = (where: Filter) => expectSame(artist, 'ArtistId', where, rows, columns);
    for (const [op, value, count] of [
      ['contains', '%', 1],
      ['contains', '0%', 1],
      ['startsWith', '50%', 1],
      ['contains', '_', 1],
      ['endsWith', '_b', 1],
      ['contains', '\\', 1],
      ['endsWith', '!', 1],
      ['contains', '[x]', 1],
      ['contains', "'", null],
      ['eq', 'a_b', 1],
    ] as const) {
      const kept = await onArtist(c('Name', op, { value }));
      if (count !== null) expect(kept, `${op} ${value}`).toBe(count);
    }
  });

  it('pages a filtered table by seeking and streams the filtered rows', async () => {
    const where: Filter = {
      or: [c('GenreId', 'in', { values: [1, 2] }), c('Name', 'contains', { value: 'e' })],
    };
    const expected = filterRows(trackRows, where, trackColumns);
    const first = await engine.page(track, { filter: {}, where, page: 1, pageSize: 20 });
    expect(first.boundary).not.toBeNull();
    const second = await engine.page(track, {
      filter: {},
      where,
      page: 2,
      pageSize: 20,
      from: { page: 1, boundary: first.boundary! },
    });
    expect(second.readBy.seek).toBe(true);
    expect(ids(second.results, 'TrackId')).toEqual(ids(expected.slice(20, 40), 'TrackId'));
    const streamed: Row[] = [];
    for await (const chunk of engine.streamRows(track, { filter: {}, where }, { chunkSize: 500 }))
      streamed.push(...chunk);
    expect(ids(streamed, 'TrackId')).toEqual(ids(expected, 'TrackId'));
    // Descending by a column, with the search terms beside the filter.
    const both = await engine.page(track, {
      filter: { [n('TrackId')]: '5' },
      where: c('TrackId', 'ge', { value: 1 }),
      orderBy: `-${n('Milliseconds')}`,
      page: 1,
      pageSize: 20,
    });
    expect(ids(both.results, 'TrackId')).toEqual([5]);
  });

  it('plans each condition as indexed or scanning, and the whole filter', async () => {
    const album = c('AlbumId', 'eq', { value: 1 });
    const composer = c('Composer', 'contains', { value: 'a' });
    const plan = await engine.plan(track, { where: { and: [album, composer] }, orderBy: n('Name') });
    expect(plan.conditions).toEqual([
      {
        path: 'where.and[0]',
        column: n('AlbumId'),
        op: 'eq',
        access: 'index',
        index: expect.stringMatching(/album/i),
        reason: expect.stringMatching(/^The index .+ serves eq\.$/),
      },
      {
        path: 'where.and[1]',
        column: n('Composer'),
        op: 'contains',
        access: 'scan',
        index: null,
        reason: `${n('Composer')} has no index, so every row is examined.`,
      },
    ]);
    // An AND scans only when none of its parts is indexed; the engine estimates the rows where it can.
    expect(plan).toMatchObject({ scans: false, advice: null, scanBudgetMs: 5000 });
    if (kind === 'sqlite') expect(plan.estimatedRows).toBeNull();
    else expect(plan.estimatedRows).toEqual(expect.any(Number));
    const scans = async (where: Filter) => (await engine.plan(track, { where })).scans;
    expect(await scans({ or: [album, composer] })).toBe(true);
    expect(await scans({ or: [album, c('GenreId', 'in', { values: [1, 2] })] })).toBe(false);
    expect(await scans({ not: album })).toBe(true);
    expect(await scans({ not: { not: album } })).toBe(false);
    expect(await scans({ not: c('AlbumId', 'lt', { value: 5 }) })).toBe(false);
    expect(await scans({ not: c('AlbumId', 'between', { values: [1, 5] }) })).toBe(true);
    expect(await scans({ not: { or: [album, composer] } })).toBe(true);
    expect(await scans({ not: { or: [c('AlbumId', 'ne', { value: 1 }), composer] } })).toBe(false);
    expect(await scans({ not: { and: [album, composer] } })).toBe(true);
    expect(await scans(c('TrackId', 'ne', { value: 3 }))).toBe(true);
    expect(await scans(c('TrackId', 'isNull'))).toBe(false);
    expect(await scans({ and: [] })).toBe(false);
    const scanning = await engine.plan(track, { where: { or: [album, composer] } });
    expect(scanning.advice).toMatch(
      new RegExp(
        `^An index on ${n('Composer')} would let the database find the rows without reading them all, or add a condition on an indexed column \\(.*${n('AlbumId')}.*\\) that narrows the rows first\\.$`,
      ),
    );
    await expectError(
      engine.plan(track, { where: composer, orderBy: 'Nope' }),
      400,
      `orderBy: Nope is not a column of ${n('Track')}.`,
    );
  });

  it('refuses a filter that does not fit the table with the condition and what to fix', async () => {
    const page = (where: unknown) =>
      engine.page(track, { filter: {}, where: where as Filter, page: 1, pageSize: 20 });
    const name = n('Name');
    const ms = n('Milliseconds');
    await expectError(
      page({ and: [c('Name', 'eq', { value: 'x' }), { column: 'Nope', op: 'eq', value: 1 }] }),
      400,
      'where.and[1] (Nope eq): Nope is not a column of this table.',
    );
    await expectError(
      page(c('Milliseconds', 'contains', { value: '1' })),
      400,
      new RegExp(`^where \\(${ms} contains\\): contains works only on text columns`),
    );
    await expectError(
      page({ or: [c('Milliseconds', 'gt', { value: 'abc' })] }),
      400,
      `where.or[0] (${ms} gt): "abc" is not a number.`,
    );
    await expectError(
      page(c('Milliseconds', 'in', { values: [1, 2.5] })),
      400,
      `where (${ms} in): values[1] "2.5" is not a whole number.`,
    );
    await expectError(
      page({ not: c('Name', 'eq', { value: 5 }) }),
      400,
      `where.not (${name} eq): ${name} holds text; send the value as text (a JSON string), not 5.`,
    );
    await expectError(
      page(c('UnitPrice', 'eq', { value: true })),
      400,
      `where (${n('UnitPrice')} eq): "true" is not a number.`,
    );
    await expectError(
      page({
        and: [
          { column: 'A', op: 'eq', value: 1 },
          { column: 'B', op: 'isNull' },
        ],
      }),
      400,
      /^where\.and\[0\] \(A eq\): A is not a column of this table\. where\.and\[1\] \(B isNull\): B is not a column of this table\.$/,
    );
    expect(schema).toBeTruthy();
  });
});
