import type { Column, Row, TableListItem, TableRights } from '#common/contract/sql.ts';
import { testColumn } from '#web/features/browser/test-tables.ts';

/* A table for the editor's tests, like the demo database's customers: every field kind and read-only case. */

export const column = (id: number, name: string, extra: Partial<Column> = {}): Column =>
  testColumn(id, name, { type: 'nvarchar', maxLength: 50, ...extra });

export const customerColumns: Column[] = [
  column(1, 'customer_id', {
    type: 'integer',
    typeGroup: 'Number',
    maxLength: 0,
    isNullable: false,
    isIdentity: true,
    isPrimaryKey: true,
  }),
  column(2, 'customer_guid', {
    type: 'uniqueidentifier',
    typeGroup: 'guid',
    maxLength: 0,
    isNullable: false,
    isGuid: true,
  }),
  column(3, 'first_name', { isNullable: false }),
  column(4, 'email', { type: 'varchar', maxLength: 254, isNullable: false }),
  column(5, 'country_code', { type: 'char', maxLength: 2, isNullable: false, isForeignKey: true }),
  column(6, 'birth_date', { type: 'date', typeGroup: 'Date', maxLength: 0 }),
  column(7, 'loyalty_points', {
    type: 'int',
    typeGroup: 'Number',
    maxLength: 0,
    isNullable: false,
    defaultValue: '0',
    defaultConstant: 0,
  }),
  column(8, 'credit_limit', { type: 'money', typeGroup: 'Number', maxLength: 0, precision: 19, scale: 2 }),
  column(9, 'is_active', {
    type: 'bit',
    typeGroup: 'bit',
    maxLength: 0,
    isNullable: false,
    defaultValue: '1',
    defaultConstant: true,
  }),
  column(10, 'preferred_contact_time', { type: 'time', typeGroup: 'Time', maxLength: 0 }),
  column(11, 'notes', { type: 'ntext', maxLength: -1 }),
  column(12, 'created_at', {
    type: 'datetime2',
    typeGroup: 'Date',
    maxLength: 0,
    isNullable: false,
    scale: 7,
  }),
  column(13, 'last_login_at', { type: 'datetimeoffset', typeGroup: 'Date', maxLength: 0, scale: 7 }),
  column(14, 'photo', { type: 'image', typeGroup: 'image', maxLength: -1 }),
  column(15, 'full_name', { maxLength: 101, isComputed: true }),
];

export const allRights: TableRights = { canInsert: true, canUpdate: true, canDelete: true };

export function customersTable(rights: Partial<TableRights> = {}, columns = customerColumns): TableListItem {
  return {
    id: 'demo/main/customers',
    schema: 'main',
    name: 'customers',
    isView: false,
    numberOfColumns: columns.length,
    numberOfRows: 1,
    numberOfRowsIsEstimate: false,
    hasIdentity: columns.some((c) => c.isIdentity),
    hasGuid: columns.some((c) => c.isGuid),
    primaryKey: columns.filter((c) => c.isPrimaryKey).map((c) => c.name),
    identityColumn: columns.find((c) => c.isIdentity)?.name ?? null,
    guidColumn: columns.find((c) => c.isGuid)?.name ?? null,
    columns,
    indexes: [],
    foreignKeys: [
      {
        name: 'fk_customers_country',
        columns: ['country_code'],
        referencedSchema: 'main',
        referencedTable: 'countries',
        referencedColumns: ['country_code'],
        onDelete: 'no action',
      },
    ],
    rights: { ...allRights, ...rights },
  };
}

/** A link table without identity or guid (rows can be added and deleted, not changed). */
export function productTagsTable(): TableListItem {
  const columns = [
    column(1, 'product_id', {
      type: 'int',
      typeGroup: 'Number',
      maxLength: 0,
      isNullable: false,
      isPrimaryKey: true,
      isForeignKey: true,
    }),
    column(2, 'tag_id', {
      type: 'int',
      typeGroup: 'Number',
      maxLength: 0,
      isNullable: false,
      isPrimaryKey: true,
      isForeignKey: true,
    }),
    column(3, 'added_on', { type: 'date', typeGroup: 'Date', maxLength: 0, isNullable: false }),
  ];
  return {
    ...customersTable({}, columns),
    id: 'demo/main/product_tags',
    name: 'product_tags',
    foreignKeys: [],
  };
}

export const ada: Row = {
  customer_id: 7,
  customer_guid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  first_name: 'Ada',
  email: 'ada@example.com',
  country_code: 'GB',
  birth_date: '1815-12-10',
  loyalty_points: 120,
  credit_limit: '1500.50',
  is_active: true,
  preferred_contact_time: '09:30:00',
  notes: null,
  created_at: '2024-03-05T14:03:00.1234567',
  last_login_at: '2024-03-05T14:03:00.000+02:00',
  photo: null,
  full_name: 'Ada Lovelace',
};
