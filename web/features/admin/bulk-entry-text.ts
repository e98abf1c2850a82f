import type { AuditEntryView } from '#common/contract/admin.ts';
import type { Filter } from '#common/contract/filter.ts';
import { tableOfId } from '#common/links.ts';
import { auditActionLabel, auditTargetTableId } from './audit-entry-text.ts';

/*
 * A bulk change's audit entry in words (issue 38, docs/decisions/0068-bulk-changes.md): `data.bulk` records
 * {change, where, keys, set, count, capped, job, rows, status, error}; its undo, `data.undo`, records
 * {of, change: 'bulk', job, rows, status, error}. An import is one too (docs/decisions/0070-import-run.md): {change:
 * 'import', file, size, mode, onError, rows, inserted, updated, skipped, failed, status, error}. Its rows are not in
 * the entry but in its row list
 * (GET /api/admin/audit/{id}/rows). Shared by the audit trail and the one-line entries of the start page.
 */

export type BulkStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface BulkEntry {
  /** A bulk change, or the undo of one. */
  kind: 'change' | 'undo';
  /** What the bulk change did (an undo does not record it). */
  change: 'update' | 'delete' | 'import' | null;
  /** An import's file, how it ran and its counts. */
  import: ImportFacts | null;
  /** The filter document, null when none was recorded. */
  where: Filter | null;
  keys: Record<string, unknown>[] | null;
  set: Record<string, unknown> | null;
  /** Rows counted when it started (capped: at least that many). */
  count: number | null;
  capped: boolean;
  /** Rows changed (or put back) so far. */
  rows: number;
  status: BulkStatus;
  error: string | null;
  /** An undo: the entry it undoes. */
  of: number | null;
}

export interface ImportFacts {
  file: string;
  size: number | null;
  mode: string | null;
  onError: string | null;
  inserted: number;
  updated: number;
  skipped: number;
  failed: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const statuses: readonly BulkStatus[] = ['queued', 'running', 'done', 'failed', 'cancelled'];

/** The bulk change an entry records, or null when it is no bulk change nor the undo of one. */
export function bulkEntryOf(entry: Pick<AuditEntryView, 'action' | 'detail'>): BulkEntry | null {
  const detail = entry.detail;
  if (!isRecord(detail)) return null;
  const isChange = entry.action === 'data.bulk';
  if (!isChange && !(entry.action === 'data.undo' && detail.change === 'bulk')) return null;
  const status = statuses.find((s) => s === detail.status) ?? 'done';
  return {
    kind: isChange ? 'change' : 'undo',
    change:
      detail.change === 'update' || detail.change === 'delete' || detail.change === 'import'
        ? detail.change
        : null,
    import: isChange && detail.change === 'import' ? importFactsOf(detail) : null,
    where: isRecord(detail.where) ? (detail.where as Filter) : null,
    keys: Array.isArray(detail.keys) ? detail.keys.filter(isRecord) : null,
    set: isRecord(detail.set) ? detail.set : null,
    count: typeof detail.count === 'number' ? detail.count : null,
    capped: detail.capped === true,
    rows: typeof detail.rows === 'number' ? detail.rows : 0,
    status,
    error: typeof detail.error === 'string' ? detail.error : null,
    of: typeof detail.of === 'number' ? detail.of : null,
  };
}

const count = (value: unknown) => (typeof value === 'number' ? value : 0);

function importFactsOf(detail: Record<string, unknown>): ImportFacts {
  return {
    file: typeof detail.file === 'string' ? detail.file : 'a file',
    size: typeof detail.size === 'number' ? detail.size : null,
    mode: typeof detail.mode === 'string' ? detail.mode : null,
    onError: typeof detail.onError === 'string' ? detail.onError : null,
    inserted: count(detail.inserted),
    updated: count(detail.updated),
    skipped: count(detail.skipped),
    failed: count(detail.failed),
  };
}

const number = (n: number) => n.toLocaleString('en');

/** What an import wrote, in words: "6 rows inserted, 2 updated". */
function importCountsText(facts: ImportFacts): string {
  const parts = [`${rowsText(facts.inserted)} inserted`];
  if (facts.updated) parts.push(`${number(facts.updated)} updated`);
  if (facts.skipped) parts.push(`${number(facts.skipped)} skipped`);
  if (facts.failed) parts.push(`${number(facts.failed)} failed`);
  return parts.join(', ');
}

const importModes: Record<string, string> = {
  insert: 'Insert',
  upsert: 'Insert or update by key',
  skipExisting: 'Insert, skipping rows whose key exists',
};
const importOnError: Record<string, string> = {
  rollback: 'All or nothing',
  skip: 'Skip bad rows',
};

/** "1 row", "1,234 rows", "1,000,000+ rows" (a capped count). */
export function rowsText(count: number, capped = false): string {
  return `${number(count)}${capped ? '+' : ''} ${count === 1 && !capped ? 'row' : 'rows'}`;
}

/** A value set or compared: NULL, text in quotes (so a space shows), anything else as it is. */
export function bulkValueText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return `“${value}”`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** What an update set: "Composer = NULL, Name = “Rock”". */
export function setText(set: Record<string, unknown>): string {
  return Object.entries(set)
    .map(([column, value]) => `${column} = ${bulkValueText(value)}`)
    .join(', ');
}

const opSigns = {
  eq: '=',
  ne: '≠',
  lt: '<',
  le: '≤',
  gt: '>',
  ge: '≥',
  startsWith: 'starts with',
  contains: 'contains',
  endsWith: 'ends with',
} as Record<string, string>;

/** The most values of an `in` the words list before saying how many more there are. */
const IN_SHOWN = 5;

function nodeText(filter: Filter, nested: boolean): string {
  if ('column' in filter) {
    const values = filter.values ?? [];
    switch (filter.op) {
      case 'isNull':
        return `${filter.column} is null`;
      case 'isNotNull':
        return `${filter.column} is not null`;
      case 'between':
        return `${filter.column} between ${bulkValueText(values[0])} and ${bulkValueText(values[1])}`;
      case 'in': {
        const shown = values.slice(0, IN_SHOWN).map(bulkValueText);
        const more = values.length - shown.length;
        return `${filter.column} is one of ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
      }
      default:
        return `${filter.column} ${opSigns[filter.op] ?? filter.op} ${bulkValueText(filter.value)}`;
    }
  }
  if ('not' in filter) return `not (${nodeText(filter.not, false)})`;
  const [join, items] = 'and' in filter ? ['and', filter.and] : ['or', filter.or];
  const meaningful = items.filter((item) => !isEveryRow(item));
  if (meaningful.length === 1 && meaningful[0]) return nodeText(meaningful[0], nested);
  const text = meaningful.map((item) => nodeText(item, true)).join(` ${join} `);
  return nested ? `(${text})` : text;
}

/** Whether a filter keeps every row: no conditions (an empty and, or ands of empty ands). */
function isEveryRow(filter: Filter): boolean {
  return 'and' in filter && filter.and.every(isEveryRow);
}

/** A filter document in words ("GenreId = 1 and (Composer is null or Composer = “”)"); null when it keeps every
 * row. */
export function whereText(filter: Filter | null): string | null {
  if (filter === null || isEveryRow(filter)) return null;
  return nodeText(filter, false);
}

/** A row's key in words: "id 1", "a 1, b 2". */
export function bulkKeyText(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([name, value]) => `${name} ${value === null ? 'null' : String(value as string)}`)
    .join(', ');
}

/** Characters of the filter the one-line summary shows (the detail shows all of it). */
const SUMMARY_WHERE_MAX = 120;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Where a bulk change is when it has not finished: "running", "cancelled after 400 rows", "failed: …". */
export function bulkStatusText(bulk: BulkEntry): string | null {
  switch (bulk.status) {
    case 'done':
      return null;
    case 'queued':
      return 'waiting to start';
    case 'running':
      return 'running';
    case 'cancelled':
      return `cancelled after ${rowsText(bulk.rows)}`;
    case 'failed':
      return `failed after ${rowsText(bulk.rows)}: ${bulk.error ?? 'no reason was recorded'}`;
  }
}

/**
 * A bulk entry in one sentence: "Set Composer = NULL on 1,234 rows of Track where GenreId = 1", "Deleted 12 rows of
 * invoice_line", "Undid bulk change #40: put back 230 rows of Track", with where it stands when it has not finished
 * ("… — cancelled after 400 rows", "Undo of bulk change #40 on Track — running"). A finished change counts the rows it changed, an unfinished one those it was
 * started for.
 */
export function bulkSummary(bulk: BulkEntry, target: string | null): string {
  const tableId = auditTargetTableId(target);
  const table = (tableId && tableOfId(tableId)?.table) ?? 'the table';
  const finished = bulk.status === 'done';
  let sentence: string;
  if (bulk.kind === 'undo') {
    const of = `bulk change${bulk.of === null ? '' : ` #${bulk.of}`}`;
    sentence = finished
      ? `Undid ${of}: put back ${rowsText(bulk.rows)} of ${table}`
      : `Undo of ${of} on ${table}`;
  } else {
    const count = finished ? rowsText(bulk.rows) : rowsText(bulk.count ?? bulk.rows, bulk.capped);
    const where = whereText(bulk.where);
    const keys = bulk.keys?.length ? ` (${rowsText(bulk.keys.length)} chosen by hand)` : '';
    const scope = `${table}${where ? ` where ${cut(where, SUMMARY_WHERE_MAX)}` : ''}${keys}`;
    sentence = bulk.import
      ? `Imported ${bulk.import.file} into ${table}: ${importCountsText(bulk.import)}`
      : bulk.change === 'delete'
        ? `Deleted ${count} of ${scope}`
        : `Set ${bulk.set ? setText(bulk.set) : 'values'} on ${count} of ${scope}`;
  }
  const status = bulkStatusText(bulk);
  return status ? `${sentence} — ${status}` : sentence;
}

/** What an entry did, in words: a bulk entry's sentence (bulkSummary), any other entry its action's label. */
export function auditEntryWhat(entry: Pick<AuditEntryView, 'action' | 'detail' | 'target'>): string {
  const bulk = bulkEntryOf(entry);
  return bulk ? bulkSummary(bulk, entry.target) : auditActionLabel(entry.action);
}

const statusWords: Record<BulkStatus, string> = {
  queued: 'Waiting to start',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Keys of a hand-made selection the detail lists before saying how many more there are. */
const KEYS_SHOWN = 5;

/** A bulk entry's detail as name/value pairs: the filter and the set in words, the counts, where it stands. */
export function bulkFacts(bulk: BulkEntry): [string, string][] {
  const facts: [string, string][] = [];
  if (bulk.kind === 'undo') {
    if (bulk.of !== null) facts.push(['Undoes', `entry #${bulk.of}`]);
    facts.push(['Rows put back', rowsText(bulk.rows)]);
  } else if (bulk.import) {
    const imported = bulk.import;
    facts.push(['Change', 'Import a file']);
    facts.push([
      'File',
      imported.size === null ? imported.file : `${imported.file} (${number(imported.size)} bytes)`,
    ]);
    if (imported.mode) facts.push(['Mode', importModes[imported.mode] ?? imported.mode]);
    if (imported.onError) facts.push(['On error', importOnError[imported.onError] ?? imported.onError]);
    facts.push(['Rows written', importCountsText(imported)]);
  } else {
    facts.push(['Change', bulk.change === 'delete' ? 'Delete rows' : 'Set values']);
    const keys = bulk.keys ?? [];
    facts.push([
      'Filter',
      whereText(bulk.where) ??
        (keys.length ? 'none (the rows chosen by hand)' : 'none: every row of the table'),
    ]);
    if (keys.length) {
      const shown = keys.slice(0, KEYS_SHOWN).map(bulkKeyText).join('; ');
      const more = keys.length - Math.min(keys.length, KEYS_SHOWN);
      facts.push(['Rows chosen', `${rowsText(keys.length)}: ${shown}${more > 0 ? ` and ${more} more` : ''}`]);
    }
    if (bulk.set) facts.push(['Set', setText(bulk.set)]);
    if (bulk.count !== null) facts.push(['Counted at the start', rowsText(bulk.count, bulk.capped)]);
    facts.push([bulk.change === 'delete' ? 'Rows deleted' : 'Rows changed', rowsText(bulk.rows)]);
  }
  facts.push(['Status', statusWords[bulk.status]]);
  if (bulk.error && bulk.status !== 'done') facts.push(['Why it stopped', bulk.error]);
  return facts;
}
