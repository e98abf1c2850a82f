import { describe, expect, it } from 'vitest';
import { parseWireDate, pickerValue, timeValue, typeHasOffset, wireDate } from './date-values.ts';

describe('dates between the wire and the pickers', () => {
  it('reads dates, date-times with fractions, offsets and a space for T', () => {
    expect(parseWireDate('2024-03-05')).toEqual({ date: '2024-03-05', time: '00:00:00', offset: null });
    expect(parseWireDate('2024-03-05T14:03:00.1234567')).toEqual({
      date: '2024-03-05',
      time: '14:03:00',
      offset: null,
    });
    expect(parseWireDate('2024-03-05 14:03+02:00')?.offset).toBe('+02:00');
    expect(parseWireDate('2024-03-05T14:03:00Z')?.offset).toBe('Z');
    expect(parseWireDate('0000-00-00 00:00:00')?.date).toBe('0000-00-00');
    expect(parseWireDate('yesterday')).toBeNull();
  });

  it('gives the pickers the wall-clock text, never shifted to the browser zone', () => {
    expect(pickerValue('2024-03-05T23:30:00-05:00', true)).toBe('2024-03-05 23:30:00');
    expect(pickerValue('2024-03-05', false)).toBe('2024-03-05');
    expect(pickerValue(null, true)).toBeNull();
  });

  it('writes a picked value back with the offset the value had', () => {
    expect(wireDate('2024-04-01 08:15:00', true, '2024-03-05T23:30:00-05:00', 'datetimeoffset')).toBe(
      '2024-04-01T08:15:00-05:00',
    );
    expect(wireDate('2024-04-01 08:15:00', true, '2024-03-05T23:30:00', 'datetime2')).toBe(
      '2024-04-01T08:15:00',
    );
    expect(wireDate('2024-04-01', false, null, 'date')).toBe('2024-04-01');
    expect(wireDate(null, true, '2024-03-05T23:30:00', 'datetime2')).toBeNull();
  });

  it("a new value of a type with an offset takes the browser's offset", () => {
    expect(typeHasOffset('datetimeoffset')).toBe(true);
    expect(typeHasOffset('timestamptz')).toBe(true);
    expect(typeHasOffset('datetime2')).toBe(false);
    expect(wireDate('2024-04-01 08:15:00', true, null, 'timestamptz')).toMatch(
      /^2024-04-01T08:15:00[+-]\d{2}:\d{2}$/,
    );
  });

  it('reads times', () => {
    expect(timeValue('09:30')).toBe('09:30:00');
    expect(timeValue('09:30:15.1234567')).toBe('09:30:15');
    expect(timeValue('nine')).toBeNull();
  });
});
