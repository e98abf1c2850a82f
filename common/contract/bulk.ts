import { z } from 'zod';
import { bodyOf, filterDocument } from './filter.ts';
import { cellValue, onDeleteRule, row } from './sql.ts';

/*
 * Bulk changes (issue 38, docs/decisions/0068-bulk-changes.md): set values on, or delete, the rows a filter document
 * keeps (or the rows of a hand-made selection, by key), previewed, run as one job in batches by key, audited as one
 * entry. The server derives the set of rows itself from the filter and the caller's rights.
 */

/** Counting stops here: a count of BULK_COUNT_CAP with `capped` reads "1,000,000+". */
export const BULK_COUNT_CAP = 1_000_000;
/** Rows a preview shows, each before and after. */
export const BULK_SAMPLE_SIZE = 20;
/** Keys a hand-made selection may name; a bigger set is chosen by its filter. */
export const BULK_KEYS_LIMIT = 1000;
/** A delete's preview counts the rows pointing at the selection up to this per foreign key: "1,000+" above. */
export const BULK_REFERENCES_COUNT_CAP = 1000;

export const bulkAction = z.enum(['update', 'delete']);
export type BulkAction = z.infer<typeof bulkAction>;

const bulkShape = {
  action: bulkAction.describe('update: set the values of `set` on every row of the set; delete: delete them'),
  where: filterDocument
    .optional()
    .describe(
      'The filter document whose rows are changed; without conditions (and without keys) allRows is needed',
    ),
  keys: z
    .array(row)
    .max(
      BULK_KEYS_LIMIT,
      `a hand-made selection names at most ${BULK_KEYS_LIMIT} rows; choose more by a filter.`,
    )
    .optional()
    .describe(
      `The keys of a hand-made selection (identity, guid or primary key), at most ${BULK_KEYS_LIMIT}; each must name ` +
        'a row the filter keeps',
    ),
  allRows: z
    .literal(true)
    .optional()
    .describe('Required to change every row of the table (no conditions, no keys)'),
  set: z
    .record(z.string(), cellValue)
    .optional()
    .describe(
      'For update: column → new value (null for NULL); key, identity, guid, computed and hidden columns cannot be set',
    ),
};

/** POST …/bulk/preview. */
export const bulkPreviewBody = bodyOf(bulkShape);
export type BulkPreviewBody = z.infer<typeof bulkPreviewBody>;

/** POST …/bulk: the preview's body and the count the person confirmed. */
export const bulkRunBody = bodyOf({
  ...bulkShape,
  expectedCount: z
    .number()
    .int()
    .min(0)
    .describe(
      'The count the preview answered; when the rows now number otherwise the answer is 409 and nothing changes',
    ),
});
export type BulkRunBody = z.infer<typeof bulkRunBody>;

export const bulkReference = z.object({
  schema: z.string(),
  table: z.string().describe('A table the caller may read whose foreign key points at this table'),
  columns: z.array(z.string()),
  onDelete: onDeleteRule,
  count: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe(
      `Rows of that table pointing at the rows to delete, up to ${BULK_REFERENCES_COUNT_CAP} (then capped); null ` +
        'when not counted (its columns lead no index, so counting would scan it)',
    ),
  capped: z.boolean().optional().describe(`True when there are more than ${BULK_REFERENCES_COUNT_CAP}`),
});
export type BulkReference = z.infer<typeof bulkReference>;

export const bulkPreview = z.object({
  count: z
    .number()
    .int()
    .describe(`Rows the change takes: exact up to ${BULK_COUNT_CAP}, else that with capped`),
  capped: z.boolean(),
  sample: z
    .array(z.object({ before: row, after: row.nullable() }))
    .describe(`The first ${BULK_SAMPLE_SIZE} rows by key, as they are and as they would be (null: deleted)`),
  references: z
    .array(bulkReference)
    .optional()
    .describe(
      'For a delete: the foreign keys of readable tables that point at this table, with their ON DELETE rule and ' +
        'how many of their rows point at the rows to delete',
    ),
});
export type BulkPreview = z.infer<typeof bulkPreview>;

/** The 409 of a run whose count no longer matches. */
export const bulkCountChanged = z.object({ count: z.number().int(), capped: z.boolean() });

export const bulkJobStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

export const bulkStarted = z.object({ id: z.string() });

export const bulkStatus = z.object({
  state: z.enum(bulkJobStates),
  inProgress: z.boolean(),
  percentageCompleted: z.number().int().min(0).max(100),
  done: z.number().int().describe('Rows changed so far'),
  total: z.number().int().describe('Rows the job was started for'),
  auditId: z.number().int().nullable().describe('The audit entry of the whole job, once it has one'),
  error: z.string().nullable().describe('Why the job stopped: which row and why, for a database error'),
});
export type BulkStatus = z.infer<typeof bulkStatus>;

export const bulkJobParams = z.object({
  db: z.string(),
  schema: z.string(),
  table: z.string(),
  id: z.string().uuid(),
});

export const bulkMessages = {
  allRowsRequired:
    'This change has no conditions and no selected rows, so it would take every row of the table: send allRows: true to mean that.',
  setRequired: 'Say what to set: set needs at least one column and its value.',
  setOnDelete: 'A delete sets nothing: leave set out.',
  countChanged: (count: number, capped: boolean) =>
    `The rows have changed since the preview: the change would now take ${capped ? `more than ${count.toLocaleString('en')}` : count.toLocaleString('en')} rows. Look at the preview again.`,
  keyMissing: (keys: string[]) =>
    `These rows of the selection do not exist or are outside the filter: ${keys.join('; ')}. Choose the rows again.`,
  jobNotFound: 'This bulk change was not found.',
  undoChangedSince: (keys: string[]) =>
    `These rows have changed since the bulk change, so undoing it would overwrite newer values: ${keys.join('; ')}. Change them back first, or change the rows in the table instead.`,
  undoRunning: 'This bulk change is still running: wait for it to end or cancel it, then undo it.',
  undoStarted:
    'The undo of the bulk change has started. It runs in the background; its line in the audit trail says when it has ended.',
  undoBinary: (columns: string[]) =>
    `${columns.join(', ')} ${columns.length === 1 ? 'holds' : 'hold'} binary data, which the audit keeps only as its length and SHA-256, so the rows cannot be put back exactly.`,
  restarted:
    'The server restarted while the change was running; the rows changed before are kept and audited.',
  cancelled: 'The change was cancelled; the rows changed before are kept and audited.',
  /** The job checks its owner's right before each batch: `right` as "change rows of", "delete rows of". */
  rightLost: (right: string) =>
    `Your right to ${right} this table was taken away while the change ran; the rows changed before are kept and audited.`,
  accountLost:
    'Your account was locked or removed while the change ran; the rows changed before are kept and audited.',
};
