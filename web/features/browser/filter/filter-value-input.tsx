import '@mantine/dates/styles.css';
import { Group, NumberInput, Switch, TagsInput, TextInput } from '@mantine/core';
import { DateInput, TimeInput } from '@mantine/dates';
import { FILTER_IN_MAX_VALUES, noValueOps } from '#common/contract/filter.ts';
import type { CellValue, Column } from '#common/contract/sql.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { ForeignKeyField } from '#web/features/browser/editor/fields/foreign-key-field.tsx';
import { fieldKind, numberFormat, type RowField } from '#web/features/browser/editor/row-fields.ts';
import type { DraftCondition } from './filter-draft.ts';

/*
 * A condition's value input by its column's type (issue 35): a switch for bit, a date input with its calendar for
 * dates, a time input for times, a number input that keeps the column's scale, the row editor's foreign-key combobox
 * for a key column, text otherwise; two of them for between, a list of values for in, none for isNull / isNotNull.
 * Values are kept as the text the inputs give (filter-draft.ts turns them into the document's values).
 */

const PLACEHOLDERS: Partial<Record<Column['typeGroup'], string>> = {
  Number: 'A number',
  Date: 'YYYY-MM-DD',
  Time: 'HH:MM:SS',
  guid: '8-4-4-4-12 hexadecimal',
};

export interface FilterValueInputProps {
  condition: DraftCondition;
  column: Column;
  tableRef: TableRef;
  /** The value's problem, shown under it. */
  error: string | undefined;
  onValue: (value: string) => void;
  onValues: (values: string[]) => void;
}

export function FilterValueInput({
  condition,
  column,
  tableRef,
  error,
  onValue,
  onValues,
}: FilterValueInputProps) {
  if (noValueOps.includes(condition.op)) return null;
  if (condition.op === 'in') {
    return (
      <TagsInput
        label="Values"
        description={
          column.typeGroup === 'Text' ? 'Enter after each value' : 'Enter or a comma after each value'
        }
        placeholder={PLACEHOLDERS[column.typeGroup] ?? 'A value'}
        value={condition.values}
        onChange={onValues}
        splitChars={column.typeGroup === 'Text' ? [] : [',', ' ']}
        maxTags={FILTER_IN_MAX_VALUES}
        allowDuplicates={false}
        clearable
        error={error}
        style={{ flex: '1 1 16rem', minWidth: 0 }}
        data-field="value"
      />
    );
  }
  if (condition.op === 'between') {
    const [from = '', to = ''] = condition.values;
    return (
      <Group
        gap="xs"
        wrap="nowrap"
        align="flex-start"
        style={{ flex: '1 1 16rem', minWidth: 0 }}
        data-field="value"
      >
        <OneValue
          column={column}
          tableRef={tableRef}
          label="From"
          value={from}
          error={error}
          onChange={(next) => onValues([next, to])}
        />
        <OneValue
          column={column}
          tableRef={tableRef}
          label="To"
          value={to}
          error={error ? ' ' : undefined}
          onChange={(next) => onValues([from, next])}
        />
      </Group>
    );
  }
  return (
    <div style={{ flex: '1 1 12rem', minWidth: 0 }} data-field="value">
      <OneValue
        column={column}
        tableRef={tableRef}
        label="Value"
        value={condition.value}
        error={error}
        onChange={onValue}
        keyChoices={condition.op === 'eq' || condition.op === 'ne'}
      />
    </div>
  );
}

/** A foreign-key column as the row editor's combobox sees it: editable, never required. */
function keyField(column: Column): RowField {
  return {
    column,
    kind: 'combobox',
    group: 'combobox',
    width: 2,
    readOnly: false,
    required: false,
    setByDatabase: false,
    number: null,
  };
}

function OneValue({
  column,
  tableRef,
  label,
  value,
  error,
  onChange,
  keyChoices = false,
}: {
  column: Column;
  tableRef: TableRef;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  /** A key column's value is chosen among the referenced rows (equality only). */
  keyChoices?: boolean;
}) {
  const common = { label, error, style: { flex: 1, minWidth: 0 } };
  if (column.typeGroup === 'bit') {
    return (
      <Switch
        label={label}
        checked={value === 'true' || value === '1'}
        onChange={(event) => onChange(event.currentTarget.checked ? 'true' : 'false')}
        description={value === 'true' || value === '1' ? 'true' : 'false'}
        error={error}
        mt="lg"
      />
    );
  }
  if (keyChoices && column.isForeignKey) {
    return (
      <ForeignKeyField
        field={keyField(column)}
        tableRef={tableRef}
        label={label}
        value={value === '' ? null : (value as CellValue)}
        error={error}
        onChange={(next) => onChange(next === null ? '' : String(next))}
        onBlur={() => undefined}
      />
    );
  }
  if (column.typeGroup === 'Number') {
    const format = numberFormat(column);
    return (
      <NumberInput
        {...common}
        value={value}
        placeholder={PLACEHOLDERS.Number}
        step={format.step}
        decimalScale={format.decimalScale}
        allowDecimal={format.allowDecimal}
        // The text as typed: exact decimals and whole numbers beyond 2^53 never pass through a float.
        onValueChange={(values) => onChange(values.value)}
      />
    );
  }
  if (column.typeGroup === 'Date') {
    return (
      <DateInput
        {...common}
        value={/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null}
        onChange={(date) => onChange(date ?? '')}
        valueFormat="YYYY-MM-DD"
        placeholder={PLACEHOLDERS.Date}
        clearable
        popoverProps={{ withinPortal: true }}
      />
    );
  }
  if (column.typeGroup === 'Time' && fieldKind(column) === 'time') {
    return (
      <TimeInput
        {...common}
        withSeconds
        value={value}
        onChange={(event) => {
          const next = event.currentTarget.value;
          onChange(next.length === 5 ? `${next}:00` : next);
        }}
      />
    );
  }
  return (
    <TextInput
      {...common}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      placeholder={PLACEHOLDERS[column.typeGroup] ?? 'A value'}
      autoComplete="off"
      spellCheck={false}
    />
  );
}
