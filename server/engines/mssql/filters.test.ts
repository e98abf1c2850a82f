import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Filter } from '#common/contract/filter.ts';
import type { Table } from '#common/contract/sql.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { filterPredicate } from '#server/engines/filter-predicates.ts';
import { mssqlAdapter } from './adapter.ts';
import { columnWith, compileOnlyDb, squash } from './test-support.ts';

/*
 * The filter document on SQL Server (issue 35, decision 0061), by the SQL it compiles to: no server runs here
 * (decision 0004). The engine suite checks the same filters' rows on SQLite, PostgreSQL and MariaDB.
 */

const db = compileOnlyDb();
const adapter = mssqlAdapter(db, { name: 'shop', statementTimeoutMs: 15_000 });

const table: Table = {
  id: 'shop/dbo/Order',
  schema: 'dbo',
  name: 'Order',
  isView: false,
  numberOfColumns: 6,
  numberOfRows: 10,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['Id'],
  identityColumn: 'Id',
  guidColumn: null,
  columns: [
    columnWith({
      id: 1,
      name: 'Id',
      type: 'int',
      typeGroup: 'Number',
      isNullable: false,
      isPrimaryKey: true,
    }),
    columnWith({ id: 2, name: 'Name', type: 'nvarchar', typeGroup: 'Text', maxLength: 50 }),
    columnWith({ id: 3, name: 'Code', type: 'varchar', typeGroup: 'Text', maxLength: 10, isNullable: false }),
    columnWith({ id: 4, name: 'Total', type: 'decimal', typeGroup: 'Number', precision: 10, scale: 2 }),
    columnWith({ id: 5, name: 'Placed', type: 'datetime2', typeGroup: 'Date', scale: 7 }),
    columnWith({ id: 6, name: 'Paid', type: 'bit', typeGroup: 'bit' }),
    columnWith({ id: 7, name: "we'ird]name", type: 'int', typeGroup: 'Number' }),
  ],
  indexes: [],
  foreignKeys: [],
};

function compiled(filter: Filter) {
  const predicate = filterPredicate(adapter, table, filter);
  const query = sql`select 1 from ${sql.id('dbo', 'Order')} where ${predicate ?? sql`1 = 1`}`.compile(db);
  return {
    sql: squash(query.sql).replace('select 1 from "dbo"."Order" where ', ''),
    parameters: query.parameters,
  };
}

describe('filters on SQL Server', () => {
  it.each<[string, Filter, string, unknown[]]>([
    ['eq', { column: 'Id', op: 'eq', value: 5 }, '"Id" = @1', [5]],
    ['ne', { column: 'Name', op: 'ne', value: 'x' }, '"Name" <> @1', ['x']],
    ['lt', { column: 'Total', op: 'lt', value: '9.99' }, '"Total" < @1', ['9.99']],
    ['le', { column: 'Total', op: 'le', value: '9.99' }, '"Total" <= @1', ['9.99']],
    ['gt', { column: 'Id', op: 'gt', value: '7' }, '"Id" > @1', [7]],
    ['ge', { column: 'Id', op: 'ge', value: 7 }, '"Id" >= @1', [7]],
    ['between', { column: 'Id', op: 'between', values: [1, 9] }, '("Id" >= @1 and "Id" <= @2)', [1, 9]],
    ['in', { column: 'Id', op: 'in', values: [1, 2, 3] }, '"Id" in (@1, @2, @3)', [1, 2, 3]],
    [
      'startsWith',
      { column: 'Name', op: 'startsWith', value: '50%' },
      `"Name" like @1 escape '\\'`,
      ['50\\%%'],
    ],
    [
      'contains',
      { column: 'Name', op: 'contains', value: 'a_[b' },
      `"Name" like @1 escape '\\'`,
      ['%a\\_\\[b%'],
    ],
    ['endsWith', { column: 'Name', op: 'endsWith', value: 'x\\' }, `"Name" like @1 escape '\\'`, ['%x\\\\']],
    [
      'contains on varchar',
      { column: 'Code', op: 'contains', value: 'AB' },
      `"Code" like cast(@1 as varchar(8000)) escape '\\'`,
      ['%AB%'],
    ],
    ['isNull', { column: 'Name', op: 'isNull' }, '"Name" is null', []],
    ['isNotNull', { column: 'Name', op: 'isNotNull' }, '"Name" is not null', []],
    ['bit', { column: 'Paid', op: 'eq', value: true }, '"Paid" = @1', [true]],
    [
      'a hostile name from the catalog',
      { column: "we'ird]name", op: 'eq', value: 1 },
      `"we'ird]name" = @1`,
      [1],
    ],
  ])('%s', (_, filter, text, parameters) => {
    expect(compiled(filter)).toEqual({ sql: text, parameters });
  });

  it('reads a bare date as its whole day on a date-time column', () => {
    expect(compiled({ column: 'Placed', op: 'eq', value: '2024-02-29' })).toEqual({
      sql: '("Placed" >= @1 and "Placed" < @2)',
      parameters: ['2024-02-29T00:00:00', '2024-03-01T00:00:00'],
    });
    expect(compiled({ column: 'Placed', op: 'le', value: '2024-12-31' }).parameters).toEqual([
      '2025-01-01T00:00:00',
    ]);
    expect(compiled({ column: 'Placed', op: 'gt', value: '2024-12-31' }).sql).toBe('"Placed" >= @1');
    expect(compiled({ column: 'Placed', op: 'between', values: ['2024-01-01', '2024-01-31'] })).toEqual({
      sql: '("Placed" >= @1 and "Placed" < @2)',
      parameters: ['2024-01-01T00:00:00', '2024-02-01T00:00:00'],
    });
  });

  it('nests and, or and not; under not, a nullable column is asked for a value first', () => {
    expect(
      compiled({
        and: [
          { column: 'Id', op: 'gt', value: 1 },
          {
            or: [
              { column: 'Name', op: 'contains', value: 'a' },
              { not: { column: 'Total', op: 'lt', value: 5 } },
            ],
          },
          { not: { column: 'Id', op: 'eq', value: 3 } },
          { not: { column: 'Name', op: 'isNull' } },
        ],
      }),
    ).toEqual({
      sql:
        `("Id" > @1 and ("Name" like @2 escape '\\' or not (("Total" is not null and "Total" < @3))) ` +
        `and not ("Id" = @4) and not ("Name" is null))`,
      parameters: [1, '%a%', '5', 3],
    });
    expect(compiled({ and: [] }).sql).toBe('1 = 1');
    expect(filterPredicate(adapter, table, { and: [{ and: [] }] })).toBeNull();
    expect(compiled({ or: [{ and: [] }] }).sql).toBe('1 = 1');
  });

  it('writes a number past the type as true or false, never as a value the server must convert', () => {
    const huge = '99999999999999999999';
    expect(compiled({ column: 'Id', op: 'eq', value: huge })).toEqual({ sql: '1 = 0', parameters: [] });
    expect(compiled({ column: 'Id', op: 'lt', value: huge }).sql).toBe('"Id" is not null');
    expect(compiled({ column: 'Id', op: 'in', values: [huge, 2] })).toEqual({
      sql: '"Id" in (@1)',
      parameters: [2],
    });
  });

  it('refuses with the condition path and what to fix', () => {
    const refusal = (filter: unknown) => {
      try {
        filterPredicate(adapter, table, filter as Filter);
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        expect((error as EngineError).statusCode).toBe(400);
        return (error as EngineError).message;
      }
      throw new Error('not refused');
    };
    expect(refusal({ or: [{ column: 'Nope', op: 'eq', value: 1 }] })).toBe(
      'where.or[0] (Nope eq): Nope is not a column of this table.',
    );
    expect(refusal({ column: 'Total', op: 'contains', value: '1' })).toBe(
      'where (Total contains): contains works only on text columns; Total (decimal) takes eq, ne, lt, le, gt, ge, between, in, isNull, isNotNull.',
    );
    expect(refusal({ and: [{ not: { column: 'Total', op: 'between', values: ['1', 'x'] } }] })).toBe(
      'where.and[0].not (Total between): values[1] "x" is not a number.',
    );
    expect(refusal({ column: 'Placed', op: 'eq', value: 'yesterday' })).toMatch(
      /^where \(Placed eq\): "yesterday" is not a date \(YYYY-MM-DD/,
    );
    const many = { and: Array.from({ length: 7 }, (_, i) => ({ column: `C${i}`, op: 'isNull' })) };
    expect(refusal(many)).toMatch(/C4 is not a column of this table\. And 2 more problems\.$/);
  });
});
