import {
  CUT_IMAGE_MAX_BASE64,
  ROW_CUT_KEY,
  type Column,
  type CutLengths,
  type Row,
  type Table,
} from '#common/contract/sql.ts';
import { cutMessages } from '#common/messages.ts';
import { badInput } from './engine-error.ts';
import { rowKey } from './row-writes.ts';

/*
 * Cut values (docs/decisions/0066-cut-values.md): a page asked with ?cutText=N carries long values cut, so a grid
 * that shows 200 characters of a cell never receives megabytes of it. The cut is made here, on rows already read and
 * already versioned (row-version.ts digests the whole wire values, so $version stays the whole row's and the
 * lost-update rule keeps working), once for every engine. The database still sends the whole value to the server.
 */

/** Whether a table's rows may be cut: not when it has a column named ROW_CUT_KEY (the key is that column). */
const cuttable = new WeakMap<Table, boolean>();
function mayCut(table: Table): boolean {
  let may = cuttable.get(table);
  if (may === undefined) {
    may = !table.columns.some((column) => column.name === ROW_CUT_KEY);
    cuttable.set(table, may);
  }
  return may;
}

/** How a column's values are cut: text (text and JSON, cut by characters), binary (base64, cut by characters but
 * measured in bytes), an image (binary kept whole up to CUT_IMAGE_MAX_BASE64), or never (numbers, dates, …). */
type CutKind = 'text' | 'binary' | 'image' | null;
function cutKindOf(column: Column): CutKind {
  switch (column.typeGroup) {
    case 'Text':
    case 'Other':
      return 'text';
    case 'Binary':
      return 'binary';
    case 'image':
      return 'image';
    default:
      return null;
  }
}

/** Bytes that base64 text holds, without decoding it. */
function base64Bytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((text.length * 3) / 4) - padding);
}

/** Text cut to at most `limit` UTF-16 units, never between the two halves of a surrogate pair. */
function cutString(text: string, limit: number): string {
  const end = limit > 0 && /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, end);
}

/** The columns of a page that are cut, with how: every text, JSON, binary and image column but the row's key (the
 * identity, guid or primary key, what the row is read again and written by) and the page's sort column. */
function columnsToCut(table: Table, orderBy: string | null): [Column, Exclude<CutKind, null>][] {
  const kept = new Set([...rowKey(table), ...table.primaryKey]);
  if (orderBy) kept.add(orderBy.startsWith('-') ? orderBy.slice(1) : orderBy);
  const cut: [Column, Exclude<CutKind, null>][] = [];
  for (const column of table.columns) {
    const kind = cutKindOf(column);
    if (kind !== null && !kept.has(column.name)) cut.push([column, kind]);
  }
  return cut;
}

/**
 * Cuts the long values of a page's rows in place (they are rows just read, versioned, and not shared): text and JSON
 * longer than `limit` characters to `limit`; binary whose base64 is longer than `limit` characters to a whole number
 * of base64 quads within it (so the start still decodes); images the same, but only beyond CUT_IMAGE_MAX_BASE64 (or
 * `limit` when larger). A row where something was cut gets ROW_CUT_KEY: `{ column: whole length }`, characters for
 * text, bytes for binary. The key and sort columns stay whole; so does every value of a table with a column named
 * ROW_CUT_KEY.
 */
export function cutRows(table: Table, rows: Row[], limit: number, orderBy: string | null): Row[] {
  if (!mayCut(table)) return rows;
  const columns = columnsToCut(table, orderBy);
  if (columns.length === 0) return rows;
  for (const row of rows) {
    let lengths: CutLengths | undefined;
    for (const [column, kind] of columns) {
      const value = row[column.name];
      if (typeof value !== 'string') continue;
      const bound = kind === 'image' ? Math.max(limit, CUT_IMAGE_MAX_BASE64) : limit;
      if (value.length <= bound) continue;
      lengths ??= {};
      if (kind === 'text') {
        lengths[column.name] = value.length;
        row[column.name] = cutString(value, bound);
      } else {
        lengths[column.name] = base64Bytes(value);
        row[column.name] = value.slice(0, bound - (bound % 4));
      }
    }
    // The marks travel as JSON text would not: the row's type is column → cell value, so they are an object set
    // beside the columns after every value was cut, as the version is.
    if (lengths) (row as Record<string, unknown>)[ROW_CUT_KEY] = lengths;
  }
  return rows;
}

/**
 * A row a caller sent to be saved or deleted, refused (400) when it carries ROW_CUT_KEY: its values were cut for a
 * page, and writing them back would cut them in the database too; the row must be read whole (without cutText)
 * first. (The body decoder refuses the marks as answered, an object; this catches any other value under the key.) A
 * table with a column of that name takes it as that column.
 */
export function refuseCutRow(table: Table, sent: Row): void {
  if (ROW_CUT_KEY in sent && mayCut(table)) throw badInput(cutMessages.cutRowSent(ROW_CUT_KEY));
}
