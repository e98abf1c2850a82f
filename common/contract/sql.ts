import { z } from 'zod';
import { PAGE_SIZES } from '#common/limits.ts';

/*
 * The database browser's entities (spec 000 §3), as the data API answers them. Names follow the spec; fields it
 * does not name are additions a careful client can use and an old client ignores.
 */

/** The spec's column type groups; every native type of every engine maps to one of them. */
export const typeGroups = [
  'Text',
  'Binary',
  'Number',
  'Date',
  'Time',
  'bit',
  'image',
  'guid',
  'Other',
] as const;
export const typeGroup = z.enum(typeGroups);
export type TypeGroup = z.infer<typeof typeGroup>;

export const column = z.object({
  id: z.number().int().describe('Ordinal position, from 1'),
  name: z.string(),
  type: z.string().describe("The engine's native type name, lower case (e.g. varchar, int8, datetimeoffset)"),
  typeGroup: typeGroup,
  maxLength: z
    .number()
    .int()
    .describe('Characters (text) or bytes (binary); -1 means unlimited, 0 not applicable'),
  precision: z.number().int(),
  scale: z.number().int(),
  isNullable: z.boolean(),
  isIndexed: z.boolean().describe('The column leads an index, so search on it is fast'),
  isForeignKey: z.boolean().describe('The column references another table'),
  isForeignKeySource: z.boolean().describe('Another table references this column'),
  isGuid: z.boolean(),
  isIdentity: z
    .boolean()
    .describe('Numbered by the database (identity, serial, AUTO_INCREMENT, INTEGER PRIMARY KEY)'),
  isHidden: z.boolean(),
  isComputed: z.boolean(),
  isPrimaryKey: z.boolean(),
  defaultValue: z.string().nullable().describe('The default expression as the engine reports it'),
});
export type Column = z.infer<typeof column>;

export const index = z.object({
  name: z.string(),
  type: z.string().describe('e.g. btree, hash, CLUSTERED, NONCLUSTERED'),
  isUnique: z.boolean(),
  isPrimaryKey: z.boolean(),
  columns: z.array(z.string()),
  allocationType: z
    .string()
    .nullable()
    .describe('Where the engine stores it (e.g. IN_ROW_DATA, heap, InnoDB); null when not told'),
  pageCount: z
    .number()
    .nullable()
    .describe("From the engine's own statistics; null when the engine cannot tell"),
  averageFragmentation: z.number().nullable().describe('Percent, 0 to 100; null when the engine cannot tell'),
  statisticsSource: z.string().nullable().describe('Which statistic the figures come from'),
});
export type Index = z.infer<typeof index>;

export const foreignKey = z.object({
  name: z.string(),
  columns: z.array(z.string()),
  referencedSchema: z.string(),
  referencedTable: z.string(),
  referencedColumns: z.array(z.string()),
});
export type ForeignKey = z.infer<typeof foreignKey>;

export const table = z.object({
  id: z.string().describe('Stable while the table exists: "{db}/{schema}/{table}"'),
  schema: z.string(),
  name: z.string(),
  isView: z.boolean(),
  numberOfColumns: z.number().int(),
  numberOfRows: z.number(),
  numberOfRowsIsEstimate: z
    .boolean()
    .describe("True when numberOfRows is the engine's estimate, not a count"),
  hasIdentity: z.boolean(),
  hasGuid: z.boolean(),
  primaryKey: z.array(z.string()),
  identityColumn: z.string().nullable(),
  guidColumn: z.string().nullable(),
  columns: z.array(column),
  indexes: z.array(index),
  foreignKeys: z.array(foreignKey),
});
export type Table = z.infer<typeof table>;

export const database = z.object({ name: z.string(), engine: z.string(), tables: z.array(table).optional() });
export type Database = z.infer<typeof database>;

/** A value on the wire: big integers, decimals and money as strings when a JavaScript number would round them,
 * dates as ISO text with their offset, binary and images as base64. */
export const cellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof cellValue>;
export const row = z.record(z.string(), cellValue);
export type Row = z.infer<typeof row>;

/** A filter: column name → search term (terms are trimmed; an empty term is no filter). */
export const filter = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type Filter = z.infer<typeof filter>;

export const pageSize = z.coerce
  .number()
  .refine(
    (n) => (PAGE_SIZES as readonly number[]).includes(n),
    `pageSize must be one of ${PAGE_SIZES.join(', ')}.`,
  );

export const pageResult = z.object({
  results: z.array(row),
  count: z.number().describe('Matching rows (see countIsExact)'),
  countIsExact: z.boolean().describe("False when count is the engine's estimate or a capped count"),
});
export type PageResult = z.infer<typeof pageResult>;
