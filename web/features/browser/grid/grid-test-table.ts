import type { Column, TableListItem } from '#common/contract/sql.ts';

/** A column for the grid's tests: a nullable, unindexed varchar(100) unless told otherwise. */
export function testColumn(name: string, overrides: Partial<Column> = {}): Column {
  return {
    id: 1,
    name,
    type: 'varchar',
    typeGroup: 'Text',
    maxLength: 100,
    precision: 0,
    scale: 0,
    isNullable: true,
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isGuid: false,
    isIdentity: false,
    isHidden: false,
    isComputed: false,
    isPrimaryKey: false,
    defaultValue: null,
    ...overrides,
  };
}

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
