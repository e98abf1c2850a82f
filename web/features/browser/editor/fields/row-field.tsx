import type { TableRef } from '#web/api/sql/paths.ts';
import { DateField } from './date-field.tsx';
import type { FieldProps } from './field-props.ts';
import { ForeignKeyField } from './foreign-key-field.tsx';
import { ImageField } from './image-field.tsx';
import { NumberField } from './number-field.tsx';
import { SwitchField } from './switch-field.tsx';
import { TextField } from './text-field.tsx';

/** One column's input, by the field kind row-fields.ts decided. `typed` and `onTyped`: the text left in a
 * foreign-key field that names no option (ForeignKeyField). */
export function RowFieldInput(
  props: FieldProps & {
    tableRef: TableRef;
    typed?: string | undefined;
    onTyped?: (text: string | null) => void;
  },
) {
  const { tableRef, typed, onTyped, ...field } = props;
  switch (props.field.kind) {
    case 'switch':
      return <SwitchField {...field} />;
    case 'image':
      return <ImageField {...field} />;
    case 'combobox':
      return <ForeignKeyField {...field} tableRef={tableRef} typed={typed} onTyped={onTyped} withLink />;
    case 'date':
    case 'datetime':
    case 'time':
      return <DateField {...field} />;
    case 'number':
      return <NumberField {...field} />;
    case 'textarea':
    case 'text':
      return <TextField {...field} />;
  }
}
