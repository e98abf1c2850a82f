import { describe, expect, it } from 'vitest';
import { ariaSort, nextSort, parseSort } from './sort-cycle.ts';

describe('sort cycle (spec 000 §4)', () => {
  it('goes ascending → descending → none on clicks of one column', () => {
    expect(nextSort(null, 'Name')).toBe('Name');
    expect(nextSort('Name', 'Name')).toBe('-Name');
    expect(nextSort('-Name', 'Name')).toBeNull();
  });

  it('starts another column ascending, whatever the current sort', () => {
    expect(nextSort('Name', 'Price')).toBe('Price');
    expect(nextSort('-Name', 'Price')).toBe('Price');
  });

  it('reads sort strings', () => {
    expect(parseSort(null)).toBeNull();
    expect(parseSort('')).toBeNull();
    expect(parseSort('-')).toBeNull();
    expect(parseSort('Name')).toEqual({ column: 'Name', direction: 'ascending' });
    expect(parseSort('-Unit Price')).toEqual({ column: 'Unit Price', direction: 'descending' });
  });

  it('names the direction of each column for aria-sort', () => {
    expect(ariaSort('Name', 'Name')).toBe('ascending');
    expect(ariaSort('-Name', 'Name')).toBe('descending');
    expect(ariaSort('-Name', 'Price')).toBe('none');
    expect(ariaSort(null, 'Name')).toBe('none');
  });
});
