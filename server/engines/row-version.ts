import { hash } from 'node:crypto';
import { ROW_VERSION_KEY, type Row, type Table } from '#common/contract/sql.ts';
import { rowVersionMessages } from '#common/messages.ts';
import { badInput, EngineError } from './engine-error.ts';

/*
 * Row versions (docs/decisions/0045-row-versions.md): a short digest of a row's wire values, which the data API
 * answers beside every row and a save or delete sends back, so a write is made only while the row is still what the
 * caller read. Computed from values already read (no column, trigger or query of the database's own), the same way
 * on every engine: the write reads the row under its lock in its transaction anyway (row-writes.ts).
 */

/** Characters of the version: 96 bits of SHA-256, base64url. Collisions of two states of one row are not a risk. */
const VERSION_LENGTH = 16;

/** Whether a table's rows get versions: not a view (its rows are never written here), nor a table with a column
 * named ROW_VERSION_KEY (the key is that column). Decided once per catalog table. */
const versioned = new WeakMap<Table, boolean>();
function hasVersions(table: Table): boolean {
  let has = versioned.get(table);
  if (has === undefined) {
    has = !table.isView && !table.columns.some((column) => column.name === ROW_VERSION_KEY);
    versioned.set(table, has);
  }
  return has;
}

/**
 * The version of a row as read (its wire values), or null for a view or a table with a column named ROW_VERSION_KEY.
 * Every column counts but computed ones: they follow from the others, and one computed from the clock or another
 * table (SQL Server's GETDATE()) would change at every read and make every save a conflict. Each value is written
 * with its type and, for text, its length, so no two rows share a digest input.
 */
export function rowVersion(table: Table, row: Row): string | null {
  if (!hasVersions(table)) return null;
  let text = '';
  for (const column of table.columns) {
    if (column.isComputed) continue;
    const value = row[column.name];
    if (value === null || value === undefined) text += 'n';
    else if (typeof value === 'string') text += `s${value.length}:${value}`;
    else if (typeof value === 'number') text += `d${value};`;
    else text += value ? 't' : 'f';
  }
  return hash('sha256', text, 'base64url').slice(0, VERSION_LENGTH);
}

/** The row with its version under ROW_VERSION_KEY (set in place: the row is one the caller just read). */
export function withRowVersion(table: Table, row: Row): Row {
  const version = rowVersion(table, row);
  if (version !== null) row[ROW_VERSION_KEY] = version;
  return row;
}

/**
 * A row as a caller sent it, split into its columns' values and the version it carries (undefined when none). The
 * key never reaches SQL or the column checks. Anything but text under the key is refused (400).
 */
export function takeRowVersion(table: Table, row: Row): { values: Row; version: string | undefined } {
  if (!(ROW_VERSION_KEY in row) || !hasVersions(table)) return { values: row, version: undefined };
  const { [ROW_VERSION_KEY]: version, ...values } = row;
  if (typeof version !== 'string') throw badInput(rowVersionMessages.notAVersion(ROW_VERSION_KEY));
  return { values, version };
}

/** The 409 of a write whose row changed since the caller read it: nothing was written; the row as it is now (with
 * its version) goes back in the answer's data, so the caller can compare. */
export function rowChangedSince(table: Table, current: Row, message: string): EngineError {
  return new EngineError(409, message, { data: { current: withRowVersion(table, { ...current }) } });
}

/** Refuses (409) when the caller's version is not the version of the row as it is now (`current`, read under the
 * write's row lock). No version: nothing to check. */
export function refuseChangedSince(
  table: Table,
  current: Row,
  version: string | undefined,
  message: string,
): void {
  if (version !== undefined && rowVersion(table, current) !== version)
    throw rowChangedSince(table, current, message);
}
