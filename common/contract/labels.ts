import { z } from 'zod';

/*
 * The forward half of relations (issue 37, docs/decisions/0067-foreign-key-labels.md): with `?labels=1`, a page
 * answer carries, for each foreign key of the table whose referenced table the caller may read, the readable label of
 * every row its page points at. One query a foreign key a page on the server, never one a row. A foreign key into a
 * table the caller may not read has no entry, so the browser shows the raw key without a link.
 */

/** Labels longer than this are cut (with an ellipsis): a cell shows a line, not a document. */
export const LABEL_MAX_LENGTH = 200;

/** A key value as a page answers it (never null: a row whose key has an empty column points at nothing). */
const keyValue = z.union([z.string(), z.number(), z.boolean()]);

export const foreignKeyLabels = z.object({
  constraint: z.string().describe('The foreign key’s name'),
  columns: z.array(z.string()).describe('Its columns in this table, in the order of `key`'),
  schema: z.string().describe('The referenced table’s schema'),
  table: z.string().describe('The referenced table'),
  key: z.array(z.string()).describe('The referenced columns'),
  values: z
    .array(
      z.object({
        key: z.array(keyValue).describe('The referenced columns’ values, in the order of `key`'),
        label: z
          .string()
          .describe(
            `The referenced row’s label: an indexed text column, else its first text column, else its key; at most ` +
              `${LABEL_MAX_LENGTH} characters`,
          ),
      }),
    )
    .describe(
      'One entry a distinct key the page’s rows hold that names a row; a key naming no row is left out',
    ),
});
export type ForeignKeyLabels = z.infer<typeof foreignKeyLabels>;

/** The page calls' `labels` query parameter. */
export const labelsParam = z
  .stringbool({ error: 'labels must be 1 or 0 (true or false).' })
  .optional()
  .describe(
    '1: the answer also carries `labels`, the readable label of each row the page’s foreign keys point at, for ' +
      'each foreign key into a table the caller may read',
  );
