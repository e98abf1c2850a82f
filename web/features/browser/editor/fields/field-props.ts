import type { CellValue } from '#common/contract/sql.ts';
import { editorMessages } from '#web/features/browser/editor/editor-messages.ts';
import type { RowField } from '#web/features/browser/editor/row-fields.ts';

/** What every field of the row form receives: its column's rules, the value, the message to show and the
 * handlers (a change marks the field dirty, leaving it marks it touched: spec 000 §5's message rule). */
export interface FieldProps {
  field: RowField;
  value: CellValue;
  error: string | undefined;
  onChange: (value: CellValue) => void;
  onBlur: () => void;
}

/** The text of a value in a text input ('' for null). */
export const textOf = (value: CellValue): string =>
  value === null ? '' : typeof value === 'string' ? value : String(value);

/** What an empty field shows: 'null', or that the database fills the column in on a new row. */
export const emptyText = (field: RowField): string =>
  field.setByDatabase ? editorMessages.setByDatabase : 'null';
