import { useId, useMemo, useState, type DragEvent } from 'react';
import { ActionIcon, Box, Button, Checkbox, Group, Popover, Text, TextInput } from '@mantine/core';
import {
  IconChevronDown,
  IconChevronUp,
  IconColumns,
  IconGripVertical,
  IconPin,
  IconPinFilled,
  IconSearch,
} from '@tabler/icons-react';
import type { Column, Table } from '#common/contract/sql.ts';
import {
  choosableColumns,
  effectiveLayout,
  moveColumn,
  moveColumnTo,
  setColumnPinned,
  setColumnShown,
} from '#web/features/browser/grid/column-layout.ts';
import type { ColumnLayout } from './columns-param.ts';
import classes from './columns-menu.module.css';

export interface ColumnsMenuProps {
  table: Pick<Table, 'columns'>;
  /** The address's layout; null: the spec's default. */
  layout: ColumnLayout | null;
  /** A new layout (null: the default), written into the address by the caller. */
  onChange: (layout: ColumnLayout | null) => void;
  /** Open at once (the first click happened before this code loaded). */
  openAtStart?: boolean;
}

/** The chooser's sentences. */
export const columnsMessages = {
  title: 'Columns',
  search: 'Find a column',
  none: 'No column matches.',
  reset: 'Reset to default',
  list: 'Columns of the grid',
  show: (name: string) => `Show ${name}`,
  pin: (name: string) => `Pin ${name}`,
  unpin: (name: string) => `Unpin ${name}`,
  up: (name: string) => `Move ${name} up`,
  down: (name: string) => `Move ${name} down`,
  drag: (name: string) => `Drag ${name} to reorder`,
} as const;

/**
 * The column chooser (decision 0063): a search box; every column the person may read, the shown ones first in the
 * grid's order, each with a checkbox (shown or not), a pin, Move up and Move down; the shown ones also move by drag
 * and drop; Reset to default. Every change is a new layout for the address, so it can be bookmarked and shared.
 */
export function ColumnsMenu({ table, layout, onChange, openAtStart = false }: ColumnsMenuProps) {
  const [opened, setOpened] = useState(openAtStart);
  const [query, setQuery] = useState('');
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const headingId = useId();

  const shown = useMemo(() => effectiveLayout(table, layout), [table, layout]);
  const rows = useMemo(() => {
    const byName = new Map(choosableColumns(table).map((column) => [column.name, column]));
    const first = shown.flatMap((entry) => {
      const column = byName.get(entry.name);
      return column ? [{ column, index: shown.indexOf(entry), pinned: entry.pinned === true }] : [];
    });
    const names = new Set(shown.map((entry) => entry.name));
    const rest = choosableColumns(table)
      .filter((column) => !names.has(column.name))
      .map((column) => ({ column, index: -1, pinned: false }));
    return [...first, ...rest];
  }, [table, shown]);
  const needle = query.trim().toLowerCase();
  const visible = needle === '' ? rows : rows.filter((row) => row.column.name.toLowerCase().includes(needle));
  const pinnedCount = shown.filter((entry) => entry.pinned).length;

  // A move that reaches the end disables its button, which would drop the focus: it goes to the other move button.
  const move = (name: string, by: -1 | 1, atEnd: boolean) => {
    onChange(moveColumn(table, layout, name, by));
    if (!atEnd) return;
    const other = by < 0 ? columnsMessages.down(name) : columnsMessages.up(name);
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>(`[data-move][aria-label="${CSS.escape(other)}"]`)?.focus(),
    );
  };

  const drop = (target: Column, event: DragEvent) => {
    event.preventDefault();
    const name = dragged ?? event.dataTransfer.getData('text/plain');
    setDragged(null);
    setOver(null);
    const to = shown.findIndex((entry) => entry.name === target.name);
    if (name && to >= 0 && name !== target.name) onChange(moveColumnTo(table, layout, name, to));
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      // Below the button always (the list scrolls inside): flipped above, it covered the page's header on phones.
      middlewares={{ flip: false, shift: true }}
      width="min(340px, calc(100vw - 16px))"
      shadow="md"
      trapFocus
      returnFocus
      withinPortal
    >
      <Popover.Target>
        <Button
          variant={layout ? 'light' : 'default'}
          leftSection={<IconColumns size={16} aria-hidden="true" />}
          aria-haspopup="dialog"
          onClick={() => setOpened((current) => !current)}
          style={{ flexShrink: 0 }}
        >
          {columnsMessages.title}
        </Button>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-labelledby={headingId} p="sm">
        {/* Reset sits at the top, beside the title: always near the button, however long the list. */}
        <Group justify="space-between" wrap="nowrap" mb="xs">
          <Text id={headingId} fw={700} size="sm">
            {columnsMessages.title}
          </Text>
          <Button variant="default" size="xs" disabled={layout === null} onClick={() => onChange(null)}>
            {columnsMessages.reset}
          </Button>
        </Group>
        <TextInput
          aria-label={columnsMessages.search}
          placeholder={columnsMessages.search}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          data-autofocus
          size="sm"
          mb="xs"
        />
        <Box className={classes.scroller}>
          {visible.length === 0 ? (
            <Text c="dimmed" size="sm" py="xs">
              {columnsMessages.none}
            </Text>
          ) : (
            <ul className={classes.list} aria-label={columnsMessages.list}>
              {visible.map(({ column, index, pinned }) => {
                const isShown = index >= 0;
                // Pinned columns stay first: a move never crosses the line between pinned and not.
                const canUp = isShown && index > 0 && (pinned || index > pinnedCount);
                const canDown = isShown && index < shown.length - 1 && (!pinned || index < pinnedCount - 1);
                return (
                  <li
                    key={column.name}
                    className={classes.item}
                    data-shown={isShown || undefined}
                    data-dragged={dragged === column.name || undefined}
                    data-over={(over === column.name && dragged !== column.name) || undefined}
                    draggable={isShown}
                    onDragStart={(event) => {
                      event.dataTransfer.setData('text/plain', column.name);
                      event.dataTransfer.effectAllowed = 'move';
                      setDragged(column.name);
                    }}
                    onDragEnd={() => {
                      setDragged(null);
                      setOver(null);
                    }}
                    onDragOver={(event) => {
                      if (!isShown || dragged === null) return;
                      event.preventDefault();
                      setOver(column.name);
                    }}
                    onDrop={(event) => isShown && drop(column, event)}
                  >
                    <IconGripVertical
                      size={16}
                      className={classes.grip}
                      aria-hidden="true"
                      data-hidden={!isShown || undefined}
                    />
                    <Checkbox
                      className={classes.check}
                      size="sm"
                      label={column.name}
                      aria-label={columnsMessages.show(column.name)}
                      checked={isShown}
                      disabled={isShown && shown.length === 1}
                      onChange={(event) =>
                        onChange(setColumnShown(table, layout, column.name, event.currentTarget.checked))
                      }
                      styles={{ label: { overflowWrap: 'anywhere' } }}
                    />
                    <Group gap={2} wrap="nowrap" className={classes.actions}>
                      <ActionIcon
                        variant={pinned ? 'light' : 'subtle'}
                        color={pinned ? undefined : 'gray'}
                        aria-label={
                          pinned ? columnsMessages.unpin(column.name) : columnsMessages.pin(column.name)
                        }
                        aria-pressed={pinned}
                        disabled={!isShown}
                        onClick={() => onChange(setColumnPinned(table, layout, column.name, !pinned))}
                      >
                        {pinned ? (
                          <IconPinFilled size={16} aria-hidden="true" />
                        ) : (
                          <IconPin size={16} aria-hidden="true" />
                        )}
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={columnsMessages.up(column.name)}
                        data-move
                        disabled={!canUp}
                        onClick={() => move(column.name, -1, index - 1 === (pinned ? 0 : pinnedCount))}
                      >
                        <IconChevronUp size={16} aria-hidden="true" />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={columnsMessages.down(column.name)}
                        data-move
                        disabled={!canDown}
                        onClick={() =>
                          move(column.name, 1, index + 1 === (pinned ? pinnedCount - 1 : shown.length - 1))
                        }
                      >
                        <IconChevronDown size={16} aria-hidden="true" />
                      </ActionIcon>
                    </Group>
                  </li>
                );
              })}
            </ul>
          )}
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}
