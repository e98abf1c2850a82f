import { describe, expect, it } from 'vitest';
import {
  choosableColumns,
  defaultLayout,
  effectiveLayout,
  moveColumn,
  moveColumnTo,
  normalizeLayout,
  resetLayout,
  setColumnPinned,
  setColumnShown,
  setColumnWidth,
  shownColumns,
  tableInLayoutOrder,
} from './column-layout.ts';
import { testColumn, testTable } from './grid-test-table.ts';

// Ten columns: c1..c10, c10 indexed, secret hidden. The default shows c10, c1..c7.
const table = testTable([
  ...Array.from({ length: 10 }, (_, i) => testColumn(`c${i + 1}`, { isIndexed: i === 9 })),
  testColumn('secret', { isHidden: true }),
]);
const names = (layout: { name: string }[] | null) =>
  effectiveLayout(table, layout).map((entry) => entry.name);

describe('the column layout', () => {
  it('defaults to the spec’s columns (at most 8, indexed first)', () => {
    expect(names(null)).toEqual(['c10', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    expect(defaultLayout(table)).toEqual(effectiveLayout(table, null));
  });

  it('offers every column but the hidden ones', () => {
    expect(choosableColumns(table).map((column) => column.name)).not.toContain('secret');
    expect(choosableColumns(table)).toHaveLength(10);
  });

  it('drops unknown, hidden and repeated names, and falls back to the default when nothing remains', () => {
    expect(
      names([{ name: 'c9' }, { name: 'nope' }, { name: 'secret' }, { name: 'c9' }, { name: 'c2' }]),
    ).toEqual(['c9', 'c2']);
    expect(names([{ name: 'nope' }, { name: 'secret' }])).toEqual(names(null));
  });

  it('shows pinned columns first, with their widths', () => {
    expect(
      shownColumns(table, [
        { name: 'c1', width: 200 },
        { name: 'c9', pinned: true },
      ]),
    ).toEqual([
      { column: table.columns[8], width: undefined, pinned: true },
      { column: table.columns[0], width: 200, pinned: false },
    ]);
  });

  it('gives null back for the default, so the address leaves it out', () => {
    expect(normalizeLayout(table, defaultLayout(table))).toBeNull();
    expect(normalizeLayout(table, [{ name: 'c1' }])).toEqual([{ name: 'c1' }]);
    expect(resetLayout()).toBeNull();
  });

  it('moves a column up and down, and to a place', () => {
    expect(names(moveColumn(table, null, 'c1', -1))).toEqual([
      'c1',
      'c10',
      'c2',
      'c3',
      'c4',
      'c5',
      'c6',
      'c7',
    ]);
    expect(names(moveColumn(table, null, 'c7', 1))).toEqual(names(null));
    expect(moveColumn(table, null, 'c10', -1)).toBeNull();
    expect(
      names(moveColumnTo(table, [{ name: 'a' }, { name: 'c1' }, { name: 'c2' }, { name: 'c3' }], 'c3', 0)),
    ).toEqual(['c3', 'c1', 'c2']);
  });

  it('keeps pinned columns first whatever moves', () => {
    const layout = [{ name: 'c1', pinned: true }, { name: 'c2' }];
    expect(names(moveColumn(table, layout, 'c2', -1))).toEqual(['c1', 'c2']);
  });

  it('shows a column at the end and hides one, but never the last', () => {
    expect(names(setColumnShown(table, null, 'c9', true)).at(-1)).toBe('c9');
    expect(names(setColumnShown(table, null, 'c1', false))).not.toContain('c1');
    expect(setColumnShown(table, [{ name: 'c1' }], 'c1', false)).toEqual([{ name: 'c1' }]);
    expect(setColumnShown(table, [{ name: 'c1' }], 'secret', true)).toEqual([{ name: 'c1' }]);
  });

  it('pins a column after the pinned ones and unpins it after them', () => {
    const pinned = setColumnPinned(
      table,
      [{ name: 'c1', pinned: true }, { name: 'c2' }, { name: 'c3' }],
      'c3',
      true,
    );
    expect(pinned).toEqual([{ name: 'c1', pinned: true }, { name: 'c3', pinned: true }, { name: 'c2' }]);
    expect(setColumnPinned(table, pinned, 'c1', false)).toEqual([
      { name: 'c3', pinned: true },
      { name: 'c1' },
      { name: 'c2' },
    ]);
  });

  it('sets a width within 48 to 1200 pixels, and clears it', () => {
    expect(setColumnWidth(table, [{ name: 'c1' }], 'c1', 10)).toEqual([{ name: 'c1', width: 48 }]);
    expect(setColumnWidth(table, [{ name: 'c1' }], 'c1', 9000)).toEqual([{ name: 'c1', width: 1200 }]);
    expect(setColumnWidth(table, [{ name: 'c1', width: 300 }], 'c1', undefined)).toEqual([{ name: 'c1' }]);
  });

  it('orders the editor’s columns as the layout: shown ones first, then the rest in table order', () => {
    expect(tableInLayoutOrder(table, null)).toBe(table);
    const ordered = tableInLayoutOrder(table, [{ name: 'c3' }, { name: 'c1', pinned: true }]);
    expect(ordered.columns.map((column) => column.name)).toEqual([
      'c1',
      'c3',
      'c2',
      'c4',
      'c5',
      'c6',
      'c7',
      'c8',
      'c9',
      'c10',
      'secret',
    ]);
  });
});
