import type { Column, TableListItem } from '#common/contract/sql.ts';

/* Tables for the browser's component tests: Chinook-like, with the catalog fields the API answers. */

export function testColumn(id: number, name: string, extra: Partial<Column> = {}): Column {
  return {
    id,
    name,
    type: 'varchar',
    typeGroup: 'Text',
    maxLength: 40,
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
    defaultConstant: null,
    defaultIsExpression: false,
    ...extra,
  };
}

export function testTable(
  schema: string,
  name: string,
  columns: Column[],
  extra: Partial<TableListItem> = {},
): TableListItem {
  return {
    id: `chinook/${schema}/${name}`,
    schema,
    name,
    isView: false,
    numberOfColumns: columns.length,
    numberOfRows: 0,
    numberOfRowsIsEstimate: false,
    hasIdentity: columns.some((c) => c.isIdentity),
    hasGuid: false,
    primaryKey: columns.filter((c) => c.isPrimaryKey).map((c) => c.name),
    identityColumn: columns.find((c) => c.isIdentity)?.name ?? null,
    guidColumn: null,
    columns,
    indexes: [],
    foreignKeys: [],
    rights: { canInsert: true, canUpdate: true, canDelete: true },
    ...extra,
  };
}

export const customerTable = testTable('main', 'Customer', [
  testColumn(1, 'CustomerId', {
    type: 'integer',
    typeGroup: 'Number',
    maxLength: 0,
    isNullable: false,
    isIndexed: true,
    isIdentity: true,
    isPrimaryKey: true,
  }),
  testColumn(2, 'LastName', { isIndexed: true, isNullable: false }),
  testColumn(3, 'FirstName', { isNullable: false }),
  testColumn(4, 'Email', { maxLength: 60 }),
  testColumn(5, 'SupportRepId', { type: 'integer', typeGroup: 'Number', maxLength: 0, isIndexed: true }),
  testColumn(6, 'Since', { type: 'datetime', typeGroup: 'Date', maxLength: 0, isIndexed: true }),
  testColumn(7, 'Active', { type: 'boolean', typeGroup: 'bit', maxLength: 0, isIndexed: true }),
  testColumn(8, 'Photo', { type: 'blob', typeGroup: 'image', maxLength: -1, isIndexed: true }),
  testColumn(9, 'Key', { type: 'uuid', typeGroup: 'guid', maxLength: 0, isIndexed: true, isGuid: true }),
]);

export const albumTable = testTable('main', 'Album', [
  testColumn(1, 'AlbumId', {
    type: 'integer',
    typeGroup: 'Number',
    maxLength: 0,
    isNullable: false,
    isIndexed: true,
    isIdentity: true,
    isPrimaryKey: true,
  }),
  testColumn(2, 'Title', { maxLength: 160, isNullable: false }),
]);

export const notesTable = testTable('main', 'Notes', [testColumn(1, 'Body', { maxLength: -1 })], {
  rights: { canInsert: false, canUpdate: false, canDelete: false },
});
