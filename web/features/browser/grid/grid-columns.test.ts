import { describe, expect, it } from 'vitest';
import { GRID_MAX_COLUMNS } from '#common/limits.ts';
import { gridColumns } from './grid-columns.ts';
import { testColumn, testTable } from './grid-test-table.ts';

const names = (table: ReturnType<typeof testTable>) => gridColumns(table).map((column) => column.name);

describe('gridColumns', () => {
  it('shows every column of a small table in table order', () => {
    expect(names(testTable([testColumn('a'), testColumn('b'), testColumn('c')]))).toEqual(['a', 'b', 'c']);
  });

  it('puts the indexed columns first, each group in table order', () => {
    const table = testTable([
      testColumn('a'),
      testColumn('b', { isIndexed: true }),
      testColumn('c'),
      testColumn('d', { isIndexed: true }),
    ]);
    expect(names(table)).toEqual(['b', 'd', 'a', 'c']);
  });

  it(`shows at most ${GRID_MAX_COLUMNS} columns, indexed ones kept over the others`, () => {
    const columns = Array.from({ length: 12 }, (_, i) => testColumn(`c${i + 1}`, { isIndexed: i >= 9 }));
    expect(names(testTable(columns))).toEqual(['c10', 'c11', 'c12', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(GRID_MAX_COLUMNS).toBe(8);
  });

  it('never shows hidden columns, indexed or not', () => {
    const table = testTable([
      testColumn('a', { isHidden: true, isIndexed: true }),
      testColumn('b'),
      testColumn('c', { isHidden: true }),
    ]);
    expect(names(table)).toEqual(['b']);
  });
});
