import { describe, expect, it } from 'vitest';
import type { Column } from './sql.ts';
import {
  FILTER_IN_MAX_VALUES,
  FILTER_MAX_CONDITIONS,
  FILTER_MAX_GROUPS,
  FILTER_MAX_VALUES,
  conditionsOf,
  depthOf,
  everyRow,
  filterDocument,
  filterProblems,
  keepsEveryRow,
  type Filter,
} from './filter.ts';

function problemOf(value: unknown): string {
  const parsed = filterDocument.safeParse(value);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues.map((issue) => issue.message).join(' | ');
}

describe('the filter document', () => {
  it('takes conditions, and, or and not, nested', () => {
    const filter: Filter = {
      and: [
        { column: 'Total', op: 'between', values: ['1.00', '9.99'] },
        {
          or: [
            { column: 'Name', op: 'contains', value: '50%' },
            { column: 'Name', op: 'isNull' },
          ],
        },
        { not: { column: 'CustomerId', op: 'in', values: [1, 2, 3] } },
      ],
    };
    expect(filterDocument.parse(filter)).toEqual(filter);
    expect(conditionsOf(filter).map((c) => c.path)).toEqual([
      'where.and[0]',
      'where.and[1].or[0]',
      'where.and[1].or[1]',
      'where.and[2].not',
    ]);
    expect(depthOf(filter)).toBe(3);
  });

  it('keeps every row only when it has no condition', () => {
    expect(filterDocument.parse(everyRow)).toEqual({ and: [] });
    expect(keepsEveryRow(everyRow)).toBe(true);
    expect(keepsEveryRow({ and: [{ and: [] }] })).toBe(true);
    expect(keepsEveryRow({ column: 'a', op: 'isNull' })).toBe(false);
    expect(keepsEveryRow({ not: { and: [] } })).toBe(false);
  });

  it('says what to fix in a condition that has the wrong values for its operator', () => {
    expect(problemOf({ column: 'a', op: 'eq' })).toContain('eq needs a value.');
    expect(problemOf({ column: 'a', op: 'isNull', value: 1 })).toContain('isNull takes no value.');
    expect(problemOf({ column: 'a', op: 'between', values: [1] })).toContain('between needs values of two');
    expect(problemOf({ column: 'a', op: 'in', values: [] })).toContain('in needs at least one value');
    expect(problemOf({ column: 'a', op: 'in', value: 1 })).toContain('in takes values (a list), not value.');
    expect(
      problemOf({
        column: 'a',
        op: 'in',
        values: Array.from({ length: FILTER_IN_MAX_VALUES + 1 }, (_, i) => i),
      }),
    ).toContain(`in takes at most ${FILTER_IN_MAX_VALUES} values`);
    expect(problemOf({ column: 'a', op: 'eq', value: null })).toBe(
      'value: a value must be text, a number, true or false (ask for null with isNull).',
    );
    expect(problemOf({ column: 'a', op: 'like', value: 'x' })).toContain('op: op must be one of eq, ne');
  });

  it('refuses unknown keys, an empty or, and documents too deep or too long', () => {
    expect(problemOf({ column: 'a', op: 'eq', value: 1, sql: '1=1' })).toContain('sql');
    expect(problemOf('x')).toContain('a filter is a condition');
    expect(problemOf({ or: [] })).toBe('an or needs at least one filter.');
    expect(problemOf({ xor: [] })).toBeTruthy();
    let deep: Filter = { column: 'a', op: 'isNull' };
    for (let i = 0; i < 5; i++) deep = { not: deep };
    expect(problemOf(deep)).toContain('the filter nests 6 levels; at most 5 are allowed.');
    const many = {
      or: Array.from({ length: FILTER_MAX_CONDITIONS + 1 }, () => ({ column: 'a', op: 'isNull' })),
    };
    expect(problemOf(many)).toContain(`the filter has ${FILTER_MAX_CONDITIONS + 1} conditions`);
    // Groups without conditions count too: thousands of them would be a statement no engine parses.
    const empty = { or: Array.from({ length: FILTER_MAX_GROUPS }, () => ({ and: [] })) };
    expect(problemOf(empty)).toBe(
      `the filter has ${FILTER_MAX_GROUPS + 1} groups (and, or, not); at most ${FILTER_MAX_GROUPS} are allowed.`,
    );
    expect(filterDocument.safeParse({ or: empty.or.slice(1) }).success).toBe(true);
    // Values count together: each is a parameter of one statement.
    const list = (count: number) => ({
      column: 'a',
      op: 'in',
      values: Array.from({ length: count }, (_, i) => i),
    });
    const most = { or: [list(FILTER_IN_MAX_VALUES), list(FILTER_MAX_VALUES - FILTER_IN_MAX_VALUES)] };
    expect(filterDocument.safeParse(most).success).toBe(true);
    expect(problemOf({ or: [...most.or, { column: 'a', op: 'eq', value: 1 }] })).toBe(
      `the filter has ${FILTER_MAX_VALUES + 1} values; at most ${FILTER_MAX_VALUES} are allowed in one filter.`,
    );
  });
});

describe('a filter against the columns of a table', () => {
  const columns: Pick<Column, 'name' | 'typeGroup' | 'type'>[] = [
    { name: 'Name', typeGroup: 'Text', type: 'varchar' },
    { name: 'Total', typeGroup: 'Number', type: 'numeric' },
    { name: 'Photo', typeGroup: 'image', type: 'blob' },
    { name: 'Done', typeGroup: 'bit', type: 'boolean' },
  ];

  it('finds nothing wrong in a filter that fits', () => {
    const filter: Filter = {
      or: [
        { column: 'Name', op: 'endsWith', value: 'son' },
        { column: 'Total', op: 'ge', value: '10' },
        { column: 'Photo', op: 'isNotNull' },
        { column: 'Done', op: 'eq', value: true },
      ],
    };
    expect(filterProblems(filter, columns)).toEqual([]);
  });

  it('names the condition, the column and what its type takes', () => {
    const problems = filterProblems(
      {
        and: [
          { column: 'Missing', op: 'eq', value: 1 },
          { column: 'Total', op: 'contains', value: '1' },
          { column: 'Photo', op: 'eq', value: 'x' },
        ],
      },
      columns,
    );
    expect(problems).toEqual([
      { path: 'where.and[0]', message: 'where.and[0] (Missing eq): Missing is not a column of this table.' },
      {
        path: 'where.and[1]',
        message:
          'where.and[1] (Total contains): contains works only on text columns; Total (numeric) takes eq, ne, lt, le, ' +
          'gt, ge, between, in, isNull, isNotNull.',
      },
      {
        path: 'where.and[2]',
        message:
          'where.and[2] (Photo eq): eq does not suit blob values; Photo (blob) takes isNull, isNotNull.',
      },
    ]);
  });
});
