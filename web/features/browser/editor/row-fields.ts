import type { CellValue, Column, Row, Table } from '#common/contract/sql.ts';
import { TEXTAREA_THRESHOLD } from '#common/limits.ts';
import { formMessages } from '#common/messages.ts';

/*
 * The row form's rules (spec 000 §4 "Row editor", §5 "Row form"), pure so each one is tested on its own. The
 * server applies the same rules again (server/engines/row-writes.ts, wire-values.ts); these only spare a person a
 * call it would refuse, and decide which input each column gets.
 */

/** Whether the form shows a new row (add, also after Copy) or an existing one (edit). */
export type EditorMode = 'add' | 'edit';

/** The input a column gets (spec 000 §5 "Field type by column"). */
export type FieldKind =
  'switch' | 'image' | 'combobox' | 'date' | 'datetime' | 'time' | 'number' | 'textarea' | 'text';

/** How a number input behaves: the step is 10^-scale; decimals are fixed to the scale when the type has one. */
export interface NumberFormat {
  step: number;
  /** Decimals shown and allowed (padded with zeros); undefined: any (floats, unconstrained numerics). */
  decimalScale: number | undefined;
  allowDecimal: boolean;
}

/** A column as the form lays it out. */
export interface RowField {
  column: Column;
  kind: FieldKind;
  /** Grid columns (of 12) on a wide form: 2 for short text and comboboxes, else 3 (spec 000 §5). */
  width: 2 | 3;
  readOnly: boolean;
  required: boolean;
  number: NumberFormat | null;
}

// The server's own split of number types (server/engines/wire-values.ts): floats, exact decimals, whole numbers.
const isFloat = (column: Column) => /float|real|double/i.test(column.type);
const isDecimal = (column: Column) => /dec|numeric|money/i.test(column.type);

/** The input of a column: bit a switch, image a picker, a foreign key a combobox, dates a picker, numbers a number
 * input, long or unlimited text (over TEXTAREA_THRESHOLD) an 8-row textarea, anything else a textbox. */
export function fieldKind(column: Column): FieldKind {
  if (column.typeGroup === 'bit') return 'switch';
  if (column.typeGroup === 'image') return 'image';
  if (column.isForeignKey) return 'combobox';
  if (column.typeGroup === 'Date') return column.type === 'date' ? 'date' : 'datetime';
  if (column.typeGroup === 'Time') return /timestamp/i.test(column.type) ? 'datetime' : 'time';
  if (column.typeGroup === 'Number') return 'number';
  if (column.maxLength === -1 || column.maxLength > TEXTAREA_THRESHOLD) return 'textarea';
  return 'text';
}

/** Spec 000 §5: a text or combobox column with maxLength under 50 sits in the 2-column grid, others in the 3. */
export function fieldWidth(column: Column, kind: FieldKind = fieldKind(column)): 2 | 3 {
  if (kind === 'combobox') return column.maxLength < 50 ? 2 : 3;
  if (kind === 'text') return column.maxLength > 0 && column.maxLength < 50 ? 2 : 3;
  return 3;
}

/** Step 10^-scale, and exactly `scale` decimals for exact decimals (spec 000 §5); whole numbers take no decimals. */
export function numberFormat(column: Column): NumberFormat {
  const scale = Math.max(0, column.scale);
  const step = Number(`1e-${scale}`);
  if (isFloat(column)) return { step, decimalScale: undefined, allowDecimal: true };
  if (isDecimal(column)) {
    // An unconstrained numeric (precision 0) takes any decimals; money and numeric(p,s) exactly s.
    if (column.precision === 0 && scale === 0) return { step, decimalScale: undefined, allowDecimal: true };
    return { step, decimalScale: scale, allowDecimal: scale > 0 };
  }
  return { step: 1, decimalScale: 0, allowDecimal: false };
}

/** Filled in by the database, so never typed: guid, identity, hidden and computed columns. */
export const isDatabaseFilled = (column: Column) =>
  column.isGuid || column.isIdentity || column.isHidden || column.isComputed;

/** Whether rows of the table can be changed at all: only with an identity or guid to find them by (spec 000 §4). */
export const rowsCanChange = (table: Pick<Table, 'hasIdentity' | 'hasGuid'>) =>
  table.hasIdentity || table.hasGuid;

/**
 * Spec 000 §4: guid, identity, hidden and computed columns are read-only; on an existing row foreign-key columns
 * too, and every column when the table has neither identity nor guid. `canWrite` false (no CanUpdate on an existing
 * row) makes the whole row read-only.
 */
export function isReadOnly(
  column: Column,
  table: Pick<Table, 'hasIdentity' | 'hasGuid'>,
  mode: EditorMode,
  canWrite = true,
): boolean {
  if (!canWrite || isDatabaseFilled(column)) return true;
  return mode === 'edit' && (column.isForeignKey || !rowsCanChange(table));
}

/**
 * '{Column} is required.' applies to a non-nullable column other than bit that a person fills in: not a read-only
 * one, and on a new row not one with a default (left empty, the database fills it in, as the server does).
 */
export function isRequired(column: Column, readOnly: boolean, mode: EditorMode): boolean {
  if (column.isNullable || column.typeGroup === 'bit' || readOnly) return false;
  return !(mode === 'add' && column.defaultValue !== null);
}

/** Every column of the table as the form shows it, in the table's order. */
export function rowFields(
  table: Pick<Table, 'columns' | 'hasIdentity' | 'hasGuid'>,
  mode: EditorMode,
  canWrite = true,
): RowField[] {
  return table.columns.map((column) => {
    const kind = fieldKind(column);
    const readOnly = isReadOnly(column, table, mode, canWrite);
    return {
      column,
      kind,
      width: fieldWidth(column, kind),
      readOnly,
      required: isRequired(column, readOnly, mode),
      number: kind === 'number' ? numberFormat(column) : null,
    };
  });
}

/** Characters as the server counts them (code points, so an emoji is one). */
const characters = (text: string) => [...text].length;

/** The message of one field's value, or undefined when it is valid (spec 000 §5). */
export function fieldError(field: RowField, value: CellValue | undefined): string | undefined {
  if (field.readOnly) return undefined;
  const { column } = field;
  if (field.required && (value === null || value === undefined)) return formMessages.required(column.name);
  if (
    typeof value === 'string' &&
    column.typeGroup === 'Text' &&
    column.maxLength > 0 &&
    characters(value) > column.maxLength
  ) {
    return formMessages.tooLong(column.name, column.maxLength);
  }
  return undefined;
}

/** Every field's message, by column name (valid fields absent). */
export function rowErrors(fields: readonly RowField[], values: Row): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const error = fieldError(field, values[field.column.name]);
    if (error) errors[field.column.name] = error;
  }
  return errors;
}

/** The columns that identify a row, as the server finds it: identity, else guid, else the primary key. */
export function rowKey(table: Pick<Table, 'identityColumn' | 'guidColumn' | 'primaryKey'>): string[] {
  if (table.identityColumn) return [table.identityColumn];
  if (table.guidColumn) return [table.guidColumn];
  return table.primaryKey;
}

/** A new row's values: every column empty (null). */
export function emptyRow(table: Pick<Table, 'columns'>): Row {
  return Object.fromEntries(table.columns.map((column) => [column.name, null]));
}

/** Spec 000 §4: Copy turns a row into a new one, clearing identity, guid and the other read-only columns. */
export function copyRow(table: Pick<Table, 'columns'>, row: Row): Row {
  return Object.fromEntries(
    table.columns.map((column) => [
      column.name,
      isDatabaseFilled(column) ? null : (row[column.name] ?? null),
    ]),
  );
}

/** Whether two values are the same for the form (a number typed as text equals the number). */
export const sameValue = (a: CellValue | undefined, b: CellValue | undefined) =>
  a === b || (a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b));

/** The columns whose value differs from the backup. */
export function changedColumns(values: Row, backup: Row): string[] {
  return Object.keys(values).filter((name) => !sameValue(values[name], backup[name]));
}

/**
 * The body of the upsert. A new row sends every column a person fills in, except an empty one with a default (the
 * database fills it in; a null would be written as null). An existing row sends its key and the columns changed
 * since it was loaded, so a value the form never touched is never re-checked or rewritten.
 */
export function upsertBody(
  table: Pick<Table, 'columns' | 'hasIdentity' | 'hasGuid' | 'identityColumn' | 'guidColumn' | 'primaryKey'>,
  mode: EditorMode,
  values: Row,
  backup: Row,
): Row {
  const body: Row = {};
  if (mode === 'add') {
    for (const column of table.columns) {
      if (isReadOnly(column, table, 'add')) continue;
      const value = values[column.name] ?? null;
      if (value === null && column.defaultValue !== null) continue;
      body[column.name] = value;
    }
    return body;
  }
  for (const name of rowKey(table)) body[name] = backup[name] ?? null;
  const changed = new Set(changedColumns(values, backup));
  for (const column of table.columns) {
    if (!changed.has(column.name) || isReadOnly(column, table, 'edit')) continue;
    body[column.name] = values[column.name] ?? null;
  }
  return body;
}

/** The body of a delete: the row's key (the whole row when the table has none the server could use). */
export function deleteBody(
  table: Pick<Table, 'identityColumn' | 'guidColumn' | 'primaryKey'>,
  row: Row,
): Row {
  const key = rowKey(table);
  if (key.length === 0) return row;
  return Object.fromEntries(key.map((name) => [name, row[name] ?? null]));
}
