import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button, Group, Paper, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { CellValue, Column, Row, TableListItem } from '#common/contract/sql.ts';
import {
  base64ByteCount,
  binaryText,
  byteSize,
  cutText,
  imageSource,
  numberText,
} from '#web/features/browser/grid/cell-format.ts';
import { conflictMessages as cm } from './conflict-messages.ts';
import {
  allMine,
  conflictFields,
  initialChoices,
  mergedRow,
  type Choice,
  type ConflictField,
  type RowConflictRows,
} from './row-conflict.ts';

export interface RowConflictProps {
  table: TableListItem;
  rows: RowConflictRows;
  /** The server's sentence saying why the save was refused. */
  message: string;
  saving: boolean;
  /** Saves these values over their row (with their row's version). */
  onSave: (values: Row) => void;
  /** Loads their row into the form, dropping the edits. */
  onTakeTheirs: () => void;
  /** Back to the form with the edits as they were. */
  onBack: () => void;
}

/** Each side as the "as opened" column: its name small and dimmed, the value in the text's own colour. */
const SIDE_STYLES = {
  label: { fontSize: 'var(--mantine-font-size-xs)', color: 'var(--mantine-color-dimmed)' },
  description: { color: 'var(--mantine-color-text)', marginTop: 2 },
} as const;

/** How much of a long text the comparison shows (the field keeps all of it). */
const TEXT_SHOWN = 1000;

/**
 * The conflict view of the row editor (docs/decisions/0045-row-versions.md): a save was refused because someone else
 * changed the row after it was opened. Each field that differs shows the value as it was opened, mine and theirs
 * side by side (one under the other on a phone), with a choice between mine and theirs: Keep mine, Take theirs, or
 * Save my choices. It takes the focus when it opens, so a screen reader starts at its title.
 */
export function RowConflict({
  table,
  rows,
  message,
  saving,
  onSave,
  onTakeTheirs,
  onBack,
}: RowConflictProps) {
  const fields = useMemo(() => conflictFields(table, rows), [table, rows]);
  const [choices, setChoices] = useState(() => initialChoices(fields));
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => heading.current?.focus(), []);

  return (
    <section aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} fz="md" id={headingId} ref={heading} tabIndex={-1}>
          {cm.title}
        </Title>
        <Text size="sm">{message}</Text>
        <Text size="sm" c="dimmed">
          {fields.length ? cm.explain : cm.same}
        </Text>
        {fields.map((field) => (
          <FieldChoice
            key={field.column.name}
            field={field}
            choice={choices[field.column.name] ?? 'theirs'}
            onChoose={(choice) => setChoices((current) => ({ ...current, [field.column.name]: choice }))}
          />
        ))}
      </Stack>
      <Group
        justify="flex-end"
        gap="xs"
        py="md"
        style={{ position: 'sticky', bottom: 0, zIndex: 2, background: 'var(--mantine-color-body)' }}
      >
        <Button variant="default" onClick={onBack} disabled={saving}>
          {cm.back}
        </Button>
        <Button variant="default" onClick={onTakeTheirs} disabled={saving}>
          {cm.takeTheirs}
        </Button>
        <Button
          variant="light"
          onClick={() => onSave(mergedRow(rows.theirs, fields, allMine(fields)))}
          disabled={saving}
        >
          {cm.keepMine}
        </Button>
        <Button onClick={() => onSave(mergedRow(rows.theirs, fields, choices))} loading={saving}>
          {cm.saveChoices}
        </Button>
      </Group>
    </section>
  );
}

/** Who changed a field, in words. */
function whoChanged(field: ConflictField): string {
  if (!field.canKeepMine) return cm.notWritable;
  if (field.changedByMe && field.changedByThem) return cm.changedByBoth;
  return field.changedByMe ? cm.changedByYou : cm.changedByThem;
}

/** One field: its name and who changed it, the value as opened, and mine and theirs to choose from. */
function FieldChoice({
  field,
  choice,
  onChoose,
}: {
  field: ConflictField;
  choice: Choice;
  onChoose: (choice: Choice) => void;
}) {
  const { column } = field;
  return (
    <Paper withBorder radius="md" p="sm">
      <Radio.Group
        name={`conflict-${column.name}`}
        label={column.name}
        description={whoChanged(field)}
        value={choice}
        onChange={(value) => onChoose(value === 'mine' ? 'mine' : 'theirs')}
      >
        <SimpleGrid type="container" cols={{ base: 1, '34rem': 3 }} spacing="sm" verticalSpacing="xs" mt="xs">
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {cm.original}
            </Text>
            <ConflictValue column={column} value={field.original} />
          </Stack>
          <Radio
            value="mine"
            disabled={!field.canKeepMine}
            label={cm.mine}
            description={<ConflictValue column={column} value={field.mine} />}
            styles={SIDE_STYLES}
          />
          <Radio
            value="theirs"
            label={cm.theirs}
            description={<ConflictValue column={column} value={field.theirs} />}
            styles={SIDE_STYLES}
          />
        </SimpleGrid>
      </Radio.Group>
    </Paper>
  );
}

/** A value as the comparison shows it: exact (dates and times as stored, so a second's difference shows), text
 * wrapped rather than cut short, an image as a small picture with its size. */
function ConflictValue({ column, value }: { column: Column; value: CellValue }) {
  if (value === null)
    return (
      <Text span size="sm" c="dimmed" fs="italic">
        {cm.empty}
      </Text>
    );
  const text = String(value);
  if (column.typeGroup === 'image') {
    const size = byteSize(base64ByteCount(text));
    return (
      <img
        src={imageSource(text)}
        alt={`${column.name}: ${cm.image(size)}`}
        title={size}
        style={{ display: 'block', maxHeight: 48, maxWidth: 96, objectFit: 'contain' }}
      />
    );
  }
  const shown =
    column.typeGroup === 'bit'
      ? value === true || text === '1' || text === 'true'
        ? cm.yes
        : cm.no
      : column.typeGroup === 'Binary'
        ? binaryText(text)
        : column.typeGroup === 'Number' && typeof value !== 'boolean'
          ? numberText(value, column)
          : cutText(text, TEXT_SHOWN);
  return (
    <Text
      span
      size="sm"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      title={shown !== text ? text : undefined}
    >
      {shown}
    </Text>
  );
}
