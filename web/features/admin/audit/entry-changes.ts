import type { CellValue, Row } from '#common/contract/sql.ts';

/*
 * A data change's detail as the comparison shows it: data.insert/update/delete and admin.data.* record
 * {key, before, after}; data.undo records {of, change, key, before, after}. An insert has no before, a delete no
 * after.
 */

export interface ChangedField {
  name: string;
  before: unknown;
  after: unknown;
  /** Both sides recorded and different. */
  changed: boolean;
}

export interface EntryChanges {
  key: Row | null;
  /** Which sides were recorded. */
  sides: { before: boolean; after: boolean };
  fields: ChangedField[];
  /** data.undo: the entry it undid. */
  undoes: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The rows a detail records, or null when it is not a data change's {key, before, after}. */
export function entryChanges(detail: unknown): EntryChanges | null {
  if (!isRecord(detail) || !('before' in detail) || !('after' in detail)) return null;
  const before = isRecord(detail.before) ? detail.before : null;
  const after = isRecord(detail.after) ? detail.after : null;
  if (before === null && after === null) return null;
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return {
    key: isRecord(detail.key) ? (detail.key as Row) : null,
    sides: { before: before !== null, after: after !== null },
    fields: names.map((name) => ({
      name,
      before: before?.[name],
      after: after?.[name],
      changed: before !== null && after !== null && !same(before[name], after[name]),
    })),
    undoes: typeof detail.of === 'number' ? detail.of : null,
  };
}

/** A recorded value in words: null as "null", text as it is, anything else as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A row's key as "GenreId 1, Name Rock". */
export function keyText(key: Row): string {
  return Object.entries(key)
    .map(([name, value]: [string, CellValue]) => `${name} ${valueText(value)}`)
    .join(', ');
}

/** Any other detail as name/value pairs (nested values as JSON); text or a number as one "Detail" pair. */
export function detailPairs(detail: unknown): [string, string][] {
  if (detail === null || detail === undefined) return [];
  if (isRecord(detail)) return Object.entries(detail).map(([name, value]) => [name, valueText(value)]);
  return [['Detail', valueText(detail)]];
}
