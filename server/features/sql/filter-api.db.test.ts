import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ExportStatus } from '#common/contract/exports.ts';
import type { Filter, FilterPlan } from '#common/contract/filter.ts';
import { encodeBody, type PageResult, type Row, type Table } from '#common/contract/sql.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { bigTableScan, bigTableSchema, createBigTable, runningOnBigTable } from '#server/test/big-table.ts';
import { loadChinook } from '#server/test/chinook.ts';
import {
  chinookName,
  csvCell,
  readCsv,
  rowsThroughPages,
  schemaOf,
  waitForExport,
  type Envelope,
  type Kind,
} from '#server/test/export-steps.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { exact, filterRows, generalCi, type OracleColumns } from '#server/test/filter-oracle.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { pageCursorMessages } from './page-cursor.ts';

/*
 * The filter calls over HTTP (issue 35): POST …/query, …/query/plan and …/query/export against real Chinook databases
 * on SQLite, PostgreSQL and MariaDB (ENGINES=… to choose), each answer checked against the same filter computed in
 * the test from every row of the table (server/test/filter-oracle.ts); then a scan stopped at its budget through the
 * API on a generated table of millions of rows, with nothing left running on the database.
 */

const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

type Body = { text: string } | { json: unknown };

/** Calls the app in-process with a body in one of the data calls' encodings. */
function caller(t: () => TestApp) {
  return (url: string, user: TestUser, body?: Body, method: 'GET' | 'POST' = 'POST') => {
    const headers: Record<string, string> = { ...user.headers };
    const options: InjectOptions = { method, url, headers };
    if (body && 'text' in body) {
      headers['content-type'] = 'text/plain';
      options.payload = body.text;
    } else if (body) {
      headers['content-type'] = 'application/json';
      options.payload = JSON.stringify(body.json);
    }
    return t().app.inject(options);
  };
}

/** The envelope's data of a 200 (or the given status). */
function dataOf<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<Envelope<T>>();
  expect(body.isSuccess).toBe(true);
  return body.data;
}

/** A refusal: the status, the envelope without data, the message, and no SQL or stack in it. */
function refusal(response: LightMyRequestResponse, status: number, message: string | RegExp): string {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json<Envelope<null>>();
  expect(body).toMatchObject({ isSuccess: false, data: null });
  const text = body.message ?? '';
  if (typeof message === 'string') expect(text).toBe(message);
  else expect(text).toMatch(message);
  expect(text).not.toMatch(/select |insert into|update .* set|delete from|\n\s+at /i);
  return text;
}

describe.each(chosen)('the filter calls on %s', (kind) => {
  const n = (pascal: string) => chinookName(kind, pascal);
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  let reader: TestUser;
  let genreOnly: TestUser;
  let track: Table;
  let trackRows: Row[];
  let columns: OracleColumns;
  const call = caller(() => t);
  /** /api/sql/chinook/{schema}/{table}{rest} */
  const at = (pascal: string, rest = '') => `/api/sql/chinook/${schema}/${n(pascal)}${rest}`;
  const c = (column: string, op: string, rest: { value?: unknown; values?: unknown[] } = {}) =>
    ({ column: n(column), op, ...rest }) as Filter;
  const ids = (rows: Row[]) => rows.map((row) => Number(row[n('TrackId')]));
  /** The Track ids the filter keeps, computed from every row (in key order, the default order). */
  const expected = (where: Filter) => ids(filterRows(trackRows, where, columns));
  const encoded = (value: Record<string, unknown>): Body => ({ text: encodeBody(value) });

  /** Every row of the filter through its pages read by number (100 a page), and the first page's count. */
  async function everyPage(where: Filter, search?: Record<string, unknown>) {
    const rows: Row[] = [];
    let first: PageResult | null = null;
    for (let page = 1; ; page++) {
      const result = dataOf<PageResult>(
        await call(
          at('Track', `/query?page=${page}&pageSize=100`),
          reader,
          encoded({ where, ...(search ? { search } : {}) }),
        ),
      );
      first ??= result;
      rows.push(...result.results);
      if (result.results.length < 100 || rows.length >= result.count) break;
    }
    return { ids: ids(rows), count: first?.count, countIsExact: first?.countIsExact };
  }

  beforeAll(async () => {
    database = await loadChinook(kind);
    schema = schemaOf(kind, database);
    engine = await connectDatabase('chinook', kind, database.url);
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
    reader = await buildUser(t, { links: ['/db/chinook/*'] });
    genreOnly = await buildUser(t, { links: [`/db/chinook/${schema}/${n('Genre')}`] });
    track = await engine.table(schema, n('Track'));
    trackRows = await rowsThroughPages(engine, track);
    // MariaDB's Chinook compares text as utf8_general_ci; SQLite's and PostgreSQL's compare code points.
    const fold = kind === 'mysql' ? generalCi : exact;
    columns = {
      [n('TrackId')]: { kind: 'number' },
      [n('Name')]: { kind: 'text', fold },
      [n('Composer')]: { kind: 'text', fold },
      [n('AlbumId')]: { kind: 'number' },
      [n('GenreId')]: { kind: 'number' },
      [n('MediaTypeId')]: { kind: 'number' },
      [n('Milliseconds')]: { kind: 'number' },
      [n('Bytes')]: { kind: 'number' },
      [n('UnitPrice')]: { kind: 'number' },
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  /** Genres 1 or 3, or a name starting with "The", lasting 200 to 300 seconds. */
  const orAndRange = (): Filter => ({
    and: [
      { or: [c('GenreId', 'in', { values: [1, 3] }), c('Name', 'startsWith', { value: 'The' })] },
      c('Milliseconds', 'between', { values: [200_000, 300_000] }),
    ],
  });

  it('pages the rows an OR and a range keep, with their exact count, in each body encoding', async () => {
    const where = orAndRange();
    const kept = expected(where);
    expect(kept.length).toBeGreaterThan(300);
    for (const body of [encoded({ where }), { json: encodeBody({ where }) }, { json: { where } }]) {
      const first = dataOf<PageResult>(await call(at('Track', '/query?pageSize=100'), reader, body));
      expect([first.count, first.countIsExact]).toEqual([kept.length, true]);
      expect(ids(first.results)).toEqual(kept.slice(0, 100));
      expect(first.cursor).toEqual(expect.any(String));
      // Rows as the data API answers them: with their version.
      expect(first.results[0]).toHaveProperty('$version');
    }
    expect(await everyPage(where)).toEqual({ ids: kept, count: kept.length, countIsExact: true });
    // No body, or an empty one: every row.
    for (const body of [undefined, { text: '' }, { json: {} }])
      expect(dataOf<PageResult>(await call(at('Track', '/query'), reader, body)).count).toBe(
        trackRows.length,
      );
  });

  it('ANDs the spec’s search terms with the filter', async () => {
    const where = orAndRange();
    const search = { [n('AlbumId')]: 141 };
    const kept = ids(filterRows(trackRows, { and: [where, c('AlbumId', 'eq', { value: 141 })] }, columns));
    expect(kept.length).toBeGreaterThan(0);
    expect(await everyPage(where, search)).toEqual({ ids: kept, count: kept.length, countIsExact: true });
    // Search terms alone, as the page search answers them.
    const alone = dataOf<PageResult>(
      await call(at('Track', '/query?pageSize=100'), reader, encoded({ search })),
    );
    const searched = dataOf<PageResult>(
      await call(at('Track', '/page/1/search?pageSize=100'), reader, encoded(search)),
    );
    expect(ids(alone.results)).toEqual(ids(searched.results));
    expect(alone.count).toBe(searched.count);
  });

  it('keeps null apart: isNull, isNotNull, and ne or not that no null passes', async () => {
    const composer = n('Composer');
    const nulls = trackRows.filter((row) => row[composer] === null).length;
    expect(nulls).toBeGreaterThan(0);
    for (const where of [
      c('Composer', 'isNull'),
      c('Composer', 'isNotNull'),
      c('Composer', 'ne', { value: 'AC/DC' }),
      { not: c('Composer', 'eq', { value: 'AC/DC' }) },
      { not: c('Composer', 'isNull') },
      { or: [c('Composer', 'isNull'), c('Composer', 'startsWith', { value: 'Ang' })] },
    ] as Filter[]) {
      const kept = expected(where);
      const answer = dataOf<PageResult>(
        await call(at('Track', '/query?pageSize=100'), reader, encoded({ where })),
      );
      expect(answer.count, JSON.stringify(where)).toBe(kept.length);
      expect(ids(answer.results), JSON.stringify(where)).toEqual(kept.slice(0, 100));
    }
    expect(expected(c('Composer', 'isNull'))).toHaveLength(nulls);
    expect(expected(c('Composer', 'ne', { value: 'AC/DC' })).length).toBeLessThan(trackRows.length - nulls);
  });

  it('reads Next and Previous under a filter from the cursor: the same rows as by number', async () => {
    const where = orAndRange();
    const kept = expected(where);
    const page = async (number: number, cursor: string | null, orderBy = '') =>
      dataOf<PageResult>(
        await call(
          at(
            'Track',
            `/query?page=${number}&pageSize=20${orderBy ? `&orderBy=${orderBy}` : ''}${cursor ? `&cursor=${cursor}` : ''}`,
          ),
          reader,
          encoded({ where }),
        ),
      );
    const p1 = await page(1, null);
    const p2 = await page(2, p1.cursor ?? null);
    const p3 = await page(3, p2.cursor ?? null);
    expect([ids(p1.results), ids(p2.results), ids(p3.results)]).toEqual([
      kept.slice(0, 20),
      kept.slice(20, 40),
      kept.slice(40, 60),
    ]);
    // Previous from page 3, then from page 2: the pages shown before.
    const back2 = await page(2, p3.cursor ?? null);
    const back1 = await page(1, back2.cursor ?? null);
    expect(ids(back2.results)).toEqual(ids(p2.results));
    expect(ids(back1.results)).toEqual(ids(p1.results));
    // In another order, Next and Previous agree with the pages read by number.
    const order = `-${n('Milliseconds')}`;
    const o1 = await page(1, null, order);
    const o2 = await page(2, o1.cursor ?? null, order);
    expect(ids(o2.results)).toEqual(ids((await page(2, null, order)).results));
    const o1Again = await page(1, o2.cursor ?? null, order);
    expect(ids(o1Again.results)).toEqual(ids(o1.results));
    const lengths = o1.results.map((row) => Number(row[n('Milliseconds')]));
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    // The same document with its keys in another order is the same filter: its cursors are taken.
    const reordered = {
      and: [
        {
          or: [{ values: [1, 3], op: 'in', column: n('GenreId') }, c('Name', 'startsWith', { value: 'The' })],
        },
        { values: [200_000, 300_000], column: n('Milliseconds'), op: 'between' },
      ],
    };
    const again = dataOf<PageResult>(
      await call(
        at('Track', `/query?page=2&pageSize=20&cursor=${p1.cursor}`),
        reader,
        encoded({ where: reordered }),
      ),
    );
    expect(ids(again.results)).toEqual(ids(p2.results));
    // A cursor of another filter, of the unfiltered page, or with other search terms is refused.
    const other = encoded({ where: c('GenreId', 'eq', { value: 1 }) });
    refusal(
      await call(at('Track', `/query?page=2&pageSize=20&cursor=${p1.cursor}`), reader, other),
      400,
      pageCursorMessages.invalid,
    );
    const unfiltered = dataOf<PageResult>(
      await call(at('Track', '/page/1?pageSize=20'), reader, undefined, 'GET'),
    );
    refusal(
      await call(
        at('Track', `/query?page=2&pageSize=20&cursor=${unfiltered.cursor}`),
        reader,
        encoded({ where }),
      ),
      400,
      pageCursorMessages.invalid,
    );
    refusal(
      await call(
        at('Track', `/query?page=2&pageSize=20&cursor=${p1.cursor}`),
        reader,
        encoded({ where, search: { [n('AlbumId')]: 1 } }),
      ),
      400,
      pageCursorMessages.invalid,
    );
  });

  it('plans each condition as indexed or scanning, the whole filter, the estimate, the budget and the advice', async () => {
    const album = c('AlbumId', 'eq', { value: 1 });
    const composer = c('Composer', 'contains', { value: 'a' });
    const plan = dataOf<FilterPlan>(
      await call(
        at('Track', '/query/plan'),
        reader,
        encoded({ where: { and: [album, composer] }, orderBy: n('Name') }),
      ),
    );
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
    expect(plan).toMatchObject({ scans: false, advice: null, scanBudgetMs: 5000 });
    if (kind === 'sqlite') expect(plan.estimatedRows).toBeNull();
    else expect(plan.estimatedRows).toEqual(expect.any(Number));
    const scanning = dataOf<FilterPlan>(
      await call(at('Track', '/query/plan'), reader, { json: { where: { or: [album, composer] } } }),
    );
    expect(scanning.scans).toBe(true);
    expect(scanning.advice).toMatch(new RegExp(`^An index on ${n('Composer')} would let the database find`));
    // No filter: nothing to plan, nothing scans.
    expect(dataOf<FilterPlan>(await call(at('Track', '/query/plan'), reader))).toMatchObject({
      conditions: [],
      scans: false,
    });
    refusal(
      await call(at('Track', '/query/plan'), reader, encoded({ where: album, orderBy: 'Nope' })),
      400,
      `orderBy: Nope is not a column of ${n('Track')}.`,
    );
  });

  /** Starts a filtered export; answers the job id. */
  async function startQueryExport(user: TestUser, body: Record<string, unknown>, orderBy?: string) {
    const response = await call(
      at('Track', `/query/export${orderBy ? `?orderBy=${orderBy}` : ''}`),
      user,
      encoded(body),
    );
    return dataOf<{ id: string }>(response, 202).id;
  }

  /** Waits for the export and downloads its file. */
  async function downloaded(user: TestUser, id: string) {
    const reads = await waitForExport(t, user, at('Track'), id);
    const last = reads.at(-1) as Envelope<ExportStatus>;
    expect(last.isSuccess, last.message ?? '').toBe(true);
    const file = await t.app.inject({ method: 'GET', url: last.data.url ?? '' });
    expect(file.statusCode, file.body).toBe(200);
    return { status: last.data, text: file.body };
  }

  it('exports exactly the rows the filter and the search terms keep, in the asked order', async () => {
    const where = orAndRange();
    const kept = filterRows(trackRows, where, columns);
    const order = `-${n('TrackId')}`;
    const id = await startQueryExport(reader, { where, format: 'csv' }, order);
    const { status, text } = await downloaded(reader, id);
    expect(status).toMatchObject({ state: 'done', rowsWritten: kept.length, rowsTotal: kept.length });
    const records = readCsv(text);
    expect(records[0]).toEqual(track.columns.map((column) => column.name));
    expect(records.slice(1)).toEqual(
      [...kept].reverse().map((row) => track.columns.map((column) => csvCell(column, row[column.name]))),
    );
    // JSON Lines, with search terms beside the filter.
    const search = { [n('GenreId')]: 1 };
    const both = filterRows(trackRows, { and: [where, c('GenreId', 'eq', { value: 1 })] }, columns);
    const lines = await downloaded(
      reader,
      await startQueryExport(reader, { where, search, format: 'jsonl' }),
    );
    const exported = lines.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);
    expect(exported).toEqual(both);
    // The audit trail records the filter the export was started with.
    const audits = await t.store.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'export.start')
      .where('user_id', '=', reader.userId)
      .orderBy('id')
      .execute();
    expect(JSON.parse(audits.at(-1)?.detail ?? '{}')).toMatchObject({
      where,
      filter: search,
      format: 'jsonl',
    });
  });

  it('refuses a filter that does not fit the table on each call, naming the condition and what to fix', async () => {
    const ms = n('Milliseconds');
    const cases: [unknown, string | RegExp][] = [
      [
        { where: { and: [c('Name', 'eq', { value: 'x' }), { column: 'Nope', op: 'eq', value: 1 }] } },
        'where.and[1] (Nope eq): Nope is not a column of this table.',
      ],
      [
        { where: c('Milliseconds', 'contains', { value: '1' }) },
        new RegExp(`^where \\(${ms} contains\\): contains works only on text columns`),
      ],
      [
        { where: { or: [c('Milliseconds', 'gt', { value: 'abc' })] } },
        `where.or[0] (${ms} gt): "abc" is not a number.`,
      ],
      [
        { where: { and: [{ column: n('Name'), op: 'like', value: 'x' }] } },
        /^where\.and\[0\]\.op: op must be one of eq, ne, lt, le, gt, ge, between, in, startsWith, contains, endsWith, isNull, isNotNull\.$/,
      ],
      [
        { where: { and: [c('Milliseconds', 'between', { values: [1] })] } },
        'where.and[0]: between needs values of two: [from, to].',
      ],
      [
        { [n('Name')]: 'x' },
        new RegExp(`^the body takes where, [a-z, ]+; ${n('Name')} is not one of them\\.$`),
      ],
      [
        { where: c('Composer', 'isNull'), search: { [n('Composer')]: 'x' } },
        new RegExp(`^${n('Composer')} is not indexed, so it cannot be searched\\.`),
      ],
    ];
    const jobsBefore = await t.store.db.selectFrom('export_jobs').select('id').execute();
    for (const [body, message] of cases) {
      const plain = body as Record<string, unknown>;
      refusal(await call(at('Track', '/query'), reader, encoded(plain)), 400, message);
      if (!('search' in plain)) {
        const { where, ...rest } = plain;
        // The plan takes where and orderBy: a search map sent to it is refused as a key it does not take.
        if (where === undefined)
          refusal(
            await call(at('Track', '/query/plan'), reader, encoded(rest)),
            400,
            /^the body takes where, orderBy;/,
          );
        else refusal(await call(at('Track', '/query/plan'), reader, encoded(plain)), 400, message);
      }
      refusal(await call(at('Track', '/query/export'), reader, encoded(plain)), 400, message);
    }
    // Nothing was started for the refused exports.
    expect(await t.store.db.selectFrom('export_jobs').select('id').execute()).toEqual(jobsBefore);
    // A query body that is not an object.
    refusal(
      await call(at('Track', '/query'), reader, { json: ['x'] }),
      400,
      'The query must be a JSON object like {"where":{"column":"Name","op":"startsWith","value":"Ab"}}, not an array.',
    );
  });

  it('refuses a table the caller may not read exactly as the page call does', async () => {
    const page = await call(at('Track', '/page/1'), genreOnly, undefined, 'GET');
    expect(page.statusCode).toBe(403);
    const body = encoded({ where: c('Composer', 'isNull') });
    for (const url of ['/query', '/query/plan', '/query/export'])
      for (const table of ['Track', 'NoSuchTable']) {
        const answer = await call(at(table, url), genreOnly, body);
        expect([url, table, answer.statusCode]).toEqual([url, table, 403]);
        expect(answer.json()).toEqual(page.json());
      }
    // Whoever may read it gets through, administrators included.
    expect(dataOf<PageResult>(await call(at('Genre', '/query'), genreOnly, encoded({}))).count).toBe(25);
    expect(dataOf<PageResult>(await call(at('Track', '/query'), admin, body)).count).toBe(
      expected(c('Composer', 'isNull')).length,
    );
  });
});

describe.each(chosen)('a scanning filter through the API on %s', (kind) => {
  /** The budget the app's engine is given. */
  const BUDGET_MS = 200;
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let t: TestApp;
  let reader: TestUser;
  let url: string;
  const call = caller(() => t);

  beforeAll(async () => {
    database = await createBigTable(kind);
    engine = await connectDatabase('big', kind, database.url, {
      statementTimeoutMs: 15_000,
      poolSize: 4,
      scanTimeoutMs: BUDGET_MS,
    });
    t = await buildTestApp({ databases: [engine] });
    reader = await buildUser(t, { links: ['/db/big/*'] });
    url = `/api/sql/big/${bigTableSchema(kind, database)}/dbui_big`;
  }, 600_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('says before it runs that it scans, stops at the budget with a 504 that says why, and leaves nothing running', async () => {
    const plan = dataOf<FilterPlan>(
      await call(`${url}/query/plan`, reader, { json: { where: bigTableScan } }),
    );
    expect(plan).toMatchObject({ scans: true, scanBudgetMs: BUDGET_MS });
    const message = refusal(
      await call(`${url}/query`, reader, { text: encodeBody({ where: bigTableScan }) }),
      504,
      /^The filter examines every row of dbui_big, and its scan was stopped at 200 ms/,
    );
    expect(message).toContain('where.or[0] (label contains): label has no index, so every row is examined.');
    expect(message).toMatch(
      /An index on label would let the database find the rows without reading them all/,
    );
    // Cancelled on the database's side: nothing of it runs on.
    await expect.poll(() => runningOnBigTable(kind, engine)).toBe(0);
    // The same scan narrowed by an indexed condition first answers, and the app still serves.
    const narrowed = { and: [{ column: 'n', op: 'eq', value: 7 }, bigTableScan] };
    expect(
      dataOf<PageResult>(await call(`${url}/query`, reader, { json: { where: narrowed } })),
    ).toMatchObject({ results: [], count: 0, countIsExact: true });
  });
});
