import { z } from 'zod';
import { onDeleteRule } from './sql.ts';

/*
 * "Referenced by" (issue 37, docs/decisions/0065-references.md): POST /api/sql/{db}/{schema}/{table}/references with
 * the row's key (the row body's encoding) answers, for each foreign key of a table the caller may read that points at
 * this table, the referencing table and columns, the ON DELETE rule, and how many rows point at the row.
 */

/** Counting stops here: a count of REFERENCES_COUNT_CAP with `capped` reads "1,000+". */
export const REFERENCES_COUNT_CAP = 1000;

export const reference = z.object({
  schema: z.string().describe('The referencing table’s schema'),
  table: z.string().describe('The referencing table'),
  columns: z
    .array(z.string())
    .describe('Its foreign-key columns, in the order of the referenced columns they match'),
  referencedColumns: z.array(z.string()).describe('The columns of this table they point at'),
  constraint: z.string().describe('The foreign key’s name'),
  onDelete: onDeleteRule,
  count: z
    .number()
    .int()
    .nullable()
    .describe(
      `Rows pointing at this row: exact when the referencing columns lead an index, at most ${REFERENCES_COUNT_CAP} ` +
        '(then capped); null ("not counted") when they are not indexed',
    ),
  capped: z.boolean().describe(`True when there are more than ${REFERENCES_COUNT_CAP} ("1,000+")`),
});
export type Reference = z.infer<typeof reference>;

export const references = z.array(reference);

export const referencesMessages = {
  keyRequired: (table: string, key: string[]) =>
    `To list what references a row of ${table}, give its key: ${key.join(', ') || 'it has none'}.`,
};
