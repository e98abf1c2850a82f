import { describe, expect, it } from 'vitest';
import { allParts, plannedWidth, windowParts } from './column-window.ts';
import { testColumn } from './grid-test-table.ts';

describe('plannedWidth', () => {
  it('takes the layout’s width, clamped', () => {
    expect(plannedWidth({ column: testColumn('a'), width: 250 })).toBe(250);
    expect(plannedWidth({ column: testColumn('a'), width: 10 })).toBe(48);
  });

  it('gives a column without one its type’s width, wider for a long header name, at most 320', () => {
    expect(plannedWidth({ column: testColumn('n', { typeGroup: 'Number' }), width: undefined })).toBe(120);
    expect(plannedWidth({ column: testColumn('f', { typeGroup: 'bit' }), width: undefined })).toBe(80);
    expect(plannedWidth({ column: testColumn('a_rather_long_column_name'), width: undefined })).toBe(
      64 + 25 * 8,
    );
    expect(plannedWidth({ column: testColumn('x'.repeat(80)), width: undefined })).toBe(320);
  });
});

describe('windowParts', () => {
  const widths = [100, 100, 100, 100, 100, 100];

  it('puts one gap for each run of columns left out, as wide as they are', () => {
    expect(windowParts([2, 3], widths)).toEqual([
      { kind: 'gap', width: 200, key: 'gap-0' },
      { kind: 'column', index: 2 },
      { kind: 'column', index: 3 },
      { kind: 'gap', width: 200, key: 'gap-4' },
    ]);
  });

  it('keeps pinned and active columns apart from the range, in order, once each', () => {
    expect(windowParts([0, 3, 4, 4, 0], widths)).toEqual([
      { kind: 'column', index: 0 },
      { kind: 'gap', width: 200, key: 'gap-1' },
      { kind: 'column', index: 3 },
      { kind: 'column', index: 4 },
      { kind: 'gap', width: 100, key: 'gap-5' },
    ]);
  });

  it('ignores indexes outside the columns; every column rendered is every column', () => {
    expect(windowParts([-1, 9], [50])).toEqual([{ kind: 'gap', width: 50, key: 'gap-0' }]);
    expect(windowParts([0, 1], [50, 50])).toEqual(allParts(2));
  });
});
