import { z } from 'zod';
import { PAGE_SIZES } from '#common/limits.ts';
import { foreignKeyLabels, labelsParam } from './labels.ts';

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

/** A value on the wire: big integers, decimals and money as strings when a JavaScript number would round them,
 * dates as ISO text with their offset, binary and images as base64. */
export const cellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof cellValue>;

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
  defaultConstant: cellValue.describe(
    'The default as a value of the column (as a read of it answers) when it is a constant: what a new row ' +
      'starts with. Null when there is no default, it is NULL, or the database works it out (defaultIsExpression)',
  ),
  defaultIsExpression: z
    .boolean()
    .describe(
      'True when the database works the default out as it inserts (now(), a sequence, uuid()), or DBUI cannot ' +
        'show it as a value: a new row leaves the column empty and the database fills it in',
    ),
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

/** What the database does to referencing rows when the referenced row is deleted (the foreign key's ON DELETE). */
export const onDeleteRule = z
  .enum(['restrict', 'cascade', 'set null', 'set default', 'no action'])
  .describe("The foreign key's ON DELETE rule, from the catalog");
export type OnDeleteRule = z.infer<typeof onDeleteRule>;

/** An engine's spelling of an ON DELETE rule (CASCADE, SET_NULL, NO ACTION, pg's 'c', …) as the contract's; anything
 * unknown reads as 'no action', every engine's default. */
export function onDeleteRuleOf(raw: unknown): OnDeleteRule {
  const pg: Record<string, OnDeleteRule> = {
    a: 'no action',
    r: 'restrict',
    c: 'cascade',
    n: 'set null',
    d: 'set default',
  };
  const text = String(raw ?? '').trim();
  if (pg[text]) return pg[text];
  const words = text.toLowerCase().replace(/_/g, ' ');
  return (onDeleteRule.options as readonly string[]).includes(words) ? (words as OnDeleteRule) : 'no action';
}

export const foreignKey = z.object({
  name: z.string(),
  columns: z.array(z.string()),
  referencedSchema: z.string(),
  referencedTable: z.string(),
  referencedColumns: z.array(z.string()),
  onDelete: onDeleteRule,
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

export const row = z.record(z.string(), cellValue);
export type Row = z.infer<typeof row>;

/**
 * The row's version (docs/decisions/0045-row-versions.md): every row the data API answers (a page, a search, all
 * rows, the saved row, an undone row) carries, under this key beside its columns, a short digest of its values as
 * read. A save or delete that sends it back (the row as it was answered, some fields changed, is enough) is made only
 * while the row is still as it was read; otherwise nothing is written and the answer is 409 with the row as it is now
 * (rowConflict). Without it a save behaves as before (last write wins). A table with a column of this very name has
 * no versions: the key is that column.
 */
export const ROW_VERSION_KEY = '$version';

/**
 * The row's cut values (docs/decisions/0066-cut-values.md): a page asked with `?cutText=N` answers text and JSON
 * values longer than N characters cut to N, and binary values whose base64 is longer than N characters cut too
 * (images only beyond CUT_IMAGE_MAX_BASE64); a row where something was cut carries, under this key beside its
 * columns and its version, `{ column: whole length }` (characters, as JavaScript counts them, for text and JSON;
 * bytes for binary and images). The row's version is the whole row's. A save that sends this key back is refused
 * (400): its values may be cut, so it must be read whole first. A table with a column of this very name is never cut.
 */
export const ROW_CUT_KEY = '$cut';
/** The bounds of `?cutText=`: characters of a text or JSON value, base64 characters of a binary one. */
export const CUT_TEXT_MIN = 100;
export const CUT_TEXT_MAX = 100_000;
/** Images stay whole up to this many base64 characters (64 KiB, so thumbnails show), and are cut beyond it. */
export const CUT_IMAGE_MAX_BASE64 = 64 * 1024;
/** `{ column: whole length }` of the values cut in a row (ROW_CUT_KEY). */
export const cutLengths = z.record(z.string(), z.number().int());
export type CutLengths = z.infer<typeof cutLengths>;

/** The whole lengths of a row's cut values (under ROW_CUT_KEY), or undefined when nothing in it was cut. */
export function cutLengthsOf(answered: Row): CutLengths | undefined {
  const marks: unknown = answered[ROW_CUT_KEY];
  return typeof marks === 'object' && marks !== null ? (marks as CutLengths) : undefined;
}

/**
 * A row as the data API answers it: its columns' values, its version, and what was cut (only with ?cutText=). It is
 * typed as a Row: the one value that is not a cell value is the object under ROW_CUT_KEY, read through cutLengthsOf.
 */
export const answeredRow = (
  z.record(z.string(), z.union([cellValue, cutLengths])) as unknown as typeof row
).describe(
  `Column name → value, and the row's version under ${ROW_VERSION_KEY}: send the row back with it when saving or ` +
    'deleting, and the write is made only while the row is still as it was read (409 otherwise); on a page asked ' +
    `with cutText, ${ROW_CUT_KEY}: { column: whole length } when a value of the row was cut (never send it back)`,
);

/** The 409 of a save or delete whose row changed since it was read: the row as it is now, with its own version. */
export const rowConflict = z.object({
  current: answeredRow.describe(`The row as the database holds it now, with its own ${ROW_VERSION_KEY}`),
});
export type RowConflict = z.infer<typeof rowConflict>;

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
  results: z.array(answeredRow),
  count: z.number().describe('Matching rows (see countIsExact)'),
  countIsExact: z.boolean().describe("False when count is the engine's estimate or a capped count"),
  cursor: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Page calls only: an opaque token for this page; send it back as ?cursor= when asking for the next or previous ' +
        'page, which is then read by seeking from this page (null when the order cannot seek)',
    ),
  labels: z
    .array(foreignKeyLabels)
    .optional()
    .describe(
      'With ?labels=1 only: the labels of the rows this page’s foreign keys point at (decision 0067)',
    ),
});
export type PageResult = z.infer<typeof pageResult>;

/*
 * The data API's requests and answers (spec 000 §7 "Database data"). Every answer is wrapped in the envelope
 * (contract/envelope.ts). Filter and row bodies arrive encoded (see `encodedBody`), so the server decodes them
 * before these shapes apply.
 */

/** GET api/sql/{db}/{schema}/{table} answers every row only up to this many; bigger tables are read by page. */
export const ALL_ROWS_LIMIT = 1000;
/** POST …/search answers the first this many matching rows. */
export const SEARCH_RESULTS_LIMIT = 100;

/** What the caller's roles allow on a table (administrators: everything; views: no writes). */
export const tableRights = z.object({
  canInsert: z.boolean(),
  canUpdate: z.boolean(),
  canDelete: z.boolean(),
});
export type TableRights = z.infer<typeof tableRights>;

/** GET api/sql: a database the caller's links show. */
export const databaseSummary = z.object({
  name: z.string(),
  engine: z.string().describe('sqlite, postgres, mysql or mssql'),
});
export type DatabaseSummary = z.infer<typeof databaseSummary>;

/** GET api/sql/{db}: a table the caller's links allow, with the caller's rights on it so the web app can hide
 * what the server would refuse. */
export const tableListItem = table.extend({ rights: tableRights });
export type TableListItem = z.infer<typeof tableListItem>;

export const databaseParams = z.object({ db: z.string().min(1) });
export const tableParams = z.object({
  db: z.string().min(1),
  schema: z.string().min(1),
  table: z.string().min(1),
});
export type TableParams = z.infer<typeof tableParams>;
export const tablePageParams = tableParams.extend({
  page: z.coerce
    .number({ error: 'page must be a whole number from 1.' })
    .int('page must be a whole number from 1.')
    .min(1, 'page must be a whole number from 1.'),
});

export const tableListQuery = z.object({
  refresh: z
    .stringbool({ error: 'refresh must be true or false.' })
    .optional()
    .describe("true reads the engine's catalog again"),
});

/** The sort string: a column name, prefixed with - for descending. */
export const orderBy = z
  .string()
  .max(300)
  .optional()
  .describe('A column name, prefixed with - for descending (e.g. Name or -Name)');

/** `?pageSize=&orderBy=` of the page calls; pageSize 20 unless given. */
/** The longest page cursor accepted (a page whose sort values would make a longer one gets none). */
export const PAGE_CURSOR_MAX_LENGTH = 4000;

const cutTextProblem = `cutText must be a whole number from ${CUT_TEXT_MIN} to ${CUT_TEXT_MAX}, or left out.`;
/** `?cutText=N` of the page calls (decision 0066): opt-in; without it every value comes whole, as the spec says. */
export const cutTextParam = z.coerce
  .number({ error: cutTextProblem })
  .int(cutTextProblem)
  .min(CUT_TEXT_MIN, cutTextProblem)
  .max(CUT_TEXT_MAX, cutTextProblem)
  .optional()
  .describe(
    `Opt-in (${CUT_TEXT_MIN} to ${CUT_TEXT_MAX}): text and JSON values longer than this many characters come cut ` +
      'to it, binary values whose base64 is longer than this many characters too (images only beyond ' +
      `${CUT_IMAGE_MAX_BASE64} base64 characters), never the row's key columns nor the sort's; a row where ` +
      `something was cut carries ${ROW_CUT_KEY}: { column: whole length } (characters; bytes for binary). The ` +
      `row's ${ROW_VERSION_KEY} is the whole row's. Read a row whole (without cutText) before saving it`,
  );

export const pageQuery = z.object({
  pageSize: pageSize.default(PAGE_SIZES[0]),
  orderBy,
  labels: labelsParam,
  cursor: z
    .string()
    .max(PAGE_CURSOR_MAX_LENGTH, 'The page cursor is not valid for this table and order; reload the page.')
    .optional()
    .describe(
      'The cursor of the page shown (from its answer), when asking for the page after or before it: that page is ' +
        'then read by seeking from it, whatever the table size. A cursor of another page is ignored (the page is ' +
        'read by number); one not signed by this server, or of another table, sort, filter or page size, is a 400',
    ),
  cutText: cutTextParam,
});
export const searchQuery = z.object({ orderBy });

/**
 * How a filter or row body travels (spec 000 §7): JSON, then encodeURIComponent, then base64, sent as the body with
 * Content-Type text/plain. The server also accepts that string as a JSON string, or the plain JSON object, with
 * Content-Type application/json.
 */
export const ENCODED_BODY =
  'base64(encodeURIComponent(JSON.stringify(value))) as text/plain or as a JSON string, or the JSON object itself';

export { encodeBody } from './body-encoding.ts';

const bodyValue = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: 'must be text, a number, true or false, or null.',
});
/** A decoded filter body: column name → search term. */
export const filterBody = z.record(z.string(), bodyValue).describe(ENCODED_BODY);
/** A decoded row body: column name → value (see cellValue), and the row's version when it was read (ROW_VERSION_KEY). */
export const rowBody = z
  .record(z.string(), bodyValue)
  .describe(
    `${ENCODED_BODY}. Column name → value; ${ROW_VERSION_KEY}: the row's version as it was answered (optional)`,
  );

/** One choice of a foreign-key dropdown. */
export const foreignKeyOption = z.object({
  key: cellValue,
  label: z.string(),
  isMatch: z
    .boolean()
    .describe(
      'True when the option matches the term (its key is the term, or its label starts with it); matches come ' +
        'first, then every other option. False for all without a term',
    ),
});

/** The choices of one single-column foreign key, 25 a page: the term's matches first, then the other options. */
export const foreignKeyChoices = z.object({
  column: z.string(),
  referencedSchema: z.string(),
  referencedTable: z.string(),
  referencedColumn: z.string(),
  canReadReferencedTable: z
    .boolean()
    .describe('False when the links do not allow the referenced table: then no options are shown'),
  options: z.array(foreignKeyOption),
  hasMore: z.boolean().describe('True when another page of 25 follows'),
  page: z.number().int(),
});
export type ForeignKeyChoices = z.infer<typeof foreignKeyChoices>;

/** `?column=&term=&page=`: one column's page of choices (without column: the first page of every foreign key). */
export const foreignKeysQuery = z.object({
  column: z.string().min(1).optional(),
  term: z.string().max(500).optional(),
  page: z.coerce
    .number({ error: 'page must be a whole number from 1.' })
    .int('page must be a whole number from 1.')
    .min(1, 'page must be a whole number from 1.')
    .default(1),
});
export type ForeignKeysQuery = z.infer<typeof foreignKeysQuery>;

/*
 * A row's history (docs/decisions/0026-row-history-and-last-page.md): the audit trail's entries of one row of one
 * table, for anyone who may read the table, and the undo of one of them for anyone who holds the right it needs.
 */

/** POST …/history answers at most this many entries, newest first. */
export const ROW_HISTORY_LIMIT = 50;

export const dataChange = z.enum(['insert', 'update', 'delete']);
export type DataChangeKind = z.infer<typeof dataChange>;

/** One change of a row, as its audit entry records it. */
export const rowHistoryEntry = z.object({
  id: z.number().int().describe('The audit entry'),
  at: z.string().describe('When, ISO-8601 UTC'),
  username: z.string().nullable().describe('Who; null when the account no longer exists'),
  action: z
    .string()
    .describe('data.insert, data.update, data.delete, or data.undo (an undo of an earlier change)'),
  change: dataChange.describe('What happened to the row (for data.undo: what the undo did)'),
  before: row
    .nullable()
    .describe('The row before (null for an insert); binary values as "binary, N bytes, sha256 …"'),
  after: row.nullable().describe('The row after (null for a delete)'),
  changedColumns: z
    .array(z.string())
    .describe('The columns whose values differ between before and after (insert, delete: every column)'),
  undoneBy: z.number().int().nullable().describe('The data.undo entry that undid this change, if any'),
  state: z
    .enum(['done', 'pending', 'uncertain'])
    .describe('As the audit trail’s state (only done can be undone)'),
  canUndo: z
    .boolean()
    .describe('Whether …/history/{id}/undo would be allowed now, as far as the row as it is now tells'),
});
export type RowHistoryEntry = z.infer<typeof rowHistoryEntry>;
export const rowHistory = z.array(rowHistoryEntry);

export const historyEntryParams = tableParams.extend({
  id: z.coerce.number().int().min(1, 'id must be an audit entry Id.'),
});

/** What an undo did: the change it made (an update back, a delete of an inserted row, an insert of a deleted
 * one), the row's key (new when a restored row got a new identity) and the row as it is now (null when deleted). */
export const undoResult = z.object({
  undoEntryId: z.number().int().describe('The data.undo audit entry recording this undo'),
  change: dataChange,
  key: row,
  row: answeredRow.nullable(),
  keptKey: z.boolean().describe('false when a restored row got a new identity'),
  jobId: z
    .string()
    .optional()
    .describe('The undo of a bulk change (data.bulk) runs as a job: its id, for GET …/bulk/{jobId}'),
});
export type UndoResult = z.infer<typeof undoResult>;
