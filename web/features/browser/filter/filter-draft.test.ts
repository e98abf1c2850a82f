import { describe, expect, it } from 'vitest';
import type { Filter } from '#common/contract/filter.ts';
import { testColumn } from '#web/features/browser/test-tables.ts';
import {
  conditionProblem,
  documentProblem,
  draftConditions,
  draftOf,
  draftReducer,
  filterOf,
  groupLevels,
  groupFitsIn,
  nextConditionId,
  type DraftCondition,
  type FilterDraft,
} from './filter-draft.ts';
import { conditionText, nodeText } from './filter-text.ts';

const columns = [
  testColumn(1, 'InvoiceId', { type: 'integer', typeGroup: 'Number', isIndexed: true, isPrimaryKey: true }),
  testColumn(2, 'BillingCountry', { isIndexed: true }),
  testColumn(3, 'Total', { type: 'numeric', typeGroup: 'Number', precision: 10, scale: 2 }),
  testColumn(4, 'InvoiceDate', { type: 'date', typeGroup: 'Date' }),
  testColumn(5, 'Paid', { type: 'boolean', typeGroup: 'bit' }),
  testColumn(6, 'Scan', { type: 'blob', typeGroup: 'Binary' }),
];

const nested: Filter = {
  and: [
    {
      or: [
        { column: 'BillingCountry', op: 'eq', value: 'Brazil' },
        { column: 'BillingCountry', op: 'isNull' },
      ],
    },
    { column: 'Total', op: 'between', values: ['5.5', '10'] },
    { not: { column: 'Paid', op: 'eq', value: true } },
  ],
};

const condition = (extra: Partial<DraftCondition>): DraftCondition => ({
  kind: 'condition',
  id: 'c1',
  column: 'Total',
  op: 'eq',
  value: '',
  values: [],
  ...extra,
});

describe('the builder’s draft', () => {
  it('reads a filter and writes the same filter back, ids in document order', () => {
    const draft = draftOf(nested);
    expect(draft.root.join).toBe('and');
    expect(draftConditions(draft.root).map((c) => c.id)).toEqual(['c3', 'c4', 'c5', 'c7']);
    const written = filterOf(draft, columns);
    expect(written.filter).toEqual({
      and: [
        {
          or: [
            { column: 'BillingCountry', op: 'eq', value: 'Brazil' },
            { column: 'BillingCountry', op: 'isNull' },
          ],
        },
        { column: 'Total', op: 'between', values: ['5.5', '10'] },
        { not: { column: 'Paid', op: 'eq', value: true } },
      ],
    });
    expect([...written.paths]).toEqual([
      ['c3', 'where.and[0].or[0]'],
      ['c4', 'where.and[0].or[1]'],
      ['c5', 'where.and[1]'],
      ['c7', 'where.and[2].not'],
    ]);
    // The same filter always gets the same ids (the chips name the builder's nodes by them).
    expect(draftOf(nested)).toEqual(draft);
  });

  it('writes a root of one condition as that condition, and nothing for no condition', () => {
    const one = draftOf({ column: 'Total', op: 'gt', value: '3' });
    expect(filterOf(one, columns)).toEqual({
      filter: { column: 'Total', op: 'gt', value: '3' },
      paths: new Map([['c2', 'where']]),
    });
    expect(filterOf(draftOf(null), columns).filter).toBeNull();
  });

  it('leaves out the conditions not kept and the groups left empty', () => {
    const draft = draftOf(nested);
    const written = filterOf(draft, columns, (c) => c.column !== 'BillingCountry');
    expect(written.filter).toEqual({
      and: [
        { column: 'Total', op: 'between', values: ['5.5', '10'] },
        { not: { column: 'Paid', op: 'eq', value: true } },
      ],
    });
    expect(written.paths.get('c5')).toBe('where.and[0]');
  });

  it('adds a condition and a group with the ids the focus moves to, and removes them', () => {
    let draft: FilterDraft = draftOf(null);
    const first = nextConditionId(draft);
    draft = draftReducer(draft, { type: 'addCondition', groupId: draft.root.id });
    expect(draftConditions(draft.root).map((c) => c.id)).toEqual([first]);
    const second = nextConditionId(draft);
    draft = draftReducer(draft, { type: 'addGroup', groupId: draft.root.id });
    const group = draft.root.items[1];
    expect(group?.kind === 'group' && group.join).toBe('or');
    expect(draftConditions(draft.root).map((c) => c.id)).toEqual([first, second]);
    // The group goes with its last condition.
    draft = draftReducer(draft, { type: 'remove', id: second });
    expect(draft.root.items).toHaveLength(1);
    draft = draftReducer(draft, { type: 'remove', id: first });
    expect(draft.root.items).toEqual([]);
    // The root stays.
    expect(draftReducer(draft, { type: 'remove', id: draft.root.id })).toBe(draft);
  });

  it('keeps values across operators and drops them for a column of another type', () => {
    let draft = draftReducer(draftOf(null), { type: 'addCondition', groupId: 'g1' });
    const id = nextConditionId(draftOf(null));
    const at = () => draftConditions(draft.root)[0]!;
    draft = draftReducer(draft, { type: 'setColumn', id, name: 'Total', columns });
    expect(at().op).toBe('eq');
    draft = draftReducer(draft, { type: 'setValue', id, value: '12.50' });
    draft = draftReducer(draft, { type: 'setOp', id, op: 'between' });
    expect(at().values).toEqual(['12.50', '']);
    draft = draftReducer(draft, { type: 'setOp', id, op: 'in' });
    expect(at().values).toEqual(['12.50', '']);
    draft = draftReducer(draft, { type: 'setOp', id, op: 'ge' });
    expect(at()).toMatchObject({ op: 'ge', value: '12.50', values: [] });
    draft = draftReducer(draft, { type: 'setColumn', id, name: 'InvoiceId', columns });
    expect(at()).toMatchObject({ op: 'ge', value: '12.50' });
    draft = draftReducer(draft, { type: 'setColumn', id, name: 'InvoiceDate', columns });
    expect(at()).toMatchObject({ op: 'ge', value: '' });
    // An operator the new type does not take gives way to its first.
    draft = draftReducer(draft, { type: 'setColumn', id, name: 'Scan', columns });
    expect(at().op).toBe('isNull');
  });

  it('counts the levels of groups, a negated one as two', () => {
    const levels = groupLevels(draftOf(nested).root);
    expect([...levels.values()]).toEqual([1, 2, 3]);
    expect(groupFitsIn(3)).toBe(true);
    expect(groupFitsIn(4)).toBe(false);
  });
});

describe('a condition’s problems', () => {
  it('asks for a column, a value, both ends, at least one value', () => {
    expect(conditionProblem(condition({ column: '' }), columns)).toEqual({
      field: 'column',
      message: 'Choose a column.',
    });
    expect(conditionProblem(condition({}), columns)?.message).toBe('Enter a value.');
    expect(conditionProblem(condition({ op: 'between', values: ['1', ''] }), columns)?.message).toBe(
      'Enter both ends of the range.',
    );
    expect(conditionProblem(condition({ op: 'in', values: [] }), columns)?.message).toBe(
      'Enter at least one value.',
    );
    expect(conditionProblem(condition({ op: 'isNull' }), columns)).toBeNull();
  });

  it('refuses a value not of the column’s type', () => {
    expect(conditionProblem(condition({ value: '12,5' }), columns)?.message).toBe('“12,5” is not a number.');
    expect(conditionProblem(condition({ value: '-12.50' }), columns)).toBeNull();
    expect(
      conditionProblem(condition({ column: 'InvoiceDate', op: 'lt', value: '5 May' }), columns)?.message,
    ).toContain('is not a date');
    expect(
      conditionProblem(condition({ column: 'InvoiceDate', op: 'lt', value: '2024-05-05' }), columns),
    ).toBeNull();
  });

  it('says what filterProblems says of a column or operator that does not fit, without the path', () => {
    expect(conditionProblem(condition({ column: 'Nope' }), columns)).toEqual({
      field: 'column',
      message: 'Nope is not a column of this table.',
    });
    expect(conditionProblem(condition({ op: 'contains', value: '1' }), columns)).toEqual({
      field: 'op',
      message:
        'Contains works only on text columns; Total (numeric) takes eq, ne, lt, le, gt, ge, between, in, isNull, isNotNull.',
    });
  });

  it('says what the contract says of a filter too deep', () => {
    let deep: Filter = { column: 'Total', op: 'eq', value: '1' };
    for (let i = 0; i < 5; i++) deep = { and: [deep] };
    expect(documentProblem(deep)).toBe('The filter nests 6 levels; at most 5 are allowed.');
    expect(documentProblem(nested)).toBeNull();
  });
});

describe('a filter in words', () => {
  it('writes conditions and groups as the chips show them', () => {
    const root = draftOf(nested).root;
    expect(root.items.map((item) => nodeText(item, columns))).toEqual([
      '(BillingCountry = “Brazil” or BillingCountry is null)',
      'Total between 5.5 and 10',
      'not (Paid = true)',
    ]);
    expect(
      conditionText(condition({ column: 'InvoiceId', op: 'in', values: ['1', '2', '3', '4', '5'] }), columns),
    ).toBe('InvoiceId in (1, 2, 3, +2 more)');
    expect(conditionText(condition({ column: 'BillingCountry', op: 'contains', value: ' a' }), columns)).toBe(
      'BillingCountry contains “ a”',
    );
  });
});
