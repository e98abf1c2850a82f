import { useRef } from 'react';
import { NumberInput } from '@mantine/core';
import { emptyText, textOf, type FieldProps } from './field-props.ts';

/**
 * A number column (spec 000 §5): step 10^-scale, exactly `scale` decimals for exact decimals. The value goes to the
 * server as the text typed ('12.50', or a whole number beyond 2^53), never through a float, so decimals stay exact.
 */
export function NumberField({ field, value, error, onChange, onBlur }: FieldProps) {
  const format = field.number ?? { step: 1, decimalScale: undefined, allowDecimal: true };
  // react-number-format's own text of the value; Mantine's onChange gives a number, which may have lost digits.
  const typed = useRef<string | null>(null);
  return (
    <NumberInput
      label={field.column.name}
      value={textOf(value)}
      error={error}
      withAsterisk={field.required}
      readOnly={field.readOnly}
      variant={field.readOnly ? 'filled' : 'default'}
      hideControls={field.readOnly}
      placeholder={value === null ? emptyText(field) : undefined}
      step={format.step}
      decimalScale={format.decimalScale}
      fixedDecimalScale={format.decimalScale !== undefined && format.decimalScale > 0}
      allowDecimal={format.allowDecimal}
      onValueChange={(values) => {
        typed.current = values.value;
      }}
      onChange={(next) => {
        if (next === '' || next === null) return onChange(null);
        if (typeof next === 'string') return onChange(next);
        const text = typed.current;
        if (text !== null && text !== '' && Number(text) === next) return onChange(text);
        onChange(format.decimalScale !== undefined ? next.toFixed(format.decimalScale) : String(next));
      }}
      onBlur={onBlur}
      data-column={field.column.name}
    />
  );
}
