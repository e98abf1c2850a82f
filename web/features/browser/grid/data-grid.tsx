import type { KeyboardEvent } from 'react';
import { useMemo, useRef, useState } from 'react';
import { Skeleton, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import type { Column, Row, TableListItem } from '#common/contract/sql.ts';
import { ColumnTypeIcon, typeGroupLabel } from '#web/features/browser/column-type-icon.tsx';
import { copyText } from './cell-format.ts';
import { CellCopyButton, useCopiedCell } from './cell-copy-button.tsx';
import { CellValue } from './cell-value.tsx';
import classes from './data-grid.module.css';
import { gridColumns } from './grid-columns.ts';
import { ariaSort, nextSort } from './sort-cycle.ts';

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
} as const;

/** Skeleton rows shown while the first page loads. */
const SKELETON_ROWS = 5;

/** The grid's TanStack Table features: none beyond the core (the server sorts and pages); each column carries its
 * catalog entry as meta. */
const features = tableFeatures({ columnMeta: {} as { column: Column } });

/** Mantine's own class of a table cell, with the grid's. */
const cellClass = `${Table.classes.td} mantine-Table-td ${classes.cell}`;

const alignOf = (column: Column) => (column.typeGroup === 'Number' ? 'right' : undefined);

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
 * The result grid (spec 000 §2, §4, §9): at most 8 columns, indexed first, sortable headers, cells by type. Rows are
 * one tab stop (the active row; the arrows, Home and End move between rows); Enter or a click opens a row; Tab from
 * a row reaches its cells' copy buttons.
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
  const [active, setActive] = useState(0);
  const activeIndex = Math.max(0, Math.min(active, rows.length - 1));
  const rowElements = useRef<(HTMLTableRowElement | null)[]>([]);

  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(index, rows.length - 1));
    setActive(target);
    rowElements.current[target]?.focus();
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, index: number, row: Row) => {
    // Keys pressed on a copy button inside the row are the button's own.
    if (event.target !== event.currentTarget) return;
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: rows.length - 1,
    };
    const to = moves[event.key];
    if (to !== undefined) {
      event.preventDefault();
      focusRow(to);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      onOpenRow(row);
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
      <Table.Tr
        key={row.id}
        ref={(element) => {
          rowElements.current[index] = element;
        }}
        className={classes.row}
        tabIndex={index === activeIndex ? 0 : -1}
        onFocus={(event) => {
          if (event.target === event.currentTarget) setActive(index);
        }}
        onClick={() => onOpenRow(row.original)}
        onKeyDown={(event) => onRowKeyDown(event, index, row.original)}
      >
        {row.getAllCells().map((cell) => {
          const column = cell.column.columnDef.meta?.column;
          if (!column) return null;
          const value = row.original[column.name] ?? null;
          return (
            // A plain td with Table.Td's class: a page has up to 800 cells, and each Table.Td is a styled Box.
            <td key={cell.id} role="gridcell" className={cellClass} data-align={alignOf(column)}>
              <CellValue column={column} value={value} />
              {value !== null && (
                <CellCopyButton
                  className={classes.copy}
                  column={column.name}
                  text={() => copyText(column, value)}
                  focusable={index === activeIndex}
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
      <Table
        role="grid"
        aria-label={gridMessages.label}
        aria-busy={loading || stale || undefined}
        className={classes.grid}
        data-stale={(stale && !loading) || undefined}
        stickyHeader
        highlightOnHover={!loading && rows.length > 0}
        verticalSpacing={6}
      >
        <Table.Thead>
          <Table.Tr>
            {headerGroup?.headers.map((header) => {
              const column = header.column.columnDef.meta?.column;
              if (!column) return null;
              const direction = ariaSort(sort, column.name);
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
    </Table.ScrollContainer>
  );
}
