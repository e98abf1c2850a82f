import { importMessages, type ImportPreview, type ImportStatus } from '#common/contract/imports.ts';

/*
 * The import flow's sentences and its pure rules (issue 39, decision 0069 "The import page"): the mapping's problems
 * as the server words them (common/contract/imports.ts), the counts in words, a failure's message by its status.
 */

/** The value of a mapping select that imports nothing from that file column. */
export const SKIP = '';

/** File column → table column ('' = skip), as the form holds it. */
export type MappingDraft = Record<string, string>;

export const importText = {
  fileTypes: 'CSV, TSV, JSON Lines or XLSX',
  uploadFailed: 'The file could not be uploaded.',
  previewFailed: 'The file could not be read.',
  runFailed: 'The import could not be started.',
  statusFailed: 'The progress of the import could not be read.',
  cancelFailed: 'The import could not be cancelled.',
  reportFailed: 'The report could not be downloaded.',
  undoFailed: 'The import could not be undone.',
  forbidden: (message: string) =>
    `${message} Ask an administrator for the right if you need to import into this table.`,
  cancelled: 'The import was cancelled: the counts below are what it had done when it stopped.',
  rollbackBlocks:
    'With all-or-nothing, one failing row writes nothing: fix those rows, change the mapping, or choose “Skip bad rows”.',
} as const;

/** The plural of a count: "1 row", "3 rows". */
export function rows(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'row' : 'rows'}`;
}

/** The proposed mapping as the form holds it: every file column, the proposed table column or skip. */
export function draftOf(preview: ImportPreview): MappingDraft {
  return Object.fromEntries(preview.fileColumns.map((column) => [column, preview.mapping[column] ?? SKIP]));
}

/** The run body's mapping: the file columns mapped, skipped ones left out. */
export function mappingOf(draft: MappingDraft): Record<string, string> {
  return Object.fromEntries(Object.entries(draft).filter(([, table]) => table !== SKIP));
}

/**
 * What blocks a mapping before it is sent, in the server's words (server/features/imports/import-mapping.ts checks
 * the same on the run): nothing mapped, a table column mapped twice, an identity column without keeping the file's
 * values, a required column left out.
 */
export function mappingProblems(
  preview: ImportPreview,
  draft: MappingDraft,
  keepIdentity: boolean,
): string[] {
  const mapped = Object.values(mappingOf(draft));
  const problems: string[] = [];
  if (mapped.length === 0) problems.push(importMessages.nothingMapped);
  const seen = new Set<string>();
  for (const column of mapped) {
    if (seen.has(column)) problems.push(importMessages.mappedTwice(column));
    seen.add(column);
  }
  for (const column of preview.columns) {
    if (seen.has(column.name) && column.isIdentity && !keepIdentity)
      problems.push(importMessages.identityNeedsKeep(column.name));
    if (column.required && !seen.has(column.name))
      problems.push(importMessages.requiredUnmapped(column.name));
  }
  return [...new Set(problems)];
}

/** The counts of a run in words: what a dry run would do, or what a run did. */
export function countsText(status: ImportStatus): { label: string; value: number }[] {
  const dry = status.dryRun !== false;
  return [
    { label: dry ? 'Would insert' : 'Inserted', value: status.inserted },
    { label: dry ? 'Would update' : 'Updated', value: status.updated },
    { label: dry ? 'Would skip' : 'Skipped', value: status.skipped },
    { label: dry ? 'Would fail' : 'Failed', value: status.failed },
  ];
}

/** The sentence for a failed call: the server's message (it names the limit, the option or the right), made
 * friendlier where the status says more. */
export function failureText(error: unknown, fallback: string): string {
  const message = error instanceof Error && error.message.trim() ? error.message.trim() : fallback;
  const status =
    typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
      ? error.status
      : null;
  if (status === 403) return importText.forbidden(message);
  return message;
}

/** The delimiters offered, by name. */
export const delimiterChoices = [
  { value: ',', label: 'Comma ( , )' },
  { value: ';', label: 'Semicolon ( ; )' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Pipe ( | )' },
] as const;

/** The modes, by name; upsert only for whoever may also update rows. */
export const modeChoices = [
  { value: 'insert', label: 'Insert: such a row fails' },
  { value: 'upsert', label: 'Upsert: it updates that row' },
  { value: 'skipExisting', label: 'Skip existing: it is left out' },
] as const;
