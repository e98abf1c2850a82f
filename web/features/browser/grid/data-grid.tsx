import type { KeyboardEvent } from 'react';
import { useId, useMemo } from 'react';
import { Skeleton, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import type { Column, Row, TableListItem } from '#common/contract/sql.ts';
import { ColumnTypeIcon, typeGroupLabel } from '#web/features/browser/column-type-icon.tsx';
import { copyText } from './cell-format.ts';
import { CellCopyButton, copyCellText, useCopiedCell } from './cell-copy-button.tsx';
import { CellValue } from './cell-value.tsx';
import classes from './data-grid.module.css';
import { gridColumns } from './grid-columns.ts';
import { cellKey, moveFocus, positionOf, useGridFocus } from './grid-focus.ts';
import { ariaSort, nextSort } from './sort-cycle.ts';
import { ShowValueButton } from './value-panel/show-value-button.tsx';
import { useValuePanel } from './value-panel/use-value-panel.tsx';
import { offersWholeValue } from './value-panel/value-kind.ts';

export interface DataGridProps {
  table: TableListItem;
  /** The page's rows as the API answered them. */
  rows: Row[];
  /** 'Name', '-Name' or null (spec 000 §3 sort string). */
  sort: string | null;
  /** Ascending → descending → none (spec 000 §4); the page goes back to 1 (the caller does that). */
  onSortChange: (sort: string | null) => void;
  /** A row click or Enter on a focused row. */
  onOpenRow: (row: Row) => void;
  /** True while the first page loads (nothing to show yet). */
  loading: boolean;
  /** True while the previous page stays shown as the next one loads. */
  stale: boolean;
  /** True when a search filters the rows: an empty answer then says no row matches, not that the table is empty. */
  filtered?: boolean;
}

/** The grid's own sentences (the spec has none for these states). */
export const gridMessages = {
  label: 'Rows',
  noMatch: 'No rows match.',
  empty: 'This table has no rows.',
  /** How the grid works from the keyboard, read with the grid (aria-describedby). */
  keys:
    'Arrow keys move between cells. Enter opens the row in the editor. Shift+Enter shows the whole value of a long ' +
    'text, JSON or binary cell. Control+C or Command+C copies the cell.',
} as const;

/** Skeleton rows shown while the first page loads. */
const SKELETON_ROWS = 5;

/** The grid's TanStack Table features: none beyond the core (the server sorts and pages); each column carries its
 * catalog entry as meta. */
const features = tableFeatures({ columnMeta: {} as { column: Column } });

/** Mantine's own class of a table cell, with the grid's. */
const cellClass = `${Table.classes.td} mantine-Table-td ${classes.cell}`;

const alignOf = (column: Column) => (column.typeGroup === 'Number' ? 'right' : undefined);

/** Whether the person has selected text on the page (then Ctrl+C copies that, as the browser does). */
const hasSelectedText = () => (window.getSelection()?.toString() ?? '') !== '';

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | 'none' }) {
  const Icon =
    direction === 'ascending' ? IconArrowUp : direction === 'descending' ? IconArrowDown : IconArrowsSort;
  return (
    <Icon
      className={classes.sortIcon}
      data-active={direction !== 'none' || undefined}
      size={14}
      aria-hidden
      focusable="false"
    />
  );
}

/**
 * The result grid (spec 000 §2, §4, §9): at most 8 columns, indexed first, sortable headers, cells by type. The
 * whole grid is one tab stop (the WAI-ARIA grid pattern, grid-focus.ts): the arrows, Home, End, Page Up and Page Down
 * move between the cells, the header row included (Enter or Space there sorts); Enter or a click opens a row;
 * Ctrl+C or ⌘+C copies the active cell, as its copy button does (shown on hover and with the keyboard focus).
 */
export function DataGrid({
  table,
  rows,
  sort,
  onSortChange,
  onOpenRow,
  loading,
  stale,
  filtered = false,
}: DataGridProps) {
  const shown = useMemo(() => gridColumns(table), [table]);
  const columns = useMemo<ColumnDef<typeof features, Row>[]>(
    () =>
      shown.map((column) => ({
        id: column.name,
        accessorFn: (row: Row) => row[column.name] ?? null,
        header: column.name,
        meta: { column },
      })),
    [shown],
  );
  const grid = useTable({ features, columns, data: rows });

  const [copiedCell, setCopiedCell] = useCopiedCell();
  const bounds = useMemo(
    () => ({ rows: loading ? 0 : rows.length, columns: Math.max(1, shown.length) }),
    [loading, rows.length, shown.length],
  );
  const { gridRef, tabIndexOf, focusCell, onFocus } = useGridFocus<HTMLTableElement>(bounds);
  const hintId = useId();
  // The whole of a long, JSON or binary value, in a side panel (value-panel/, decision 0064).
  const valuePanel = useValuePanel(table);

  /** Copies one cell's value (Ctrl+C or ⌘+C on the active cell, or its button). */
  const copyCell = (rowIndex: number, column: Column) => {
    const row = rows[rowIndex];
    const value = row?.[column.name] ?? null;
    if (value === null) return;
    const id = grid.getRowModel().rows[rowIndex]?.id ?? String(rowIndex);
    copyCellText(column.name, copyText(column, value), () => setCopiedCell(`${id}:${column.name}`));
  };

  const onGridKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const at = positionOf(event.target);
    if (!at || event.altKey) return;
    const control = event.ctrlKey || event.metaKey;
    const to = moveFocus(at, event.key, bounds, control);
    if (to) {
      event.preventDefault();
      focusCell(to);
      return;
    }
    // The header row's keys are its buttons' own (Enter and Space sort).
    if (at.row === 0) return;
    const row = rows[at.row - 1];
    const atColumn = shown[at.column];
    if (
      event.key === 'Enter' &&
      event.shiftKey &&
      row &&
      atColumn &&
      offersWholeValue(atColumn, row[atColumn.name] ?? null)
    ) {
      event.preventDefault();
      valuePanel.show(row, atColumn);
    } else if (event.key === 'Enter' && row && !event.defaultPrevented) {
      event.preventDefault();
      onOpenRow(row);
    } else if (control && event.key.toLowerCase() === 'c' && !hasSelectedText()) {
      // Text the person selected is theirs to copy; otherwise the shortcut copies the cell.
      const column = shown[at.column];
      if (column) {
        event.preventDefault();
        copyCell(at.row - 1, column);
      }
    }
  };

  const headerGroup = grid.getHeaderGroups()[0];
  const body = () => {
    if (loading) {
      return Array.from({ length: SKELETON_ROWS }, (_, index) => (
        <Table.Tr key={index}>
          {shown.map((column) => (
            <Table.Td key={column.name} role="gridcell">
              <Skeleton height={12} radius="sm" />
            </Table.Td>
          ))}
        </Table.Tr>
      ));
    }
    if (rows.length === 0) {
      return (
        <Table.Tr>
          <Table.Td role="gridcell" colSpan={Math.max(1, shown.length)} className={classes.message}>
            <Text c="dimmed" size="sm">
              {filtered ? gridMessages.noMatch : gridMessages.empty}
            </Text>
          </Table.Td>
        </Table.Tr>
      );
    }
    return grid.getRowModel().rows.map((row, index) => (
      <Table.Tr key={row.id} className={classes.row} data-row={index} onClick={() => onOpenRow(row.original)}>
        {row.getAllCells().map((cell, columnIndex) => {
          const column = cell.column.columnDef.meta?.column;
          if (!column) return null;
          const value = row.original[column.name] ?? null;
          const position = { row: index + 1, column: columnIndex };
          return (
            // A plain td with Table.Td's class: a page has up to 800 cells, and each Table.Td is a styled Box.
            <td
              key={cell.id}
              role="gridcell"
              className={cellClass}
              data-align={alignOf(column)}
              data-cell={cellKey(position)}
              tabIndex={tabIndexOf(position)}
              aria-keyshortcuts={
                value === null
                  ? undefined
                  : offersWholeValue(column, value)
                    ? 'Shift+Enter Control+C Meta+C'
                    : 'Control+C Meta+C'
              }
            >
              <CellValue column={column} value={value} />
              {offersWholeValue(column, value) && (
                <ShowValueButton column={column.name} onShow={() => valuePanel.show(row.original, column)} />
              )}
              {value !== null && (
                <CellCopyButton
                  className={classes.copy}
                  column={column.name}
                  text={() => copyText(column, value)}
                  copied={copiedCell === `${row.id}:${column.name}`}
                  onCopied={() => setCopiedCell(`${row.id}:${column.name}`)}
                />
              )}
            </td>
          );
        })}
      </Table.Tr>
    ));
  };

  return (
    <Table.ScrollContainer
      type="native"
      minWidth={shown.length * 96}
      classNames={{ scrollContainer: classes.scroll }}
    >
      <VisuallyHidden id={hintId}>{gridMessages.keys}</VisuallyHidden>
      <Table
        ref={gridRef}
        role="grid"
        aria-label={gridMessages.label}
        aria-describedby={hintId}
        onKeyDown={onGridKeyDown}
        onFocus={onFocus}
        aria-busy={loading || stale || undefined}
        className={classes.grid}
        data-stale={(stale && !loading) || undefined}
        stickyHeader
        highlightOnHover={!loading && rows.length > 0}
        verticalSpacing={6}
      >
        <Table.Thead>
          <Table.Tr>
            {headerGroup?.headers.map((header, columnIndex) => {
              const column = header.column.columnDef.meta?.column;
              if (!column) return null;
              const direction = ariaSort(sort, column.name);
              const position = { row: 0, column: columnIndex };
              return (
                <Table.Th
                  key={header.id}
                  aria-sort={direction}
                  className={classes.headerCell}
                  data-align={alignOf(column)}
                  ta={alignOf(column)}
                >
                  <UnstyledButton
                    className={classes.sortButton}
                    title={typeGroupLabel(column.typeGroup)}
                    data-cell={cellKey(position)}
                    tabIndex={tabIndexOf(position)}
                    onClick={() => onSortChange(nextSort(sort, column.name))}
                  >
                    <ColumnTypeIcon group={column.typeGroup} size={14} labelled={false} />
                    {column.name}
                    <SortIcon direction={direction} />
                  </UnstyledButton>
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body()}</Table.Tbody>
      </Table>
      {valuePanel.panel}
    </Table.ScrollContainer>
  );
}
