import { z } from 'zod';

/*
 * Imports into an existing table (issue 39, docs/decisions/0069-imports.md): a file uploaded as multipart and kept in
 * the data folder, previewed (its first rows, its columns, a proposed mapping onto the table's columns and what
 * already blocks), then checked over the whole file by a dry run that writes nothing and names every failing row, and
 * run with the same body (docs/decisions/0070-import-run.md): all-or-nothing or skipping bad rows, one audit entry,
 * undone as one. XLSX workbooks are read as CSV files are (docs/decisions/0071-xlsx-imports.md).
 */

/** Rows a preview shows. */
export const IMPORT_PREVIEW_ROWS = 50;
/** Failures the status answers; the report (CSV) has every one. */
export const IMPORT_STATUS_ERRORS = 1000;

export const importFormats = ['csv', 'jsonl', 'xlsx'] as const;
export const importFormat = z.enum(importFormats);
export type ImportFormat = z.infer<typeof importFormat>;
export const importEncodings = ['utf-8', 'latin1'] as const;
export const importEncoding = z.enum(importEncodings);
export type ImportEncoding = z.infer<typeof importEncoding>;
/** The delimiters a CSV file's first lines are tried with when none is given. */
export const IMPORT_DELIMITERS = [',', ';', '\t', '|'] as const;

/** How a file is read: given in the upload's parts, else detected. */
export const importOptions = z.object({
  format: importFormat.describe(
    'From the file name (.csv, .tsv, .txt, .jsonl, .ndjson, .xlsx) unless the upload says',
  ),
  delimiter: z.string().describe('CSV: the field delimiter, detected from the first lines unless given'),
  quote: z.string().describe('CSV: the quote character, " unless given'),
  header: z
    .boolean()
    .describe("CSV and XLSX: whether the first record (a sheet's first row with a value) names the columns"),
  encoding: importEncoding.describe(
    'utf-8 when the whole file is valid UTF-8 (a BOM is dropped), else latin1',
  ),
  sheet: z
    .string()
    .optional()
    .describe("XLSX: the sheet read, by name: the upload's sheet part, else the first visible sheet"),
  sheets: z
    .array(z.string())
    .optional()
    .describe('XLSX: the sheets the file may be read from again, by name, in the workbook’s order'),
});
export type ImportOptions = z.infer<typeof importOptions>;

/** The upload's parts, for OpenAPI: the request is multipart/form-data, read by the server as a stream. */
export const importUploadParts = z
  .object({
    // Optional here only so the schema never answers before the rights are checked; the service requires it.
    file: z.string().optional().describe('Required: the file (binary), CSV, TSV, JSON Lines or XLSX'),
    format: z.enum(['csv', 'jsonl', 'xlsx']).optional().describe('Otherwise from the file name'),
    delimiter: z.string().optional().describe('CSV: one character, or tab; otherwise detected'),
    quote: z.string().optional().describe('CSV: one character; " otherwise'),
    header: z.enum(['true', 'false']).optional().describe('CSV: whether the first record names the columns'),
    encoding: z.enum(['utf-8', 'latin1']).optional().describe('Otherwise detected'),
    sheet: z
      .string()
      .optional()
      .describe(
        'XLSX: the sheet to import, by name or number (1 is the first); otherwise the first visible one',
      ),
  })
  .nullish();

export const importStarted = z.object({ id: z.string().describe('The import, for every later call') });

export const importJobParams = z.object({
  db: z.string(),
  schema: z.string(),
  table: z.string(),
  id: z.uuid({ error: 'The import id must be the UUID the upload answered.' }),
});

export const importTableColumn = z.object({
  name: z.string(),
  type: z.string().describe("The engine's native type"),
  typeGroup: z.string(),
  required: z
    .boolean()
    .describe('NOT NULL without a default, and neither identity nor computed: the file must give it'),
  writable: z.boolean().describe('False for computed and hidden columns; identity needs keepIdentity'),
  isIdentity: z.boolean(),
  isPrimaryKey: z.boolean(),
});

export const importPreview = z.object({
  fileName: z.string(),
  size: z.number().int().describe('Bytes'),
  options: importOptions,
  fileColumns: z
    .array(z.string())
    .describe('The columns of the file: the header, or "Column 1", … without one'),
  rows: z
    .array(z.array(z.string().nullable()))
    .describe('The first rows as parsed, values as text in fileColumns order (null: empty)'),
  columns: z.array(importTableColumn).describe("The table's columns"),
  mapping: z
    .record(z.string(), z.string())
    .describe('Proposed: file column → table column, by name with case and punctuation ignored'),
  problems: z.array(z.string()).describe('What blocks the import as proposed (a required column left out)'),
});
export type ImportPreview = z.infer<typeof importPreview>;

export const importModes = ['insert', 'upsert', 'skipExisting'] as const;

export const importRunBody = z.object({
  mapping: z
    .record(z.string(), z.string())
    .describe('File column → table column; file columns left out are not imported'),
  mode: z
    .enum(importModes)
    .describe(
      'insert: a key already in the table fails the row; upsert: it updates that row; skipExisting: it skips it',
    ),
  dryRun: z.boolean().describe('true: read the whole file and report what would happen, writing nothing'),
  onError: z
    .enum(['rollback', 'skip'])
    .default('rollback')
    .describe(
      'rollback: one failure writes nothing; skip: the good rows are written (the run, not the dry run)',
    ),
  keepIdentity: z
    .boolean()
    .default(false)
    .describe("Map a file column to the identity column and keep the file's values"),
});
export type ImportRunBody = z.infer<typeof importRunBody>;

export const importFailure = z.object({
  row: z.number().int().describe('The row of the file: 1 is the first data row'),
  column: z.string().nullable().describe('The table column, when one is to blame'),
  message: z.string(),
});
export type ImportFailure = z.infer<typeof importFailure>;

export const importStates = ['uploaded', 'queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type ImportState = (typeof importStates)[number];

export const importStatus = z.object({
  state: z.enum(importStates).describe('uploaded: no run asked yet'),
  dryRun: z.boolean().nullable().describe('Whether the last run asked was a dry run (null: none yet)'),
  inProgress: z.boolean(),
  percentageCompleted: z.number().int().min(0).max(100).describe('Of the file read'),
  inserted: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  errors: z.array(importFailure).describe(`The first ${IMPORT_STATUS_ERRORS} failures; the report has all`),
  auditId: z.number().int().nullable(),
  error: z.string().nullable().describe('Why the run stopped, when it did not end'),
});
export type ImportStatus = z.infer<typeof importStatus>;

export const importMessages = {
  fileMissing: 'Send the file in a multipart part named file.',
  notMultipart: 'Send the file as multipart/form-data, in a part named file.',
  formatUnknown: 'The format cannot be told from the file name: send a format part (csv, jsonl or xlsx).',
  tooLarge: (bytes: number) =>
    `The file is larger than the ${bytes.toLocaleString('en')} bytes an import may have: split it, or ask the operator to raise IMPORT_MAX_BYTES.`,
  badOption: (name: string, allowed: string) => `${name} must be ${allowed}.`,
  emptyFile: 'The file is empty.',
  notFound: 'This import was not found.',
  running: 'This import is running: wait for it to end or cancel it.',
  cancelled: 'The run was cancelled.',
  cancelledNothingWritten: 'The import was cancelled: nothing was written, the table is as it was.',
  restarted: 'The server restarted while the import was running: run it again.',
  /** All-or-nothing: a failure anywhere and nothing is written. */
  rolledBack: (failed: number, first: ImportFailure | undefined) =>
    `Nothing was imported: ${failed.toLocaleString('en')} ${failed === 1 ? 'row' : 'rows'} failed` +
    (first
      ? `, the first on row ${first.row}${first.column ? ` (${first.column})` : ''}: ${first.message}`
      : '.') +
    ' The table is as it was: fix the file or the mapping, or run with onError "skip" to write the good rows.',
  requiredUnmapped: (column: string) => `${column} cannot be left out: map a file column to it.`,
  unknownFileColumn: (column: string) => `The file has no column ${column}.`,
  unknownTableColumn: (column: string, table: string) => `${column} is not a column of ${table}.`,
  mappedTwice: (column: string) => `${column} is mapped from more than one file column: keep one.`,
  notWritable: (column: string) => `${column} is filled in by the database and cannot be imported.`,
  identityNeedsKeep: (column: string) =>
    `${column} is numbered by the database: leave it out, or send keepIdentity: true to keep the file's values.`,
  nothingMapped: 'Map at least one file column to a column of the table.',
};
