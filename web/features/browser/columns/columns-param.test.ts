import { describe, expect, it } from 'vitest';
import { clampWidth, encodeColumnsParam, parseColumnsParam } from './columns-param.ts';

describe('parseColumnsParam', () => {
  it('reads names in order, pins and widths', () => {
    expect(parseColumnsParam('TrackId:pin,Composer:240,Name')).toEqual([
      { name: 'TrackId', pinned: true },
      { name: 'Composer', width: 240 },
      { name: 'Name' },
    ]);
  });

  it('reads an entry with both a pin and a width, in either order', () => {
    expect(parseColumnsParam('TrackId:pin:120,Name:90:pin')).toEqual([
      { name: 'TrackId', pinned: true, width: 120 },
      { name: 'Name', width: 90, pinned: true },
    ]);
  });

  it('is null when absent, empty or when no entry reads', () => {
    expect(parseColumnsParam(null)).toBeNull();
    expect(parseColumnsParam('')).toBeNull();
    expect(parseColumnsParam(',,:pin, ')).toBeNull();
  });

  it('clamps widths, ignores unknown flags and keeps the first of a name named twice', () => {
    expect(parseColumnsParam('A:1,B:999999,C:wide,A:300')).toEqual([
      { name: 'A', width: 48 },
      { name: 'B', width: 1200 },
      { name: 'C' },
    ]);
  });

  it('skips a name that does not decode', () => {
    expect(parseColumnsParam('%E0%A4%A,Name')).toEqual([{ name: 'Name' }]);
  });
});

describe('encodeColumnsParam', () => {
  it('writes what parseColumnsParam reads', () => {
    const layout = [
      { name: 'TrackId', pinned: true, width: 120 },
      { name: 'Composer', width: 240 },
      { name: 'Name' },
    ];
    expect(encodeColumnsParam(layout)).toBe('TrackId:pin:120,Composer:240,Name');
    expect(parseColumnsParam(encodeColumnsParam(layout))).toEqual(layout);
  });

  it('percent-encodes a name’s own commas, colons and percent signs', () => {
    const layout = [{ name: 'a,b:c%d', pinned: true }, { name: 'Ünïcode name' }];
    const encoded = encodeColumnsParam(layout);
    expect(encoded).toBe('a%2Cb%3Ac%25d:pin,Ünïcode name');
    expect(parseColumnsParam(encoded)).toEqual(layout);
  });
});

describe('clampWidth', () => {
  it('rounds and clamps', () => {
    expect(clampWidth(10)).toBe(48);
    expect(clampWidth(100.6)).toBe(101);
    expect(clampWidth(5000)).toBe(1200);
  });
});
