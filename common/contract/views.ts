import { z } from 'zod';
import { COLUMN_WIDTH_MAX, COLUMN_WIDTH_MIN, PAGE_SIZES } from '#common/limits.ts';
import { bodyOf, filterDocument } from './filter.ts';

/*
 * Saved views (issue 36, docs/decisions/0062-views.md): per table, a name, the columns shown (order, widths, the pinned
 * key), the sort, a filter document and the page size, private or shared. A view holds no rights: the server answers
 * it as the viewer may see it on every load (columns the viewer may not read left out, columns gone from the table
 * named in `dropped`, a filter that no longer fits dropped with the sentence saying why).
 */

/** A view's name: required, at most this many characters, unique per table and owner. */
export const VIEW_NAME_MAX_LENGTH = 80;
/** Columns a view lists (a table of more shows the rest hidden). */
export const VIEW_MAX_COLUMNS = 500;
/** Roles a view may be shared with. */
export const VIEW_MAX_ROLES = 100;
/** Views one person may keep per table. */
export const VIEWS_PER_TABLE_MAX = 100;

export const viewMessages = {
  nameRequired: 'Give the view a name.',
  nameTooLong: `A view's name has at most ${VIEW_NAME_MAX_LENGTH} characters.`,
  nameTaken: 'You already have a view of this table with that name: choose another name.',
  notFound: 'There is no such view of this table, or it is not yours to change.',
  notYours: 'Only the view’s author or an administrator can change or delete it.',
  notMemberOfRole: (roleId: number) =>
    `You can share a view only with roles you belong to; you are not in the role with Id ${roleId}.`,
  unknownRole: (roleId: number) => `There is no role with Id ${roleId}.`,
  unknownColumn: (name: string) => `The table has no column ${name}.`,
  unsortableColumn: (name: string) => `The column ${name} holds binary data and cannot be sorted.`,
  duplicateColumn: (name: string) => `The column ${name} is listed twice.`,
  tooManyViews: `You can keep at most ${VIEWS_PER_TABLE_MAX} views of one table.`,
  columnsDropped: (names: readonly string[]) =>
    `The table no longer has ${names.length === 1 ? 'the column' : 'the columns'} ${names.join(', ')}: ` +
    `left out of the view.`,
  whereDropped:
    'The view’s filter names a column this table no longer has (or you may not read): it was left out.',
  sortDropped: 'The view’s sort column is gone: the rows are in the table’s order.',
} as const;

/** One shown column of a view, in the order shown. */
export const viewColumn = z.strictObject({
  name: z.string().min(1).max(300),
  width: z
    .number()
    .int()
    .min(COLUMN_WIDTH_MIN, `A column's width is at least ${COLUMN_WIDTH_MIN} pixels.`)
    .max(COLUMN_WIDTH_MAX, `A column's width is at most ${COLUMN_WIDTH_MAX} pixels.`)
    .optional()
    .describe('CSS pixels; absent: the grid sizes the column'),
  pinned: z.boolean().optional().describe('Stays visible at the left while the grid scrolls sideways'),
});
export type ViewColumn = z.infer<typeof viewColumn>;

/** Who may open a view: its author only, everyone who may read the table, or the members of some roles. */
export const viewSharing = z.union(
  [
    z.literal('private'),
    z.literal('everyone'),
    z.strictObject({
      roleIds: z
        .array(z.number().int().positive())
        .min(1, 'Name at least one role to share with.')
        .max(VIEW_MAX_ROLES, `A view is shared with at most ${VIEW_MAX_ROLES} roles.`),
    }),
  ],
  { error: 'shared is "private", "everyone" or { "roleIds": [1, 2] }.' },
);
export type ViewSharing = z.infer<typeof viewSharing>;

const viewPageSize = z
  .number()
  .refine(
    (n) => (PAGE_SIZES as readonly number[]).includes(n),
    `pageSize must be one of ${PAGE_SIZES.join(', ')}.`,
  );

/** A view's name (the save form checks it with this too). */
export const viewName = z
  .string()
  .trim()
  .min(1, viewMessages.nameRequired)
  .max(VIEW_NAME_MAX_LENGTH, viewMessages.nameTooLong);

/** The save form's fields: the name and who may open the view. */
export const viewSaveForm = z.object({ name: viewName });

/** POST …/views: create (Id 0) or change (the view's Id; its author or an administrator) a view. */
export const viewBody = bodyOf({
  Id: z.number().int().min(0).describe('0 for a new view'),
  name: viewName,
  columns: z
    .array(viewColumn)
    .max(VIEW_MAX_COLUMNS, `A view lists at most ${VIEW_MAX_COLUMNS} columns.`)
    .describe('The shown columns in order; an empty list: the table’s default columns'),
  orderBy: z
    .string()
    .max(300)
    .nullable()
    .default(null)
    .describe('A column name, prefixed with - for descending; null: the table’s order'),
  where: filterDocument.nullable().default(null).describe('A filter document (see Filter); null: every row'),
  pageSize: viewPageSize.default(PAGE_SIZES[0]),
  shared: viewSharing.default('private'),
});
export type ViewBody = z.infer<typeof viewBody>;
export type ViewInput = z.input<typeof viewBody>;

/** POST …/views/delete. */
export const viewDeleteBody = bodyOf({ Id: z.number().int().positive() });

/** A view as the viewer may see it. */
export const savedView = z.object({
  Id: z.number().int().positive(),
  name: z.string(),
  columns: z.array(viewColumn).describe('Only columns the viewer may read and the table still has'),
  orderBy: z.string().nullable(),
  where: filterDocument.nullable(),
  pageSize: z.number().int(),
  shared: viewSharing,
  author: z.string().describe('The author’s user name'),
  mine: z
    .boolean()
    .describe('True when the viewer may change or delete it (its author, or an administrator)'),
  updatedAt: z.string().describe('ISO 8601'),
  dropped: z
    .array(z.string())
    .describe('Columns the view lists that the table no longer has (a schema change)'),
  problems: z.array(z.string()).describe('What was left out of the view as saved, in sentences'),
});
export type SavedView = z.infer<typeof savedView>;
export const viewList = z.array(savedView);
