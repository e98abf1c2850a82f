import { useState } from 'react';
import { Combobox, InputBase, Loader, ScrollArea, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CellValue } from '#common/contract/sql.ts';
import { COMBOBOX_DEBOUNCE_MS } from '#common/limits.ts';
import { browserMessages } from '#common/messages.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { useForeignKeyChoices } from '#web/api/sql/foreign-keys.ts';
import { editorMessages as em } from '#web/features/browser/editor/editor-messages.ts';
import { sameValue } from '#web/features/browser/editor/row-fields.ts';
import { textOf, type FieldProps } from './field-props.ts';

/** The dropdown's height limit (spec 000 §9: max height 200 px). */
const DROPDOWN_MAX_HEIGHT = 200;

/** The label of the chosen key: looked up by the key itself (the server matches a term against the key exactly,
 * as well as label prefixes), so the field reads "Germany" rather than "DE". */
function useChosenLabel(ref: TableRef, column: string, value: CellValue): string | null {
  const term = value === null ? '' : String(value);
  const lookup = useForeignKeyChoices({ ...ref, column, term }, value !== null);
  if (value === null) return null;
  const options = lookup.data?.pages.flatMap((page) => page.options) ?? [];
  return options.find((option) => sameValue(option.key, value))?.label ?? null;
}

/**
 * A foreign-key column (spec 000 §5, §9): a combobox of the referenced rows, 25 per load and 25 more when the list
 * is scrolled to its end, the typed term sent after COMBOBOX_DEBOUNCE_MS, matches first (the server orders them),
 * at most 200 px high, 'No Options Available' when there are none or the person may not read the referenced table.
 */
export function ForeignKeyField({
  field,
  value,
  error,
  onChange,
  onBlur,
  tableRef,
}: FieldProps & { tableRef: TableRef }) {
  const { column } = field;
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch(null);
    },
  });
  // null: not searching, the input shows the chosen label.
  const [search, setSearch] = useState<string | null>(null);
  const [term] = useDebouncedValue(search ?? '', COMBOBOX_DEBOUNCE_MS);
  const opened = combobox.dropdownOpened && !field.readOnly;
  const choices = useForeignKeyChoices({ ...tableRef, column: column.name, term }, opened);
  // The option just chosen names itself until the lookup by key answers.
  const [picked, setPicked] = useState<{ key: CellValue; label: string } | null>(null);
  const lookedUp = useChosenLabel(tableRef, column.name, value);
  const chosenLabel = picked && sameValue(picked.key, value) ? picked.label : lookedUp;

  const pages = choices.data?.pages ?? [];
  const readable = pages.every((page) => page.canReadReferencedTable);
  const options = readable ? pages.flatMap((page) => page.options) : [];
  const shown = value === null ? '' : (chosenLabel ?? textOf(value));

  if (field.readOnly) {
    return (
      <InputBase
        label={column.name}
        value={shown}
        placeholder={value === null ? 'null' : undefined}
        readOnly
        variant="filled"
        data-column={column.name}
      />
    );
  }

  const clear =
    value !== null && column.isNullable ? (
      <Combobox.ClearButton
        aria-label={em.clearValue(column.name)}
        onClear={() => {
          onChange(null);
          onBlur();
        }}
      />
    ) : (
      <Combobox.Chevron />
    );

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(index) => {
        const option = options[Number(index)];
        if (option) {
          setPicked(option);
          onChange(option.key);
        }
        setSearch(null);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <InputBase
          label={column.name}
          value={search ?? shown}
          error={error}
          withAsterisk={field.required}
          placeholder={value === null ? 'null' : undefined}
          rightSection={clear}
          rightSectionPointerEvents={value !== null && column.isNullable ? 'all' : 'none'}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            onBlur();
          }}
          onChange={(event) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setSearch(event.currentTarget.value);
          }}
          data-column={column.name}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          <ScrollArea.Autosize
            mah={DROPDOWN_MAX_HEIGHT}
            type="scroll"
            onBottomReached={() => {
              if (choices.hasNextPage && !choices.isFetchingNextPage) void choices.fetchNextPage();
            }}
          >
            {options.map((option, index) => (
              <Combobox.Option
                value={String(index)}
                key={`${String(option.key)}`}
                active={sameValue(option.key, value)}
              >
                {option.label}
                {option.label !== String(option.key) && (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {String(option.key)}
                  </Text>
                )}
              </Combobox.Option>
            ))}
            {choices.isFetching && (
              <Combobox.Empty>
                <Loader size="xs" role="status" aria-label={em.loadingOptions} />
              </Combobox.Empty>
            )}
            {!choices.isFetching && options.length === 0 && (
              <Combobox.Empty>{browserMessages.noOptions}</Combobox.Empty>
            )}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
