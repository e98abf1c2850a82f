import { useState } from 'react';
import { Combobox, InputBase, Loader, Text, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CellValue } from '#common/contract/sql.ts';
import { COMBOBOX_DEBOUNCE_MS } from '#common/limits.ts';
import { browserMessages } from '#common/messages.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { useForeignKeyChoices } from '#web/api/sql/foreign-keys.ts';
import { editorMessages as em } from '#web/features/browser/editor/editor-messages.ts';
import { sameValue } from '#web/features/browser/editor/row-fields.ts';
import { textOf, type FieldProps } from './field-props.ts';
import { ForeignKeyLink, useForeignKeyLink } from './foreign-key-link.tsx';

/** The link to the referenced row goes under the input (foreign-key-link.tsx). */
const LINK_BELOW: ('label' | 'input' | 'description' | 'error')[] = [
  'label',
  'input',
  'description',
  'error',
];

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

/** The foreign-key field's own props beside every field's: where its options come from, and the text left in it
 * that names no option (kept by the editor, so Save and Discard know of it). */
export interface ForeignKeyFieldProps extends FieldProps {
  tableRef: TableRef;
  typed?: string | undefined;
  onTyped?: (text: string | null) => void;
  /** The field's label when it is not the column's name (the filter builder's "Value"). */
  label?: string;
  /** A link under the field to the row its key names (the row editor's, decision 0067). */
  withLink?: boolean;
}

/** The one option the text names: its label (in any case) or its key, when exactly one loaded option has it. */
function namedOption<T extends { key: CellValue; label: string }>(options: T[], text: string): T | null {
  const wanted = text.toLowerCase();
  const named = options.filter((o) => o.label.toLowerCase() === wanted || String(o.key) === text);
  return named.length === 1 ? (named[0] ?? null) : null;
}

/**
 * A foreign-key column (spec 000 §5, §9): a combobox of the referenced rows, 25 per load and 25 more when the list
 * is scrolled to its end, the typed term sent after COMBOBOX_DEBOUNCE_MS, its matches first and then every other
 * option under 'Other options' (the server orders them), at most 200 px high, 'No Options Available' when there are
 * none or the person may not read the referenced table. Leaving the field with text that names one option exactly
 * (its label or key) chooses it; text that names none stays in the field with a message (`onTyped`), so Save cannot
 * drop it without a word.
 */
export function ForeignKeyField({
  field,
  value,
  error,
  onChange,
  onBlur,
  tableRef,
  typed,
  onTyped,
  label = field.column.name,
  withLink = false,
}: ForeignKeyFieldProps) {
  const { column } = field;
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // null: not searching, the input shows the chosen label (or the text left in it).
  const [search, setSearch] = useState<string | null>(null);
  const [term] = useDebouncedValue(search?.trim() ?? '', COMBOBOX_DEBOUNCE_MS);
  const opened = combobox.dropdownOpened && !field.readOnly;
  const choices = useForeignKeyChoices({ ...tableRef, column: column.name, term }, opened);
  // The option just chosen names itself until the lookup by key answers.
  const [picked, setPicked] = useState<{ key: CellValue; label: string } | null>(null);
  const lookedUp = useChosenLabel(tableRef, column.name, value);
  const link = useForeignKeyLink(tableRef, column.name, withLink ? value : null);
  const linkProps = link
    ? { description: <ForeignKeyLink link={link} />, inputWrapperOrder: LINK_BELOW }
    : {};
  const chosenLabel = picked && sameValue(picked.key, value) ? picked.label : lookedUp;

  const pages = choices.data?.pages ?? [];
  const readable = pages.every((page) => page.canReadReferencedTable);
  const options = readable ? pages.flatMap((page) => page.options) : [];
  const shown = value === null ? '' : (chosenLabel ?? textOf(value));
  // With a term: its matches, then the others under their own heading; without one every option is listed alike.
  const listed = options.map((option, index) => ({ option, index }));
  const matches = term ? listed.filter(({ option }) => option.isMatch) : listed;
  const others = term ? listed.filter(({ option }) => !option.isMatch) : [];
  const placeholder = value === null ? (field.setByDatabase ? em.setByDatabase : 'null') : undefined;

  if (field.readOnly) {
    return (
      <InputBase
        label={label}
        value={shown}
        placeholder={placeholder}
        readOnly
        variant="filled"
        data-column={column.name}
        {...linkProps}
      />
    );
  }

  const choose = (option: { key: CellValue; label: string }) => {
    setPicked(option);
    onChange(option.key);
  };

  /** Leaving the field: text that names one option chooses it, emptied text clears a nullable field, other text
   * stays with its message; the same text as the chosen label changes nothing. */
  const leave = () => {
    combobox.closeDropdown();
    const text = search;
    setSearch(null);
    if (text !== null) {
      const wanted = text.trim();
      const option = wanted === '' ? null : namedOption(options, wanted);
      if (wanted === '' || wanted === shown) {
        if (wanted === '' && column.isNullable && value !== null) onChange(null);
        else onTyped?.(null);
      } else if (option) choose(option);
      else onTyped?.(text);
    }
    onBlur();
  };

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

  const optionNode = ({ option, index }: { option: (typeof options)[number]; index: number }) => (
    <Combobox.Option value={String(index)} key={String(option.key)} active={sameValue(option.key, value)}>
      {option.label}
      {option.label !== String(option.key) && (
        <Text span size="xs" c="dimmed" ml={6}>
          {String(option.key)}
        </Text>
      )}
    </Combobox.Option>
  );

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(index) => {
        const option = options[Number(index)];
        if (option) choose(option);
        setSearch(null);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target withExpandedAttribute>
        <InputBase
          label={label}
          value={search ?? typed ?? shown}
          error={error}
          withAsterisk={field.required}
          placeholder={placeholder}
          rightSection={clear}
          rightSectionPointerEvents={value !== null && column.isNullable ? 'all' : 'none'}
          onClick={() => combobox.openDropdown()}
          onFocus={() => {
            if (typed !== undefined && search === null) setSearch(typed);
            combobox.openDropdown();
          }}
          onBlur={leave}
          onChange={(event) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setSearch(event.currentTarget.value);
          }}
          data-column={column.name}
          {...linkProps}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        {/* The list scrolls itself (not a ScrollArea around it): a scrolling list box that the input controls is
            the combobox's popup, which keyboard users reach through the input's arrows. */}
        <Combobox.Options
          aria-label={em.optionsOf(column.name)}
          mah={DROPDOWN_MAX_HEIGHT}
          style={{ overflowY: 'auto' }}
          onScroll={(event) => {
            const list = event.currentTarget;
            const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
            if (atEnd && choices.hasNextPage && !choices.isFetchingNextPage) void choices.fetchNextPage();
          }}
        >
          {term !== '' && matches.length === 0 && others.length > 0 && (
            <Text size="sm" c="dimmed" px="sm" py={6}>
              {em.noMatch(term)}
            </Text>
          )}
          {matches.map(optionNode)}
          {others.length > 0 && (
            <Combobox.Group label={em.otherOptions}>{others.map(optionNode)}</Combobox.Group>
          )}
          {choices.isFetching && (
            <Combobox.Empty>
              <Loader size="xs" role="status" aria-label={em.loadingOptions} />
            </Combobox.Empty>
          )}
          {!choices.isFetching && options.length === 0 && (
            <Combobox.Empty>{browserMessages.noOptions}</Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
