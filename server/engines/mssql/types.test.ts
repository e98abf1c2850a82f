import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TypeGroup } from '#common/contract/sql.ts';
import { checkValue } from '#server/engines/wire-values.ts';
import { compileOnlyDb, columnWith, squash } from './test-support.ts';
import { decodeValue, encodeValue, nativeTypeOf, plainDecimal, selectExpression } from './types.ts';

/*
 * Every SQL Server type as sys.columns and sys.types describe it, and values in the shapes tedious answers: they are
 * made by tedious's own value parser from TDS bytes, so the Dates carry nanosecondsDelta exactly as on a live read.
 */

describe('nativeTypeOf', () => {
  // [type_name from sys.types, sys.columns max_length (bytes), precision, scale, column name] → expected
  const cases: [string, number, number, number, string, TypeGroup, number, number, number][] = [
    ['char', 10, 0, 0, 'Code', 'Text', 10, 0, 0],
    ['varchar', 50, 0, 0, 'Name', 'Text', 50, 0, 0],
    ['varchar', -1, 0, 0, 'Notes', 'Text', -1, 0, 0],
    ['nchar', 20, 0, 0, 'Code', 'Text', 10, 0, 0],
    ['nvarchar', 100, 0, 0, 'Name', 'Text', 50, 0, 0],
    ['nvarchar', -1, 0, 0, 'Body', 'Text', -1, 0, 0],
    ['sysname', 256, 0, 0, 'Owner', 'Text', 128, 0, 0],
    ['text', 16, 0, 0, 'Legacy', 'Text', -1, 0, 0],
    ['ntext', 16, 0, 0, 'Legacy', 'Text', -1, 0, 0],
    ['binary', 16, 0, 0, 'Hash', 'Binary', 16, 0, 0],
    ['varbinary', 200, 0, 0, 'Payload', 'Binary', 200, 0, 0],
    ['varbinary', -1, 0, 0, 'Payload', 'Binary', -1, 0, 0],
    ['varbinary', -1, 0, 0, 'Photo', 'image', -1, 0, 0],
    ['image', 16, 0, 0, 'Scan', 'image', -1, 0, 0],
    ['timestamp', 8, 0, 0, 'RowVersion', 'Binary', 8, 0, 0],
    ['tinyint', 1, 3, 0, 'N', 'Number', 0, 3, 0],
    ['smallint', 2, 5, 0, 'N', 'Number', 0, 5, 0],
    ['int', 4, 10, 0, 'N', 'Number', 0, 10, 0],
    ['bigint', 8, 19, 0, 'N', 'Number', 0, 19, 0],
    ['real', 4, 24, 0, 'N', 'Number', 0, 24, 0],
    ['float', 8, 53, 0, 'N', 'Number', 0, 53, 0],
    ['money', 8, 19, 4, 'Price', 'Number', 0, 19, 4],
    ['smallmoney', 4, 10, 4, 'Price', 'Number', 0, 10, 4],
    ['decimal', 9, 18, 4, 'Amount', 'Number', 0, 18, 4],
    ['numeric', 9, 10, 2, 'UnitPrice', 'Number', 0, 10, 2],
    ['date', 3, 10, 0, 'Day', 'Date', 0, 0, 0],
    ['datetime', 8, 23, 3, 'At', 'Date', 0, 0, 3],
    ['datetime2', 8, 27, 7, 'At', 'Date', 0, 0, 7],
    ['datetime2', 6, 19, 0, 'At', 'Date', 0, 0, 0],
    ['datetimeoffset', 10, 34, 7, 'At', 'Date', 0, 0, 7],
    ['smalldatetime', 4, 16, 0, 'At', 'Date', 0, 0, 0],
    ['time', 5, 16, 7, 'Clock', 'Time', 0, 0, 7],
    ['bit', 1, 1, 0, 'Active', 'bit', 0, 1, 0],
    ['uniqueidentifier', 16, 0, 0, 'Guid', 'guid', 0, 0, 0],
    ['xml', -1, 0, 0, 'Doc', 'Other', -1, 0, 0],
    ['sql_variant', 8016, 0, 0, 'Anything', 'Other', 0, 0, 0],
    ['hierarchyid', 892, 0, 0, 'Node', 'Other', 0, 0, 0],
    ['geography', -1, 0, 0, 'Place', 'Other', -1, 0, 0],
    ['geometry', -1, 0, 0, 'Shape', 'Other', -1, 0, 0],
  ];
  it.each(cases)(
    '%s (max_length %i) of %s',
    (typeName, maxLengthBytes, precision, scale, name, group, maxLength, p, s) => {
      expect(nativeTypeOf({ name, typeName, maxLengthBytes, precision, scale })).toEqual({
        type: typeName === 'sysname' ? 'nvarchar' : typeName,
        typeGroup: group,
        maxLength,
        precision: p,
        scale: s,
      });
    },
  );
});

interface TdsType {
  name: string;
}
type ReadValue = (
  buf: Buffer,
  offset: number,
  metadata: { type: TdsType; precision?: number; scale?: number; collation?: undefined },
  options: { useUTC: boolean; lowerCaseGuids: boolean },
) => { value: unknown };
const { readValue } = createRequire(import.meta.url)('tedious/lib/value-parser.js') as {
  readValue: ReadValue;
};

/** A value as tedious reads it off the wire (useUTC: true, as connect.ts sets). */
const tedious = (
  typeName: string,
  bytes: Buffer,
  extra: { precision?: number; scale?: number } = {},
  lowerCaseGuids = false,
) => readValue(bytes, 0, { type: { name: typeName }, ...extra }, { useUTC: true, lowerCaseGuids }).value;

const DAY = 86_400_000;
/** Days since 0001-01-01, as date, datetime2 and datetimeoffset store them. */
const daysSinceYear1 = (y: number, m: number, d: number) => {
  // Not Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  const at = new Date(0);
  at.setUTCFullYear(y, m - 1, d);
  return (at.getTime() - Date.UTC(2000, 0, 1)) / DAY + 730119;
};
const uint = (value: bigint | number, bytes: number) => {
  const out = Buffer.alloc(bytes);
  let v = BigInt(value);
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
};
/** Ticks of 100 ns since midnight. */
const ticks = (h: number, mi: number, s: number, fraction7: number) =>
  BigInt(((h * 60 + mi) * 60 + s) * 10_000_000 + fraction7);

const datetime2 = (y: number, m: number, d: number, time: bigint) =>
  Buffer.concat([Buffer.from([8]), uint(time, 5), uint(daysSinceYear1(y, m, d), 3)]);

describe('decodeValue: values as tedious reads them', () => {
  it('keeps every digit of datetime2(7), time(7) and the instant of datetimeoffset(7)', () => {
    const at = tedious('DateTime2', datetime2(2024, 1, 2, ticks(3, 4, 5, 1_234_567)), { scale: 7 });
    expect(at).toBeInstanceOf(Date);
    expect(decodeValue(columnWith({ type: 'datetime2', typeGroup: 'Date', scale: 7 }), at)).toBe(
      '2024-01-02T03:04:05.1234567',
    );
    expect(decodeValue(columnWith({ type: 'datetime2', typeGroup: 'Date', scale: 3 }), at)).toBe(
      '2024-01-02T03:04:05.123',
    );

    const clock = tedious('Time', Buffer.concat([Buffer.from([5]), uint(ticks(23, 59, 59, 9_999_999), 5)]), {
      scale: 7,
    });
    expect(decodeValue(columnWith({ type: 'time', typeGroup: 'Time', scale: 7 }), clock)).toBe(
      '23:59:59.9999999',
    );

    // 2024-01-02 05:04:05.0000001 +02:00 is stored as its UTC time plus the offset in minutes.
    const offsetBytes = Buffer.concat([
      Buffer.from([10]),
      uint(ticks(3, 4, 5, 1), 5),
      uint(daysSinceYear1(2024, 1, 2), 3),
      uint(120, 2),
    ]);
    const instant = tedious('DateTimeOffset', offsetBytes, { scale: 7 });
    expect(decodeValue(columnWith({ type: 'datetimeoffset', typeGroup: 'Date', scale: 7 }), instant)).toBe(
      '2024-01-02T03:04:05.0000001Z',
    );
  });

  it('writes date, datetime and smalldatetime as ISO text without an offset', () => {
    const day = tedious('Date', Buffer.concat([Buffer.from([3]), uint(daysSinceYear1(1, 1, 1), 3)]));
    expect(decodeValue(columnWith({ type: 'date', typeGroup: 'Date' }), day)).toBe('0001-01-01');
    const late = tedious('Date', Buffer.concat([Buffer.from([3]), uint(daysSinceYear1(9999, 12, 31), 3)]));
    expect(decodeValue(columnWith({ type: 'date', typeGroup: 'Date' }), late)).toBe('9999-12-31');

    // datetime: days since 1900-01-01 and 1/300 s; 2009-01-01 00:00:00.997 as in Chinook's InvoiceDate column.
    const days1900 = (Date.UTC(2009, 0, 1) - Date.UTC(1900, 0, 1)) / DAY;
    const datetime = tedious('DateTimeN', Buffer.concat([Buffer.from([8]), uint(days1900, 4), uint(299, 4)]));
    expect(decodeValue(columnWith({ type: 'datetime', typeGroup: 'Date', scale: 3 }), datetime)).toBe(
      '2009-01-01T00:00:00.997',
    );

    const small = tedious(
      'DateTimeN',
      Buffer.concat([Buffer.from([4]), uint(days1900, 2), uint(13 * 60 + 7, 2)]),
    );
    expect(decodeValue(columnWith({ type: 'smalldatetime', typeGroup: 'Date' }), small)).toBe(
      '2009-01-01T13:07:00',
    );
  });

  it('answers money and decimals as text with the column scale', () => {
    const money = tedious('MoneyN', Buffer.concat([Buffer.from([8]), uint(0, 4), uint(123_000, 4)]));
    expect(money).toBe(12.3);
    expect(
      decodeValue(columnWith({ type: 'money', typeGroup: 'Number', precision: 19, scale: 4 }), money),
    ).toBe('12.3000');
    const smallMoney = tedious('MoneyN', Buffer.concat([Buffer.from([4]), uint(-5000 & 0xffffffff, 4)]));
    expect(
      decodeValue(
        columnWith({ type: 'smallmoney', typeGroup: 'Number', precision: 10, scale: 4 }),
        smallMoney,
      ),
    ).toBe('-0.5000');

    // numeric(10,2) 0.99: sign byte 1, then 99 in 4 bytes.
    const price = tedious('NumericN', Buffer.concat([Buffer.from([5, 1]), uint(99, 4)]), {
      precision: 10,
      scale: 2,
    });
    expect(
      decodeValue(columnWith({ type: 'numeric', typeGroup: 'Number', precision: 10, scale: 2 }), price),
    ).toBe('0.99');
    const whole = tedious('NumericN', Buffer.concat([Buffer.from([5, 0]), uint(500, 4)]), {
      precision: 10,
      scale: 2,
    });
    expect(
      decodeValue(columnWith({ type: 'decimal', typeGroup: 'Number', precision: 10, scale: 2 }), whole),
    ).toBe('-5.00');
  });

  it('loses digits past 15 of a decimal read as a number, and keeps them when selected as text', () => {
    const column = columnWith({ type: 'decimal', typeGroup: 'Number', precision: 18, scale: 4 });
    const raw = tedious('DecimalN', Buffer.concat([Buffer.from([9, 1]), uint(123456789012345678n, 8)]), {
      precision: 18,
      scale: 4,
    });
    expect(typeof raw).toBe('number');
    expect(decodeValue(column, raw)).not.toBe('12345678901234.5678');
    // selectExpression's convert(varchar(48), …) arrives as the server's own text.
    expect(decodeValue(column, '12345678901234.5678')).toBe('12345678901234.5678');
    expect(
      decodeValue(columnWith({ type: 'money', typeGroup: 'Number', scale: 4 }), '922337203685477.5807'),
    ).toBe('922337203685477.5807');
  });

  it('answers bigint (a string from tedious) as a number while exact, else as text', () => {
    const column = columnWith({ type: 'bigint', typeGroup: 'Number', precision: 19 });
    const exact = tedious('IntN', Buffer.concat([Buffer.from([8]), uint(9007199254740991n, 8)]));
    expect(exact).toBe('9007199254740991');
    expect(decodeValue(column, exact)).toBe(9007199254740991);
    const past = tedious('IntN', Buffer.concat([Buffer.from([8]), uint(9007199254740993n, 8)]));
    expect(decodeValue(column, past)).toBe('9007199254740993');
    const negative = tedious(
      'IntN',
      Buffer.concat([Buffer.from([8]), uint(-9223372036854775808n & 0xffffffffffffffffn, 8)]),
    );
    expect(decodeValue(column, negative)).toBe('-9223372036854775808');
  });

  it('answers real as the shortest decimal of the same 32-bit float, float as it is', () => {
    const real = tedious(
      'FloatN',
      Buffer.concat([
        Buffer.from([4]),
        (() => {
          const b = Buffer.alloc(4);
          b.writeFloatLE(1.1);
          return b;
        })(),
      ]),
    );
    expect(real).toBe(Math.fround(1.1));
    expect(decodeValue(columnWith({ type: 'real', typeGroup: 'Number', precision: 24 }), real)).toBe(1.1);
    expect(decodeValue(columnWith({ type: 'float', typeGroup: 'Number', precision: 53 }), 0.1 + 0.2)).toBe(
      0.30000000000000004,
    );
  });

  it('answers bit as a boolean, binary as base64, guids in lower case, text and xml as they are', () => {
    expect(
      decodeValue(columnWith({ type: 'bit', typeGroup: 'bit' }), tedious('BitN', Buffer.from([1, 1]))),
    ).toBe(true);
    expect(decodeValue(columnWith({ type: 'bit', typeGroup: 'bit' }), false)).toBe(false);
    expect(
      decodeValue(columnWith({ type: 'varbinary', typeGroup: 'Binary' }), Buffer.from([0, 1, 254, 255])),
    ).toBe('AAH+/w==');
    expect(decodeValue(columnWith({ type: 'image', typeGroup: 'image' }), Buffer.from('GIF89a'))).toBe(
      'R0lGODlh',
    );
    expect(
      decodeValue(
        columnWith({ type: 'timestamp', typeGroup: 'Binary' }),
        Buffer.from([0, 0, 0, 0, 0, 0, 7, 209]),
      ),
    ).toBe('AAAAAAAAB9E=');
    // uniqueidentifier bytes are mixed-endian: the first three groups little-endian.
    const guidBytes = Buffer.from('33221100554477668899aabbccddeeff', 'hex');
    const guid = tedious('UniqueIdentifier', Buffer.concat([Buffer.from([16]), guidBytes]));
    expect(guid).toBe('00112233-4455-6677-8899-AABBCCDDEEFF');
    expect(decodeValue(columnWith({ type: 'uniqueidentifier', typeGroup: 'guid' }), guid)).toBe(
      '00112233-4455-6677-8899-aabbccddeeff',
    );
    expect(decodeValue(columnWith({ type: 'nvarchar', typeGroup: 'Text' }), 'Antônio Carlos Jobim ✓')).toBe(
      'Antônio Carlos Jobim ✓',
    );
    expect(decodeValue(columnWith({ type: 'xml', typeGroup: 'Other' }), '<a b="1"/>')).toBe('<a b="1"/>');
    expect(decodeValue(columnWith({ type: 'int', typeGroup: 'Number' }), null)).toBeNull();
    expect(decodeValue(columnWith({ type: 'int', typeGroup: 'Number' }), undefined)).toBeNull();
  });

  it('writes a datetimeoffset selected as text (style 121) as ISO text with its offset', () => {
    const column = columnWith({ type: 'datetimeoffset', typeGroup: 'Date', scale: 7 });
    expect(decodeValue(column, '2024-01-02 05:04:05.1234567 +02:00')).toBe(
      '2024-01-02T05:04:05.1234567+02:00',
    );
    expect(decodeValue(column, '2024-01-02 05:04:05 -07:30')).toBe('2024-01-02T05:04:05-07:30');
  });
});

describe('selectExpression', () => {
  const db = compileOnlyDb();
  const compiled = (type: string, group: TypeGroup) =>
    squash(
      sql`select ${selectExpression(columnWith({ type, typeGroup: group }), sql.id('V'))} as ${sql.id('V')}`.compile(
        db,
      ).sql,
    );

  it('selects decimals, money, datetimeoffset and CLR types as text, everything else as it is', () => {
    // Kysely's SQL Server dialect quotes names with double quotes (tedious sets QUOTED_IDENTIFIER ON).
    expect(compiled('decimal', 'Number')).toBe('select convert(varchar(48), "V") as "V"');
    expect(compiled('numeric', 'Number')).toBe('select convert(varchar(48), "V") as "V"');
    expect(compiled('money', 'Number')).toBe('select convert(varchar(32), "V", 2) as "V"');
    expect(compiled('smallmoney', 'Number')).toBe('select convert(varchar(32), "V", 2) as "V"');
    expect(compiled('datetimeoffset', 'Date')).toBe('select convert(varchar(40), "V", 121) as "V"');
    expect(compiled('geography', 'Other')).toBe('select "V".ToString() as "V"');
    expect(compiled('hierarchyid', 'Other')).toBe('select "V".ToString() as "V"');
    expect(compiled('int', 'Number')).toBe('select "V" as "V"');
    expect(compiled('datetime2', 'Date')).toBe('select "V" as "V"');
  });
});

describe('encodeValue', () => {
  const encode = (type: string, group: TypeGroup, value: string | number | boolean | Buffer, scale = 0) =>
    encodeValue(columnWith({ type, typeGroup: group, scale, precision: 18 }), value);

  it('binds decimals and money as exact decimal text', () => {
    expect(encode('decimal', 'Number', '12345678901234.5678', 4)).toBe('12345678901234.5678');
    expect(encode('money', 'Number', 12.3, 4)).toBe('12.3');
    expect(encode('numeric', 'Number', '+1.5e3', 2)).toBe('1500');
    expect(encode('numeric', 'Number', '-2.5E-3', 4)).toBe('-0.0025');
  });

  it('binds whole numbers as numbers while exact, bigint past 2^53 as text, floats as numbers', () => {
    expect(encode('int', 'Number', '42')).toBe(42);
    expect(encode('int', 'Number', 7)).toBe(7);
    expect(encode('bigint', 'Number', '9007199254740993')).toBe('9007199254740993');
    expect(encode('bigint', 'Number', '-9223372036854775808')).toBe('-9223372036854775808');
    expect(encode('float', 'Number', '0.1')).toBe(0.1);
    expect(encode('real', 'Number', 1.5)).toBe(1.5);
  });

  it('binds bit as a boolean, binary as bytes, guids in lower case', () => {
    expect(encode('bit', 'bit', true)).toBe(true);
    expect(encode('bit', 'bit', 'false')).toBe(false);
    expect(encode('bit', 'bit', 1)).toBe(true);
    const bytes = Buffer.from([1, 2, 3]);
    expect(encode('varbinary', 'Binary', bytes)).toBe(bytes);
    expect(encode('uniqueidentifier', 'guid', 'AABBCCDD-0000-1111-2222-333344445555')).toBe(
      'aabbccdd-0000-1111-2222-333344445555',
    );
  });

  it('binds dates as ISO 8601 text every date type reads the same under any DATEFORMAT', () => {
    expect(encode('date', 'Date', '2024-02-29')).toBe('2024-02-29');
    expect(encode('date', 'Date', '2024-02-29T10:00:00')).toBe('2024-02-29');
    expect(encode('datetime', 'Date', '2024-02-29', 3)).toBe('2024-02-29T00:00:00');
    expect(encode('datetime', 'Date', '2024-02-29 13:45:01.123456', 3)).toBe('2024-02-29T13:45:01.123');
    expect(encode('smalldatetime', 'Date', '2024-02-29 13:45:31.5')).toBe('2024-02-29T13:45:31');
    expect(encode('datetime2', 'Date', '2024-02-29T13:45:01.123456789', 7)).toBe(
      '2024-02-29T13:45:01.1234567',
    );
    expect(encode('datetime2', 'Date', '2024-02-29T13:45', 7)).toBe('2024-02-29T13:45:00');
    expect(encode('datetimeoffset', 'Date', '2024-02-29T13:45:01.5+0530', 7)).toBe(
      '2024-02-29T13:45:01.5+05:30',
    );
    expect(encode('datetimeoffset', 'Date', '2024-02-29T13:45:01Z', 7)).toBe('2024-02-29T13:45:01+00:00');
    expect(encode('datetimeoffset', 'Date', '2024-02-29', 7)).toBe('2024-02-29T00:00:00+00:00');
  });

  it('turns an offset into UTC for the types without one (they are read back as UTC)', () => {
    expect(encode('datetime2', 'Date', '2024-03-01T01:30:00.25+02:00', 7)).toBe('2024-02-29T23:30:00.25');
    expect(encode('datetime', 'Date', '2024-01-01T00:00:00-05:00', 3)).toBe('2024-01-01T05:00:00');
    expect(encode('datetime2', 'Date', '0099-01-01T00:00:00Z', 7)).toBe('0099-01-01T00:00:00');
    expect(encode('datetime2', 'Date', '0099-01-01T00:30:00+01:00', 7)).toBe('0098-12-31T23:30:00');
  });

  it('binds times with at most 7 fractional digits', () => {
    expect(encode('time', 'Time', '13:45')).toBe('13:45:00');
    expect(encode('time', 'Time', '13:45:01.123456789')).toBe('13:45:01.1234567');
    expect(encode('time', 'Time', '2024-01-01T08:00:00')).toBe('08:00:00');
  });

  it('encodes what checkValue lets through for each group', () => {
    const money = columnWith({ type: 'money', typeGroup: 'Number', precision: 19, scale: 4 });
    const checked = checkValue(money, '1e2');
    expect(checked).toBe('1e2');
    expect(encodeValue(money, checked!)).toBe('100');
  });
});

describe('plainDecimal', () => {
  it.each([
    ['0', '0'],
    ['-0.50', '-0.50'],
    ['00012.30', '12.30'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1e0', '1'],
    ['1.25e1', '12.5'],
    ['1.25e5', '125000'],
    ['125e-5', '0.00125'],
    ['-3E+2', '-300'],
  ])('%s → %s', (input, output) => {
    expect(plainDecimal(input)).toBe(output);
  });
});
