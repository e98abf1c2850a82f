import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FILTER_IN_MAX_VALUES,
  FILTER_MAX_CONDITIONS,
  FILTER_MAX_DEPTH,
  FILTER_MAX_GROUPS,
  FILTER_MAX_VALUES,
  FILTER_VALUE_MAX_LENGTH,
  type Filter,
} from '#common/contract/filter.ts';
import { encodeBody, type PageResult, type Row } from '#common/contract/sql.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  quoteName,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * Hostile filter documents (issue 35) against the filter calls, POST …/query, …/query/plan and …/query/export, on
 * SQLite, PostgreSQL and MariaDB: quotes, `%`, `_` and escape characters in the text operators match literally;
 * NUL, values past FILTER_VALUE_MAX_LENGTH, values of the wrong type (objects, lists, a number for text, text for a
 * number), column names that are SQL, documents past the depth, condition, group and value limits and an `in` of more
 * than FILTER_IN_MAX_VALUES values are each refused with a 400 that says what to fix, never a 500, never internal text;
 * nothing is written and the canary stays as it was. Column names come only from the catalog, values only as
 * parameters (server/engines/filter-predicates.ts): these calls show it from the outside.
 */

/** The table of awkward values, its hostile column (a name that is SQL) and its rows. */
const TABLE = 'filter values';
const SQL_COLUMN = `note'; DROP TABLE canary; --`;
const LABELS = [
  '50% off',
  '50 percent',
  'a_b',
  'axb',
  "it's",
  "it''s",
  'back\\slash',
  'back/slash',
  'quote"d',
  '[x]',
  'x',
  '^caret$',
  'per%cent_',
  "' or '1'='1",
  '%',
  '_',
  'tab\there',
];

/** SQL and pattern text as column names and values. */
const PAYLOADS = [
  `' OR '1'='1`,
  `'; DROP TABLE canary; --`,
  `"; DROP TABLE canary; --`,
  '`; DROP TABLE canary; --',
  `1; DELETE FROM canary`,
  `1) OR (1=1`,
  `label UNION SELECT * FROM canary`,
  `label, (SELECT 1 FROM canary)`,
  `' AND (SELECT 1 FROM (SELECT SLEEP(5)) x) AND '1'='1`,
  `'; SELECT pg_sleep(5); --`,
  `%' OR 1=1 --`,
  `\\'; DELETE FROM canary; -- `,
  `ʼ OR 1=1 --`,
  'canary',
  '__proto__',
  'constructor',
  'toString',
];

/** No call may take as long as a payload's sleep would make it (5 s); generous for two busy cores. */
const SLEEP_MS = 4000;

const calls = ['/query', '/query/plan', '/query/export'] as const;

describe.each(securityEngines)('hostile filters on %s', (kind) => {
  let target: SecurityTarget;

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    const q = (name: string) => quoteName(kind, name);
    const text = kind === 'mysql' ? 'varchar(200)' : 'text';
    await target.run(
      `CREATE TABLE ${q(TABLE)} (id integer primary key, label ${text} not null, ${q(SQL_COLUMN)} ${text}, amount integer)`,
    );
    // Test setup only, with bound values: the rows hold exactly these texts on every engine.
    for (const [i, label] of LABELS.entries()) {
      const id = i + 1;
      await sql`insert into ${sql.id(TABLE)} (id, label, ${sql.id(SQL_COLUMN)}, amount) values (${id}, ${label}, ${label}, ${id * 10})`.execute(
        target.engine.db,
      );
    }
    await target.engine.catalog({ refresh: true });
  });
  afterAll(async () => {
    if (!target) return;
    await target.expectCanaryIntact();
    await expectHealthy(target);
    await target.close();
  });

  /** POSTs the body to one of the filter calls as the administrator (who may do everything: nothing but the way
   * values travel stands in the way); checks it is not slow, not a 500, and leaks nothing but the caller's text. */
  async function send(
    rest: string,
    body: unknown,
    echoes: string[] = [],
    table = TABLE,
  ): Promise<LightMyRequestResponse> {
    const started = performance.now();
    const answer = await target.t.app.inject({
      method: 'POST',
      url: target.apiPath(table, rest),
      headers: { ...target.admin.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(performance.now() - started, `${rest} took a sleep's time`).toBeLessThan(SLEEP_MS);
    expect(answer.statusCode, `${rest}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
    let shown = answer.body;
    for (const echo of [...echoes, SQL_COLUMN, TABLE].sort((a, b) => b.length - a.length))
      shown = shown.replaceAll(JSON.stringify(echo).slice(1, -1), '').replaceAll(echo, '');
    expectNoLeak(shown);
    return answer;
  }

  /** A 400 whose message matches. */
  function refused(answer: LightMyRequestResponse, message: string | RegExp) {
    expect(answer.statusCode, answer.body).toBe(400);
    const body = answer.json<{ isSuccess: boolean; data: unknown; message: string }>();
    expect(body).toMatchObject({ isSuccess: false, data: null });
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  }

  /** Every call refuses the filter with this message, and nothing changes. */
  async function refusedEverywhere(where: unknown, message: string | RegExp, echoes: string[] = []) {
    await expectNoSideEffect(
      target,
      async () => {
        for (const rest of calls) refused(await send(rest, { where }, echoes), message);
      },
      { extraTables: [TABLE] },
    );
  }

  /** The labels the filter keeps, through POST …/query. */
  async function kept(where: Filter): Promise<string[]> {
    const answer = await send('/query?pageSize=100', { where });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer
      .json<{ data: PageResult }>()
      .data.results.map((row: Row) => String(row.label))
      .sort();
  }

  /** The labels that pass, compared as the engine's collation does (MariaDB's utf8mb4_general_ci ignores case). */
  const matching = (test: (label: string, fold: (text: string) => string) => boolean) =>
    LABELS.filter((label) => test(label, (text) => (kind === 'mysql' ? text.toLowerCase() : text))).sort();

  it('matches quotes, %, _ and the escape characters in text operators literally', async () => {
    const terms = [
      '%',
      '_',
      '0%',
      '50%',
      'a_b',
      "'",
      "''",
      '\\',
      '\\%',
      '"',
      '[x]',
      '^',
      '$',
      '%_',
      "' or '1'='1",
      '\t',
    ];
    await expectNoSideEffect(
      target,
      async () => {
        for (const term of terms) {
          expect(await kept({ column: 'label', op: 'contains', value: term }), `contains ${term}`).toEqual(
            matching((label) => label.includes(term)),
          );
          expect(
            await kept({ column: 'label', op: 'startsWith', value: term }),
            `startsWith ${term}`,
          ).toEqual(matching((label) => label.startsWith(term)));
          expect(await kept({ column: 'label', op: 'endsWith', value: term }), `endsWith ${term}`).toEqual(
            matching((label) => label.endsWith(term)),
          );
          expect(await kept({ column: 'label', op: 'eq', value: term }), `eq ${term}`).toEqual(
            matching((label) => label === term),
          );
        }
        expect(await kept({ column: 'label', op: 'contains', value: '%' })).toEqual([
          '%',
          '50% off',
          'per%cent_',
        ]);
        // The column whose name is SQL is a column like any other: its values are matched, its name never run.
        expect(await kept({ column: SQL_COLUMN, op: 'startsWith', value: "it'" })).toEqual(["it''s", "it's"]);
        expect(await kept({ column: SQL_COLUMN, op: 'in', values: ['a_b', "' or '1'='1"] })).toEqual([
          "' or '1'='1",
          'a_b',
        ]);
      },
      { extraTables: [TABLE] },
    );
  });

  it('takes SQL as values only as data, and refuses it as a column with the condition and what to fix', async () => {
    for (const payload of PAYLOADS) {
      expect(await kept({ column: 'label', op: 'eq', value: payload }), payload).toEqual(
        matching((label, fold) => fold(label) === fold(payload)),
      );
      expect(await kept({ or: [{ column: 'label', op: 'contains', value: payload }] }), payload).toEqual(
        matching((label, fold) => fold(label).includes(fold(payload))),
      );
      await refusedEverywhere(
        {
          and: [
            { column: 'label', op: 'isNotNull' },
            { column: payload, op: 'eq', value: 1 },
          ],
        },
        `where.and[1] (${payload} eq): ${payload} is not a column of this table.`,
        [payload],
      );
      // As a sort beside a good filter: refused before anything runs.
      await expectNoSideEffect(
        target,
        async () => {
          for (const rest of ['/query', '/query/export'])
            refused(
              await send(
                `${rest}?orderBy=${encodeURIComponent(payload)}`,
                { where: { column: 'id', op: 'eq', value: 1 } },
                [payload],
              ),
              /^orderBy: /,
            );
          refused(
            await send('/query/plan', { where: { column: 'id', op: 'eq', value: 1 }, orderBy: payload }, [
              payload,
            ]),
            /^orderBy: /,
          );
        },
        { extraTables: [TABLE] },
      );
    }
  });

  it('refuses NUL where the engine cannot hold it, and otherwise matches it as data', async () => {
    for (const value of ['\u0000', `x\u0000'; DROP TABLE canary; --`]) {
      for (const op of ['eq', 'contains', 'startsWith']) {
        const answer = await send('/query', { where: { column: 'label', op, value } }, [value]);
        // PostgreSQL's text holds no NUL: a plain 400; the others look for it and find nothing.
        if (answer.statusCode === 400) expect(kind).toBe('postgres');
        else expect(answer.json<{ data: PageResult }>().data.results).toEqual([]);
      }
      // As a column name: no such column.
      await refusedEverywhere(
        { column: value, op: 'isNull' },
        `where (${value} isNull): ${value} is not a column of this table.`,
        [value],
      );
    }
  });

  it('refuses values past the longest a condition takes, and searches for one that fits', async () => {
    const longest = 'x'.repeat(FILTER_VALUE_MAX_LENGTH);
    for (const op of ['eq', 'contains', 'endsWith']) {
      const answer = await send('/query', { where: { column: 'label', op, value: longest } });
      // Longer than the column holds (MariaDB's varchar(200)): refused as such, or simply not found.
      if (answer.statusCode === 400) expect(kind).toBe('mysql');
      else expect(answer.json<{ data: PageResult }>().data.results).toEqual([]);
    }
    const message = `where.value: a value is at most ${FILTER_VALUE_MAX_LENGTH} characters.`;
    await refusedEverywhere({ column: 'label', op: 'contains', value: `${longest}x` }, message);
    await refusedEverywhere(
      { or: [{ column: 'label', op: 'in', values: ['a', `${longest}x`] }] },
      `where.or[0].values[1]: a value is at most ${FILTER_VALUE_MAX_LENGTH} characters.`,
    );
  });

  it('refuses values of the wrong type with what the column takes', async () => {
    const cases: [unknown, string | RegExp][] = [
      [
        { column: 'label', op: 'eq', value: { $ne: 1 } },
        'where.value: a value must be text, a number, true or false (ask for null with isNull).',
      ],
      [
        { column: 'label', op: 'eq', value: ['a', 'b'] },
        'where.value: a value must be text, a number, true or false (ask for null with isNull).',
      ],
      [{ column: 'label', op: 'eq', value: null }, /^where(\.value)?: /],
      [{ column: 'label', op: 'in', values: 'a' }, /^where(\.values)?: /],
      [{ column: 'label', op: 'in', values: [{ a: 1 }] }, /^where\.values\[0\]: a value must be text/],
      [
        { column: 'label', op: 'eq', value: 5 },
        'where (label eq): label holds text; send the value as text (a JSON string), not 5.',
      ],
      [
        { column: 'label', op: 'contains', value: true },
        'where (label contains): label holds text; send the value as text (a JSON string), not true.',
      ],
      [{ column: 'amount', op: 'eq', value: 'abc' }, 'where (amount eq): "abc" is not a number.'],
      [{ column: 'amount', op: 'gt', value: '1 OR 1=1' }, /^where \(amount gt\): "1 OR 1=1" is not a/],
      [
        { column: 'amount', op: 'in', values: [1, '1); DROP TABLE canary; --'] },
        /^where \(amount in\): values\[1\] .* is not a/,
      ],
      [{ column: 'amount', op: 'eq', value: true }, /^where \(amount eq\): "true" is not a number\.$/],
      [
        { column: 'amount', op: 'contains', value: '1' },
        /^where \(amount contains\): contains works only on text columns/,
      ],
      [
        { column: 'amount', op: 'between', values: [1, 2, 3] },
        'where: between needs values of two: [from, to].',
      ],
      [{ column: 'amount', op: 'isNull', value: 1 }, 'where: isNull takes no value.'],
      [{ column: 'amount', op: 'eq', value: 1, raw: 'DROP TABLE canary' }, /^where: .*raw/],
      [{ column: 'amount', op: 'ne) OR (1=1', value: 1 }, /^where\.op: op must be one of eq, ne/],
      [{ column: { $gt: '' }, op: 'eq', value: 1 }, /^where\.column: column must name a column\.$/],
      ['label = 1', /^where: a filter is a condition/],
      [[{ column: 'label', op: 'isNull' }], /^where: a filter is a condition/],
    ];
    for (const [where, message] of cases)
      await refusedEverywhere(where, message, ['1); DROP TABLE canary; --', 'ne) OR (1=1']);
  });

  it('refuses documents past the depth, condition, group and value limits and an in of too many values', async () => {
    const condition: Filter = { column: 'amount', op: 'gt', value: 0 };
    let deep: unknown = condition;
    for (let level = 1; level < FILTER_MAX_DEPTH; level++) deep = { not: deep };
    expect((await send('/query', { where: deep })).statusCode).toBe(200);
    await refusedEverywhere(
      { and: [deep] },
      `where: the filter nests ${FILTER_MAX_DEPTH + 1} levels; at most ${FILTER_MAX_DEPTH} are allowed.`,
    );
    const conditions = (count: number) => ({
      or: Array.from({ length: count }, (_, i) => ({ ...condition, value: i })),
    });
    expect(await kept(conditions(FILTER_MAX_CONDITIONS))).toEqual([...LABELS].sort());
    await refusedEverywhere(
      conditions(FILTER_MAX_CONDITIONS + 1),
      `where: the filter has ${FILTER_MAX_CONDITIONS + 1} conditions; at most ${FILTER_MAX_CONDITIONS} are allowed.`,
    );
    // Empty groups hold no condition, but thousands would make a statement deeper than an engine parses.
    for (const count of [FILTER_MAX_GROUPS, 20_000])
      await refusedEverywhere(
        { or: [condition, ...Array.from({ length: count }, () => ({ and: [] }))] },
        `where: the filter has ${count + 1} groups (and, or, not); at most ${FILTER_MAX_GROUPS} are allowed.`,
      );
    // An in of the most values it takes answers; one more is refused.
    const values = (count: number) => Array.from({ length: count }, (_, i) => i * 10);
    expect(await kept({ column: 'amount', op: 'in', values: values(FILTER_IN_MAX_VALUES) })).toEqual(
      [...LABELS].sort(),
    );
    await refusedEverywhere(
      { column: 'amount', op: 'in', values: values(FILTER_IN_MAX_VALUES + 1) },
      `where: in takes at most ${FILTER_IN_MAX_VALUES} values; it was given ${FILTER_IN_MAX_VALUES + 1}.`,
    );
    // Values count together, each a parameter of one statement: the most a filter takes answers, one more is refused
    // (50 lists of 1,000 would be 50,000 parameters, past what SQLite and SQL Server bind).
    const lists = (count: number) =>
      Array.from({ length: count }, () => ({
        column: 'amount',
        op: 'in',
        values: values(FILTER_IN_MAX_VALUES),
      }));
    const most = { or: lists(FILTER_MAX_VALUES / FILTER_IN_MAX_VALUES) };
    expect(await kept(most as Filter)).toEqual([...LABELS].sort());
    for (const where of [
      { or: [...most.or, { column: 'amount', op: 'eq', value: 1 }] },
      { or: lists(FILTER_MAX_CONDITIONS) },
    ])
      await refusedEverywhere(
        where,
        new RegExp(
          `^where: the filter has \\d+ values; at most ${FILTER_MAX_VALUES} are allowed in one filter\\.$`,
        ),
      );
    // JSON nested past what the body reader takes: refused before it is read.
    const tooDeep = `{"where":${'{"not":'.repeat(70)}{"column":"id","op":"isNull"}${'}'.repeat(70)}}`;
    const encoded = await target.t.app.inject({
      method: 'POST',
      url: target.apiPath(TABLE, '/query'),
      headers: { ...target.admin.headers, 'content-type': 'text/plain' },
      payload: Buffer.from(encodeURIComponent(tooDeep)).toString('base64'),
    });
    refused(encoded, /nests objects or arrays more than 64 levels deep/);
  });

  it('refuses a query body that is not one, in each encoding', async () => {
    for (const rest of calls) {
      refused(await send(rest, ['where']), /^The query must be a JSON object like \{"where":/);
      refused(await send(rest, 'not base64!'), /^The query is not valid base64/);
      refused(
        await send(rest, { where: { column: 'id', op: 'isNull' }, sql: 'DROP TABLE canary' }),
        /^the body takes where, .*; sql is not one of them\.$/,
      );
      const text = await target.t.app.inject({
        method: 'POST',
        url: target.apiPath(TABLE, rest),
        headers: { ...target.admin.headers, 'content-type': 'text/plain' },
        payload: encodeBody({ where: { column: `' OR 1=1 --`, op: 'eq', value: 1 } }),
      });
      refused(text, "where (' OR 1=1 -- eq): ' OR 1=1 -- is not a column of this table.");
    }
  });
});
