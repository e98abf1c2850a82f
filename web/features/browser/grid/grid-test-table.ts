import type { Column, TableListItem } from '#common/contract/sql.ts';
import { testColumn as baseColumn } from '#web/features/browser/test-tables.ts';

/** A column for the grid's tests: a nullable, unindexed varchar(100) unless told otherwise. */
export const testColumn = (name: string, overrides: Partial<Column> = {}): Column =>
  baseColumn(1, name, { maxLength: 100, ...overrides });

/** A table for the grid's tests, with every right. */
export function testTable(columns: Column[]): TableListItem {
  return {
    id: 'demo/main/products',
    schema: 'main',
    name: 'products',
    isView: false,
    numberOfColumns: columns.length,
    numberOfRows: 0,
    numberOfRowsIsEstimate: false,
    hasIdentity: false,
    hasGuid: false,
    primaryKey: [],
    identityColumn: null,
    guidColumn: null,
    columns: columns.map((column, index) => ({ ...column, id: index + 1 })),
    indexes: [],
    foreignKeys: [],
    rights: { canInsert: true, canUpdate: true, canDelete: true },
  };
}
