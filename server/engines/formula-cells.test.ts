import { describe, expect, it } from 'vitest';
import type { CellValue, TypeGroup } from '#common/contract/sql.ts';
import type { EngineKind } from './engine.ts';
import { formulaSafeCell, formulaSafeText, startsLikeFormula } from './formula-cells.ts';
import { columnWith } from './mssql/test-support.ts';

/*
 * Which CSV cells get a leading quote (OWASP CSV injection): the rule csv-stringify's path applies, which the
 * engines' own CSV (PostgreSQL COPY, the MySQL select) must match; export-formats.db.test.ts checks that they do.
 */

const cell = (kind: EngineKind, typeGroup: TypeGroup, type: string, value: CellValue) =>
  formulaSafeCell(kind, columnWith({ typeGroup, type }))(value);

const FORMULAS = ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', '-5', '=', '-'];

describe('formula-like text in CSV cells', () => {
  it('knows what starts a formula: = + - @ tab CR, nothing else', () => {
    for (const text of FORMULAS) expect(startsLikeFormula(text), text).toBe(true);
    for (const text of ['', 'plain', "'=x", ' =x', 'a=b', '\n=x', '1-2', '(1)', '{=x}'])
      expect(startsLikeFormula(text), text).toBe(false);
    expect(formulaSafeText('=1+1')).toBe("'=1+1");
    expect(formulaSafeText('plain')).toBe('plain');
  });

  it.each<EngineKind>(['postgres', 'mysql', 'mssql', 'sqlite'])(
    'on %s quotes every formula-like value of a text column, and of the Other group (json, xml, intervals)',
    (kind) => {
      for (const text of FORMULAS) {
        expect(cell(kind, 'Text', 'varchar', text)).toBe(`'${text}`);
        expect(cell(kind, 'Other', 'json', text)).toBe(`'${text}`);
      }
      expect(cell(kind, 'Text', 'text', 'plain')).toBe('plain');
      expect(cell(kind, 'Text', 'text', '')).toBe('');
      expect(cell(kind, 'Text', 'text', null)).toBeNull();
    },
  );

  it.each<EngineKind>(['postgres', 'mysql', 'mssql'])(
    'on %s leaves numbers, dates, binary and guids as their types write them',
    (kind) => {
      expect(cell(kind, 'Number', 'int', -5)).toBe(-5);
      expect(cell(kind, 'Number', 'bigint', '-9223372036854775807')).toBe('-9223372036854775807');
      expect(cell(kind, 'Number', 'numeric', '-0.50')).toBe('-0.50');
      expect(cell(kind, 'Number', 'float8', '-Infinity')).toBe('-Infinity');
      expect(cell(kind, 'Date', 'timestamp', '-infinity')).toBe('-infinity');
      expect(cell(kind, 'Binary', 'bytea', '+AAA')).toBe('+AAA');
      expect(cell(kind, 'bit', 'bool', true)).toBe(true);
    },
  );

  it('on SQLite, where any column holds any value, also quotes text in a column of another type', () => {
    // Numbers stay numbers, whether the driver gives a number or the digits of one.
    expect(cell('sqlite', 'Number', 'integer', -5)).toBe(-5);
    expect(cell('sqlite', 'Number', 'integer', '-9223372036854775807')).toBe('-9223372036854775807');
    expect(cell('sqlite', 'Number', 'decimal', '-0.50')).toBe('-0.50');
    expect(cell('sqlite', 'Number', 'real', '+1.5e3')).toBe('+1.5e3');
    // Text stored in them does not.
    expect(cell('sqlite', 'Number', 'integer', '=HYPERLINK("http://x","y")')).toBe(
      `'=HYPERLINK("http://x","y")`,
    );
    expect(cell('sqlite', 'Number', 'integer', '-2+3')).toBe("'-2+3");
    expect(cell('sqlite', 'Date', 'datetime', '@SUM(A1)')).toBe("'@SUM(A1)");
    expect(cell('sqlite', 'guid', 'uuid', '\tx')).toBe("'\tx");
    // Binary goes out as base64, which may start with + and cannot call a function; other text in it is quoted.
    expect(cell('sqlite', 'Binary', 'blob', '+/8=')).toBe('+/8=');
    expect(cell('sqlite', 'image', 'blob', '=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
  });
});
