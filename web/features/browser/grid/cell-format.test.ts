import { afterEach, describe, expect, it } from 'vitest';
import {
  base64ByteCount,
  binaryText,
  byteSize,
  copyText,
  cutText,
  dateText,
  decimalWithScale,
  bytesOf,
  imageSource,
  numberText,
  offsetText,
  timeText,
} from './cell-format.ts';

const bytes = (...values: number[]) => btoa(String.fromCharCode(...values));

describe('numbers at their column scale', () => {
  it('pads and rounds decimal text exactly, never through a JavaScript number', () => {
    expect(decimalWithScale('12.5', 2)).toBe('12.50');
    expect(decimalWithScale('12', 2)).toBe('12.00');
    expect(decimalWithScale('.5', 2)).toBe('0.50');
    expect(decimalWithScale('1.005', 2)).toBe('1.01');
    expect(decimalWithScale('-1.995', 2)).toBe('-2.00');
    expect(decimalWithScale('-0.001', 2)).toBe('0.00');
    expect(decimalWithScale('99999999999999999999.999', 2)).toBe('100000000000000000000.00');
    expect(decimalWithScale('12345678901234567890.12', 2)).toBe('12345678901234567890.12');
    expect(decimalWithScale('abc', 2)).toBe('abc');
  });

  it('writes exactly the scale when the column declares one, else the value as it came', () => {
    const money = { precision: 19, scale: 4 };
    expect(numberText('0.9', money)).toBe('0.9000');
    expect(numberText(3.5, { precision: 10, scale: 2 })).toBe('3.50');
    expect(numberText(42, { precision: 10, scale: 0 })).toBe('42');
    expect(numberText('9007199254740993', { precision: 19, scale: 0 })).toBe('9007199254740993');
    // An unconstrained numeric (precision 0) keeps every decimal it has.
    expect(numberText('3.14159265358979323846', { precision: 0, scale: 0 })).toBe('3.14159265358979323846');
    expect(numberText(0.1, { precision: 0, scale: 0 })).toBe('0.1');
  });
});

describe('dates and times in short form', () => {
  it('keeps a date alone as it is, in every time zone', () => {
    expect(dateText('2026-11-24')).toBe('2026-11-24');
  });

  it('writes a date and time without an offset as written, to the minute', () => {
    expect(dateText('2026-11-24T14:05:59.1234567')).toBe('2026-11-24 14:05');
    expect(dateText('2026-11-24 09:30:00')).toBe('2026-11-24 09:30');
  });

  it("writes a point in time with an offset in the local time zone, with that zone's offset", () => {
    const local = new Date(Date.UTC(2026, 10, 24, 12, 5));
    const pad = (n: number) => String(n).padStart(2, '0');
    const expected = `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())} ${offsetText(-local.getTimezoneOffset())}`;
    expect(dateText('2026-11-24T12:05:00.1234567Z')).toBe(expected);
    expect(dateText('2026-11-24T14:05:00+02:00')).toBe(expected);
    expect(dateText('2026-11-24 14:05:00+02')).toBe(expected);
  });

  it('writes offsets as ISO does', () => {
    expect(offsetText(0)).toBe('+00:00');
    expect(offsetText(60)).toBe('+01:00');
    expect(offsetText(330)).toBe('+05:30');
    expect(offsetText(-210)).toBe('-03:30');
  });

  describe('as each engine stores them, in a fixed time zone', () => {
    const zone = process.env.TZ;
    afterEach(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });

    it("PostgreSQL: timestamptz (read in UTC) with the viewer's offset; timestamp and date without one", () => {
      process.env.TZ = 'Europe/Paris';
      expect(dateText('2026-11-24T12:05:00.123456+00:00')).toBe('2026-11-24 13:05 +01:00');
      expect(dateText('2026-07-01T22:30:00+00:00')).toBe('2026-07-02 00:30 +02:00');
      expect(dateText('2026-11-24T12:05:00.123456')).toBe('2026-11-24 12:05');
      expect(dateText('2026-11-24')).toBe('2026-11-24');
      process.env.TZ = 'Asia/Kolkata';
      expect(dateText('2026-11-24T12:05:00+00:00')).toBe('2026-11-24 17:35 +05:30');
      process.env.TZ = 'UTC';
      expect(dateText('2026-11-24T12:05:00+00:00')).toBe('2026-11-24 12:05 +00:00');
    });

    it("MariaDB: TIMESTAMP (read in UTC, Z) with the viewer's offset; DATETIME and DATE as stored", () => {
      process.env.TZ = 'America/New_York';
      expect(dateText('2026-11-24T12:05:00Z')).toBe('2026-11-24 07:05 -05:00');
      expect(dateText('2026-11-24T12:05:00.500000Z')).toBe('2026-11-24 07:05 -05:00');
      expect(dateText('2026-11-24T12:05:00')).toBe('2026-11-24 12:05');
      expect(dateText('2026-11-24')).toBe('2026-11-24');
      // A zero date stays as MariaDB wrote it.
      expect(dateText('0000-00-00 00:00:00')).toBe('0000-00-00 00:00');
    });

    it('SQLite: text dates as written, those with an offset as points in time', () => {
      process.env.TZ = 'Europe/Paris';
      expect(dateText('2026-11-24 12:05:00')).toBe('2026-11-24 12:05');
      expect(dateText('2026-11-24 12:05')).toBe('2026-11-24 12:05');
      expect(dateText('2026-11-24T12:05:00+05:30')).toBe('2026-11-24 07:35 +01:00');
      expect(dateText('2026-11-24 12:05:00 +0000')).toBe('2026-11-24 13:05 +01:00');
      expect(dateText('24/11/2026')).toBe('24/11/2026');
    });
  });

  it('leaves other text alone', () => {
    expect(dateText('infinity')).toBe('infinity');
  });

  it('writes times to the minute, with the seconds when they count', () => {
    expect(timeText('09:30:00')).toBe('09:30');
    expect(timeText('09:30:15.1234567')).toBe('09:30:15');
    expect(timeText('09:30:00+02')).toBe('09:30 +02');
    expect(timeText('noon')).toBe('noon');
  });
});

describe('binary and images', () => {
  it('counts bytes and writes sizes', () => {
    expect(base64ByteCount(bytes(1, 2, 3))).toBe(3);
    expect(base64ByteCount(bytes(1, 2))).toBe(2);
    expect(base64ByteCount(bytes(1))).toBe(1);
    expect(byteSize(1)).toBe('1 byte');
    expect(byteSize(3)).toBe('3 bytes');
    expect(byteSize(4300)).toBe('4.2 KB');
    expect(byteSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('writes short binary whole in hexadecimal with its size, longer binary as its size', () => {
    expect(binaryText(bytes(0xff, 0x88, 0x00))).toBe('0xFF8800 (3 bytes)');
    expect(binaryText(bytes(1, 2, 3, 4, 5, 6, 7, 8))).toBe('0x0102030405060708 (8 bytes)');
    expect(binaryText(bytes(...Array.from({ length: 32 }, (_, i) => i)))).toBe('32 bytes binary');
    expect(binaryText(btoa('x'.repeat(2458)))).toBe('2.4 KB binary');
    expect(binaryText('')).toBe('0x (0 bytes)');
  });

  it('decodes base64 to bytes, data: URLs too, and refuses what is not base64', () => {
    expect(Array.from(bytesOf(bytes(0, 255, 16)) ?? [])).toEqual([0, 255, 16]);
    expect(Array.from(bytesOf(`data:application/octet-stream;base64,${bytes(7)}`) ?? [])).toEqual([7]);
    expect(bytesOf('not base64!')).toBeNull();
  });

  it('makes data: URLs of images, by their first bytes, jpeg when unknown (spec 000 §5)', () => {
    expect(imageSource('iVBORw0KGgoAAAA')).toBe('data:image/png;base64,iVBORw0KGgoAAAA');
    expect(imageSource('R0lGODlhAQAB')).toBe('data:image/gif;base64,R0lGODlhAQAB');
    expect(imageSource('/9j/4AAQ')).toBe('data:image/jpeg;base64,/9j/4AAQ');
    expect(imageSource('AAAAAAAA')).toBe('data:image/jpeg;base64,AAAAAAAA');
    expect(imageSource('data:image/png;base64,iVBOR')).toBe('data:image/png;base64,iVBOR');
  });
});

describe('copy text and cuts', () => {
  it('copies the value as stored', () => {
    expect(copyText({ typeGroup: 'Number' }, '12.50')).toBe('12.50');
    expect(copyText({ typeGroup: 'Number' }, 7)).toBe('7');
    expect(copyText({ typeGroup: 'bit' }, true)).toBe('true');
    expect(copyText({ typeGroup: 'Binary' }, bytes(0xff, 0x88, 0x00))).toBe('0xFF8800');
    expect(copyText({ typeGroup: 'image' }, 'data:image/png;base64,iVBOR')).toBe('iVBOR');
    expect(copyText({ typeGroup: 'Text' }, null)).toBe('');
  });

  it('cuts text by code points with an ellipsis', () => {
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('abcd', 3)).toBe('abc…');
    expect(cutText('😀😀😀', 3)).toBe('😀😀😀');
  });
});
