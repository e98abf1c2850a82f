import { describe, expect, it } from 'vitest';
import type { CatalogColumn } from './adapter.ts';
import { columnDefault, quotedText, withoutParentheses, type DefaultLiteral } from './column-defaults.ts';
import { mssqlDefault } from './mssql/catalog.ts';
import { mysqlDefault } from './mysql/catalog.ts';
import { postgresDefault } from './postgres/catalog.ts';
import { sqliteDefault } from './sqlite/catalog.ts';

/* Each engine's default text read into a literal, and the literal made a wire value of its column. The engine suite
 * checks the same on the live engines (and that the database stores those values); these cover the spellings it
 * does not meet: MySQL 8, SQL Server, casts and quoting. */

function column(fields: Partial<CatalogColumn> & Pick<CatalogColumn, 'type' | 'typeGroup'>) {
  return {
    id: 1,
    name: 'c',
    maxLength: 0,
    precision: 0,
    scale: 0,
    isNullable: true,
    isGuid: false,
    isIdentity: false,
    isHidden: false,
    isComputed: false,
    defaultValue: 'x',
    ...fields,
  };
}

const shown = (literal: DefaultLiteral, fields: Parameters<typeof column>[0]) => {
  const result = columnDefault(column(fields), literal);
  return result.defaultIsExpression ? 'expression' : result.defaultConstant;
};

describe('column defaults', () => {
  it('reads quoted text and strips only the parentheses that wrap everything', () => {
    expect(quotedText("'it''s'")).toBe("it's");
    expect(quotedText("''")).toBe('');
    expect(quotedText("'a' || 'b'")).toBeNull();
    expect(quotedText('"x"', '"')).toBe('x');
    expect(withoutParentheses('((1))')).toBe('1');
    expect(withoutParentheses('(1) + (2)')).toBe('(1) + (2)');
    expect(withoutParentheses("(')')")).toBe("')'");
  });

  it("reads PostgreSQL's pg_get_expr text", () => {
    expect(postgresDefault('true')).toEqual({ constant: 'true' });
    expect(postgresDefault("'-1'::integer")).toEqual({ constant: '-1' });
    expect(postgresDefault("'it''s'::character varying")).toEqual({ constant: "it's" });
    expect(postgresDefault("'12:00:00'::time without time zone")).toEqual({ constant: '12:00:00' });
    expect(postgresDefault('\'1\'::"bit"')).toEqual({ constant: '1' });
    expect(postgresDefault('NULL::character varying')).toBe('null');
    for (const expression of [
      'now()',
      "nextval('t_i_seq'::regclass)",
      "('a'::text || 'b'::text)",
      '(1 + 1)',
      "E'a\\nb'::text",
    ])
      expect(postgresDefault(expression), expression).toBe('expression');
  });

  it("reads MariaDB's and MySQL 8's information_schema text", () => {
    expect(mysqlDefault("b'1'", '', true)).toEqual({ constant: '1' });
    expect(mysqlDefault("'it''s'", '', true)).toEqual({ constant: "it's" });
    expect(mysqlDefault('1.50', '', true)).toEqual({ constant: '1.50' });
    expect(mysqlDefault('current_timestamp(6)', '', true)).toBe('expression');
    expect(mysqlDefault('(1 + 1)', '', true)).toBe('expression');
    // MySQL 8 writes strings bare and marks expressions in EXTRA.
    expect(mysqlDefault("it's", '', false)).toEqual({ constant: "it's" });
    expect(mysqlDefault('CURRENT_TIMESTAMP', 'DEFAULT_GENERATED', false)).toBe('expression');
    expect(mysqlDefault('uuid()', 'DEFAULT_GENERATED', false)).toBe('expression');
  });

  it("reads SQLite's and SQL Server's default text", () => {
    expect(sqliteDefault('(-1)')).toEqual({ constant: '-1' });
    expect(sqliteDefault('TRUE')).toEqual({ constant: 'true' });
    expect(sqliteDefault("'a'")).toEqual({ constant: 'a' });
    expect(sqliteDefault('CURRENT_TIMESTAMP')).toBe('expression');
    expect(sqliteDefault("(datetime('now'))")).toBe('expression');
    expect(sqliteDefault('NULL')).toBe('null');
    expect(mssqlDefault('((1))')).toEqual({ constant: '1' });
    expect(mssqlDefault("(N'it''s')")).toEqual({ constant: "it's" });
    expect(mssqlDefault('(getdate())')).toBe('expression');
    expect(mssqlDefault('(NULL)')).toBe('null');
  });

  it("makes a constant the column's wire value, or an expression when it cannot show it", () => {
    expect(shown({ constant: '1' }, { type: 'bit', typeGroup: 'bit' })).toBe(true);
    expect(shown({ constant: 'false' }, { type: 'boolean', typeGroup: 'bit' })).toBe(false);
    expect(shown({ constant: '+7' }, { type: 'int', typeGroup: 'Number' })).toBe(7);
    expect(shown({ constant: '9007199254740993' }, { type: 'bigint', typeGroup: 'Number' })).toBe(
      '9007199254740993',
    );
    expect(
      shown({ constant: '1.5' }, { type: 'numeric', typeGroup: 'Number', precision: 10, scale: 2 }),
    ).toBe('1.50');
    expect(shown({ constant: '1500' }, { type: 'real', typeGroup: 'Number' })).toBe(1500);
    expect(shown({ constant: 'NaN' }, { type: 'double precision', typeGroup: 'Number' })).toBe('expression');
    expect(shown({ constant: '2020-01-02 03:04:05+00' }, { type: 'timestamptz', typeGroup: 'Date' })).toBe(
      '2020-01-02T03:04:05+00:00',
    );
    expect(shown({ constant: 'soon' }, { type: 'date', typeGroup: 'Date' })).toBe('expression');
    expect(shown({ constant: 'AAAA' }, { type: 'bytea', typeGroup: 'Binary' })).toBe('expression');
    expect(shown({ constant: 'x' }, { type: 'varchar', typeGroup: 'Text' })).toBe('x');
    expect(shown('null', { type: 'varchar', typeGroup: 'Text' })).toBeNull();
    expect(
      columnDefault(column({ type: 'int', typeGroup: 'Number', defaultValue: null }), undefined),
    ).toEqual({
      defaultConstant: null,
      defaultIsExpression: false,
    });
  });
});
