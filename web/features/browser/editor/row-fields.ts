import type { CellValue, Column, Row, Table } from '#common/contract/sql.ts';
import { TEXTAREA_THRESHOLD } from '#common/limits.ts';
import { formMessages } from '#common/messages.ts';
import { editorMessages } from './editor-messages.ts';

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

/** The groups the form shows its fields in, in this order (spec 000 §2 "Row editor"): dates and times are text
 * showing a formatted date (§5), so they are in the text group; a switch is the spec's checkbox. */
export const FIELD_GROUPS = ['image', 'combobox', 'number', 'text', 'textarea', 'checkbox'] as const;
export type FieldGroup = (typeof FIELD_GROUPS)[number];

/** A column as the form lays it out. */
export interface RowField {
  column: Column;
  kind: FieldKind;
  group: FieldGroup;
  /** Grid columns (of 12) on a wide form: 2 for short text and comboboxes, else 3 (spec 000 §5). */
  width: 2 | 3;
  readOnly: boolean;
  required: boolean;
  /** Left empty, the database fills it in (a new row's identity, guid, computed column, or a default the database
   * works out such as now()): the empty field says so rather than 'null'. */
  setByDatabase: boolean;
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

/** The group of a field kind (spec 000 §2: image, combobox, number, text, textarea, checkbox). */
export function fieldGroup(kind: FieldKind): FieldGroup {
  switch (kind) {
    case 'switch':
      return 'checkbox';
    case 'image':
    case 'combobox':
    case 'number':
    case 'textarea':
      return kind;
    default:
      return 'text';
  }
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

/** On a new row, whether the database fills the column in when it is left empty: identity, guid, hidden and
 * computed columns, and a default it works out (now(), a sequence). A constant default is shown as a value instead. */
export const isSetByDatabase = (column: Column, mode: EditorMode) =>
  mode === 'add' && (isDatabaseFilled(column) || column.defaultIsExpression);

/**
 * '{Column} is required.' applies to a non-nullable column other than bit that a person fills in: not a read-only
 * one, and on a new row not one the database fills in when it is left empty (as the server does). A constant default
 * starts in the field, so emptying it is refused like any other.
 */
export function isRequired(column: Column, readOnly: boolean, mode: EditorMode): boolean {
  if (column.isNullable || column.typeGroup === 'bit' || readOnly) return false;
  return !isSetByDatabase(column, mode);
}

/** Every column of the table as the form shows it: grouped by kind (FIELD_GROUPS), each group in the table's order. */
export function rowFields(
  table: Pick<Table, 'columns' | 'hasIdentity' | 'hasGuid'>,
  mode: EditorMode,
  canWrite = true,
): RowField[] {
  const fields = table.columns.map((column): RowField => {
    const kind = fieldKind(column);
    const readOnly = isReadOnly(column, table, mode, canWrite);
    return {
      column,
      kind,
      group: fieldGroup(kind),
      width: fieldWidth(column, kind),
      readOnly,
      required: isRequired(column, readOnly, mode),
      setByDatabase: isSetByDatabase(column, mode),
      number: kind === 'number' ? numberFormat(column) : null,
    };
  });
  const rank = (field: RowField) => FIELD_GROUPS.indexOf(field.group);
  // Array.prototype.sort is stable: the table's order holds within a group.
  return fields.sort((a, b) => rank(a) - rank(b));
}

/** Which fields share a block of the form: inputs of one height (comboboxes, numbers, text, dates) flow together;
 * images, textareas and switches, of other heights, each start a block of their own (issue 32: no tall field beside
 * short ones, no row left half empty). */
export type FormSection = 'image' | 'inputs' | 'textarea' | 'checkbox';
const sectionOf = (group: FieldGroup): FormSection =>
  group === 'combobox' || group === 'number' || group === 'text' ? 'inputs' : group;

/** The grouped fields cut into the form's blocks, in order; empty blocks left out. */
export function formSections(fields: readonly RowField[]): { section: FormSection; fields: RowField[] }[] {
  const sections: { section: FormSection; fields: RowField[] }[] = [];
  for (const field of fields) {
    const section = sectionOf(field.group);
    const last = sections.at(-1);
    if (last?.section === section) last.fields.push(field);
    else sections.push({ section, fields: [field] });
  }
  return sections;
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

/** Every field's message, by column name (valid fields absent); text left in a foreign-key field that names none of
 * its options (`typed`) says so (issue 32: it is not dropped on save without a word). */
export function rowErrors(
  fields: readonly RowField[],
  values: Row,
  typed: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const text = typed[field.column.name];
    const error =
      text !== undefined && !field.readOnly
        ? editorMessages.notAnOption(text)
        : fieldError(field, values[field.column.name]);
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

/** A new row's values: each column's constant default (what the database would store), a NOT NULL bit without
 * one off (what its switch shows), every other column empty (null). */
export function emptyRow(table: Pick<Table, 'columns'>): Row {
  return Object.fromEntries(table.columns.map((column) => [column.name, newValue(column)]));
}

function newValue(column: Column): CellValue {
  if (isDatabaseFilled(column)) return null;
  if (column.defaultConstant !== null) return column.defaultConstant;
  if (column.typeGroup === 'bit' && !column.isNullable && column.defaultValue === null) return false;
  return null;
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
 * The body of the upsert. A new row sends every column a person fills in, except an empty one the database fills in
 * (a default it works out: a null would be written as null); a constant default was shown in its field, so what the
 * field holds is sent, emptied or not. An existing row sends its key and the columns changed since it was loaded, so
 * a value the form never touched is never re-checked or rewritten.
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
      if (value === null && column.defaultValue !== null && column.defaultConstant === null) continue;
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
