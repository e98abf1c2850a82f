import { ROW_VERSION_KEY, type CellValue, type Column, type Row, type Table } from '#common/contract/sql.ts';
import {
  isReadOnly,
  sameValue,
  upsertBody,
  type EditorMode,
} from '#web/features/browser/editor/row-fields.ts';

/*
 * Two people saved the same row (docs/decisions/0045-row-versions.md): the server refused the second save and
 * answered the row as it is now. These rules compare the three rows — as this person opened it (original), as they
 * edited it (mine), as the other person left it (theirs) — and build the save that resolves it, sent with their
 * row's version so it is made only over the row the person has now seen.
 */

type EditorTable = Pick<
  Table,
  'columns' | 'hasIdentity' | 'hasGuid' | 'identityColumn' | 'guidColumn' | 'primaryKey'
>;

/** The three rows of a conflict. */
export interface RowConflictRows {
  /** The row as it was when this person opened it (or last saved or merged it). */
  original: Row;
  /** The editor's values: what this person wants to save. */
  mine: Row;
  /** The row as the server holds it now, with its version. */
  theirs: Row;
}

/** Whose value a field keeps. */
export type Choice = 'mine' | 'theirs';

/** A field whose value differs between mine and theirs. */
export interface ConflictField {
  column: Column;
  original: CellValue;
  mine: CellValue;
  theirs: CellValue;
  /** This person changed it since opening the row. */
  changedByMe: boolean;
  /** The other person changed it. */
  changedByThem: boolean;
  /** Mine can be written: false for the columns an existing row cannot change (keys, foreign keys, computed). */
  canKeepMine: boolean;
}

const valueOf = (row: Row, column: Column): CellValue => row[column.name] ?? null;

/** The fields where mine and theirs differ, in the table's order; the rest are the same on both sides. */
export function conflictFields(table: EditorTable, rows: RowConflictRows): ConflictField[] {
  const fields: ConflictField[] = [];
  for (const column of table.columns) {
    const original = valueOf(rows.original, column);
    const mine = valueOf(rows.mine, column);
    const theirs = valueOf(rows.theirs, column);
    if (sameValue(mine, theirs)) continue;
    fields.push({
      column,
      original,
      mine,
      theirs,
      changedByMe: !sameValue(mine, original),
      changedByThem: !sameValue(theirs, original),
      canKeepMine: !isReadOnly(column, table, 'edit'),
    });
  }
  return fields;
}

/** The choice a field starts with: my value where I changed it (and may write it), else theirs — so nobody's change
 * is dropped unless both changed the same field. */
export function initialChoices(fields: readonly ConflictField[]): Record<string, Choice> {
  return Object.fromEntries(
    fields.map((field) => [field.column.name, field.changedByMe && field.canKeepMine ? 'mine' : 'theirs']),
  );
}

/** Every field mine (where mine can be written): "Keep mine". */
export function allMine(fields: readonly ConflictField[]): Record<string, Choice> {
  return Object.fromEntries(
    fields.map((field) => [field.column.name, field.canKeepMine ? 'mine' : 'theirs']),
  );
}

/** Their row with the chosen fields of mine: what the resolving save leaves in the database. */
export function mergedRow(
  theirs: Row,
  fields: readonly ConflictField[],
  choices: Record<string, Choice>,
): Row {
  const merged: Row = { ...theirs };
  for (const field of fields)
    if (field.canKeepMine && choices[field.column.name] === 'mine') merged[field.column.name] = field.mine;
  return merged;
}

/**
 * The body of a save of `values` over `read` (the row as it was read): the editor's usual body (the key and the
 * changed columns) and, for an existing row, the version `read` carries, so the server refuses it if the row has
 * changed since. A new row (add, copy) is no row read before: no version.
 */
export function versionedBody(table: EditorTable, mode: EditorMode, values: Row, read: Row): Row {
  const body = upsertBody(table, mode, values, read);
  return mode === 'edit' ? withVersionOf(table, body, read) : body;
}

/** A body with the version of the row it was made from, when that row has one (delete sends it too). A table with a
 * column of the key's name has no versions: the key is that column, left as the body has it. */
export function withVersionOf(table: Pick<Table, 'columns'>, body: Row, read: Row): Row {
  const version = read[ROW_VERSION_KEY];
  if (typeof version !== 'string' || table.columns.some((column) => column.name === ROW_VERSION_KEY))
    return body;
  return { ...body, [ROW_VERSION_KEY]: version };
}
