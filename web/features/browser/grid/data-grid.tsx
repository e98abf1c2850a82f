import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { lazy, Suspense, useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Skeleton, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import type { Column, Row, TableListItem } from '#common/contract/sql.ts';
import { ColumnTypeIcon, typeGroupLabel } from '#web/features/browser/column-type-icon.tsx';
import { CellCopyButton, copyCellText, useCopiedCell } from './cell-copy-button.tsx';
import { CellValue } from './cell-value.tsx';
import { cutLengthOf, wholeCopyText } from './cut-values.ts';
import { ForeignKeyCell, followCellLink, type CellLinks } from './foreign-key-cell.tsx';
import classes from './data-grid.module.css';
import type { ColumnLayout } from '#web/features/browser/columns/columns-param.ts';
import { setColumnWidth, shownColumns, type ShownColumn } from './column-layout.ts';
import { ColumnResizeHandle } from './column-resize-handle.tsx';
import {
  allParts,
  allRows,
  plannedWidth,
  sameRange,
  unmeasuredRange,
  WINDOW_FROM_COLUMNS,
  windowParts,
  type WindowRange,
} from './column-window.ts';
import { cellKey, moveFocus, positionOf, useGridFocus } from './grid-focus.ts';
import { isSortable } from '#common/sorting.ts';
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
  /** The columns shown, their order, widths and pins (grid/column-layout.ts); null or absent: the spec's default. */
  layout?: ColumnLayout | null;
  /** A column resized (null: back to the default layout); without it the columns cannot be resized. */
  onLayoutChange?: (layout: ColumnLayout | null) => void;
  /** The page's foreign-key links (foreign-key-cell.tsx, decision 0067); absent: every key is a plain value. */
  links?: CellLinks | null;
  /** Rows chosen for a bulk change (bulk/row-selection.ts): a checkbox column first; absent: none. */
  selection?: GridSelection | null;
}

/** The grid's checkbox column: whether a row is chosen, a row's box clicked (shift: the range from the last one
 * clicked), the header's box (the page's rows, or none), and how a row's box is named. */
export interface GridSelection {
  has: (row: Row) => boolean;
  toggle: (index: number, shift: boolean) => void;
  togglePage: () => void;
  label: (row: Row) => string;
}

/** The grid's own sentences (the spec has none for these states). */
export const gridMessages = {
  label: 'Rows',
  noMatch: 'No rows match.',
  empty: 'This table has no rows.',
  /** How the grid works from the keyboard, read with the grid (aria-describedby). */
  keys:
    'Arrow keys move between cells. Enter opens the row in the editor, or on a linked key the row it names. Shift+Enter shows the whole value of a long ' +
    'text, JSON or binary cell. Control+C or Command+C copies the cell.',
} as const;

/** The window of a wide grid, loaded for one only (column-window.ts). */
const LazyGridWindow = lazy(() => import('./grid-window.tsx'));

/** Skeleton rows shown while the first page loads. */
const SKELETON_ROWS = 5;

/** The grid's TanStack Table features: none beyond the core (the server sorts and pages); each column carries its
 * catalog entry as meta. */
const features = tableFeatures({ columnMeta: {} as { column: Column; shown: ShownColumn } });

/** The width the grid plans for a column it sizes itself (the scroll container's minimum width). */
const AUTO_WIDTH = 96;

/** A shown column's width and pin as a cell's style and data attributes. */
function placement(shown: ShownColumn, left: number | undefined, lastPinned: boolean) {
  const style: CSSProperties & Record<`--${string}`, string> = {};
  if (shown.width !== undefined) {
    style.width = shown.width;
    style.minWidth = shown.width;
    style.maxWidth = shown.width;
    style['--cell-width'] = `${shown.width}px`;
  }
  if (shown.pinned) style.left = left ?? 0;
  return {
    style,
    'data-sized': shown.width !== undefined || undefined,
    'data-pinned': shown.pinned || undefined,
    'data-last-pinned': lastPinned || undefined,
  };
}

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
 * The result grid (spec 000 §2, §4, §9): by default at most 8 columns, indexed first; the column layout (the address's
 * cols=, decision 0063) chooses others, their order, widths (a resize handle at each header's right edge) and pinned
 * columns (sticky at the left); sortable headers, cells by type. The
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
  layout = null,
  onLayoutChange,
  links = null,
  selection = null,
}: DataGridProps) {
  // The checkbox column is column 0 of the keyboard model when there is one; the data columns follow it.
  const off = selection ? 1 : 0;
  const placed = useMemo(() => shownColumns(table, layout), [table, layout]);
  const shown = useMemo(() => placed.map((entry) => entry.column), [placed]);
  const columns = useMemo<ColumnDef<typeof features, Row>[]>(
    () =>
      placed.map((entry) => ({
        id: entry.column.name,
        accessorFn: (row: Row) => row[entry.column.name] ?? null,
        header: entry.column.name,
        meta: { column: entry.column, shown: entry },
      })),
    [placed],
  );
  const grid = useTable({ features, columns, data: rows });

  const [copiedCell, setCopiedCell] = useCopiedCell();
  const bounds = useMemo(
    () => ({ rows: loading ? 0 : rows.length, columns: Math.max(1, shown.length + off) }),
    [loading, rows.length, shown.length, off],
  );
  const { gridRef, active, tabIndexOf, focusCell, onFocus } = useGridFocus<HTMLTableElement>(bounds);
  const pinnedCount = placed.filter((entry) => entry.pinned).length;
  // A wide grid renders the columns and rows in sight only, with planned widths (column-window.ts); its window's
  // code (grid-window.tsx) loads for such a grid only. The focus model counts the header as row 0.
  const scrollRef = useRef<HTMLDivElement>(null);
  const windowed = placed.length >= WINDOW_FROM_COLUMNS;
  const widths = useMemo(() => (windowed ? placed.map(plannedWidth) : null), [windowed, placed]);
  const totalWidth = widths ? widths.reduce((sum, width) => sum + width, 0) : null;
  const [measured, setMeasured] = useState<WindowRange | null>(null);
  const onWindow = useCallback(
    (range: WindowRange) => setMeasured((current) => (sameRange(current, range) ? current : range)),
    [],
  );
  const rowCount = loading ? 0 : rows.length;
  const range = windowed
    ? (measured ?? unmeasuredRange(placed.length, pinnedCount, active.column - off, rowCount, active.row - 1))
    : null;
  const parts = widths && range ? windowParts(range.columns, widths) : allParts(placed.length);
  const rowParts = range ? range.rows : allRows(rowCount);
  const hintId = useId();
  // The whole of a long, JSON or binary value, in a side panel (value-panel/, decision 0064).
  const valuePanel = useValuePanel(table);

  // Pinned columns stick at the left, each after the ones before it: their left offsets are the widths of the pinned
  // headers before them, measured (a pinned column the grid sizes itself has no width in the layout).
  const [pinLefts, setPinLefts] = useState<number[]>([]);
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid || pinnedCount === 0) {
      setPinLefts((current) => (current.length === 0 ? current : []));
      return;
    }
    const measure = () => {
      const headers = [...grid.querySelectorAll<HTMLElement>('thead th[data-pinned]')];
      const lefts: number[] = [];
      let left = 0;
      for (const header of headers) {
        lefts.push(left);
        left += header.getBoundingClientRect().width;
      }
      setPinLefts((current) =>
        current.length === lefts.length && current.every((value, index) => value === lefts[index])
          ? current
          : lefts,
      );
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    grid.querySelectorAll('thead th[data-pinned]').forEach((header) => observer?.observe(header));
    return () => observer?.disconnect();
  }, [gridRef, pinnedCount, placed]);
  const placementOf = (entry: ShownColumn, columnIndex: number) => ({
    ...placement(
      widths ? { ...entry, width: widths[columnIndex] } : entry,
      pinLefts[columnIndex],
      entry.pinned && columnIndex === pinnedCount - 1,
    ),
    // Where the cell is among all the columns, when the grid renders only some.
    'aria-colindex': windowed ? columnIndex + 1 + off : undefined,
  });
  /** The cells of one row: each part's cell, or an empty one as wide as the columns left out. */
  const cellsOf = (cell: (index: number) => ReactNode, Gap: 'td' | 'th' = 'td') =>
    parts.map((part) =>
      part.kind === 'gap' ? (
        <Gap key={part.key} role="presentation" className={classes.gap} style={{ width: part.width }} />
      ) : (
        cell(part.index)
      ),
    );
  const resize = (name: string, width: number) =>
    onLayoutChange?.(setColumnWidth(table, layout, name, width));
  const minWidth = totalWidth ?? placed.reduce((sum, entry) => sum + (entry.width ?? AUTO_WIDTH), 0);

  /** Copies one cell's value (Ctrl+C or ⌘+C on the active cell, or its button). */
  const copyCell = (rowIndex: number, column: Column) => {
    const row = rows[rowIndex];
    const value = row?.[column.name] ?? null;
    if (!row || value === null) return;
    const id = grid.getRowModel().rows[rowIndex]?.id ?? String(rowIndex);
    copyCellText(column.name, wholeCopyText(table, row, column), () => setCopiedCell(`${id}:${column.name}`));
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
    // The header row's keys are its buttons' own (Enter and Space sort); a checkbox's are its own (Space).
    if (at.row === 0 || at.column < off) return;
    const row = rows[at.row - 1];
    const atColumn = shown[at.column - off];
    if (
      event.key === 'Enter' &&
      event.shiftKey &&
      row &&
      atColumn &&
      offersWholeValue(atColumn, row[atColumn.name] ?? null)
    ) {
      event.preventDefault();
      valuePanel.show(row, atColumn);
    } else if (event.key === 'Enter' && !event.shiftKey && followCellLink(event.target)) {
      event.preventDefault();
    } else if (event.key === 'Enter' && row && !event.defaultPrevented) {
      event.preventDefault();
      onOpenRow(row);
    } else if (control && event.key.toLowerCase() === 'c' && !hasSelectedText()) {
      // Text the person selected is theirs to copy; otherwise the shortcut copies the cell.
      const column = shown[at.column - off];
      if (column) {
        event.preventDefault();
        copyCell(at.row - 1, column);
      }
    }
  };

  const headerGroup = grid.getHeaderGroups()[0];
  const chosen = selection && !loading ? rows.filter(selection.has).length : 0;
  const body = () => {
    if (loading) {
      return Array.from({ length: SKELETON_ROWS }, (_, index) => (
        <Table.Tr key={index}>
          {selection && <td className={cellClass} />}
          {cellsOf((columnIndex) => {
            const entry = placed[columnIndex];
            return entry ? (
              <Table.Td
                key={entry.column.name}
                role="gridcell"
                className={classes.cell}
                {...placementOf(entry, columnIndex)}
              >
                <Skeleton height={12} radius="sm" />
              </Table.Td>
            ) : null;
          })}
        </Table.Tr>
      ));
    }
    if (rows.length === 0) {
      return (
        <Table.Tr>
          <Table.Td role="gridcell" colSpan={Math.max(1, parts.length + off)} className={classes.message}>
            <Text c="dimmed" size="sm">
              {filtered ? gridMessages.noMatch : gridMessages.empty}
            </Text>
          </Table.Td>
        </Table.Tr>
      );
    }
    const modelRows = grid.getRowModel().rows;
    return rowParts.map((part) => {
      if (part.kind === 'gap') {
        return (
          <tr key={part.key} role="presentation">
            <td colSpan={parts.length + off} className={classes.gap} style={{ height: part.height }} />
          </tr>
        );
      }
      const index = part.index;
      const row = modelRows[index];
      if (!row) return null;
      const cells = row.getAllCells();
      return (
        <Table.Tr
          key={row.id}
          className={classes.row}
          data-row={index}
          aria-rowindex={windowed ? index + 2 : undefined}
          onClick={() => onOpenRow(row.original)}
        >
          {selection && (
            <td
              role="gridcell"
              className={cellClass}
              aria-colindex={windowed ? 1 : undefined}
              data-select=""
              onClick={(event) => event.stopPropagation()}
            >
              <input
                type="checkbox"
                className={classes.check}
                checked={selection.has(row.original)}
                aria-label={`Select row ${selection.label(row.original)}`}
                data-cell={cellKey({ row: index + 1, column: 0 })}
                tabIndex={tabIndexOf({ row: index + 1, column: 0 })}
                readOnly
                onClick={(event) => selection.toggle(index, event.shiftKey)}
              />
            </td>
          )}
          {cellsOf((columnIndex) => {
            const cell = cells[columnIndex];
            const meta = cell?.column.columnDef.meta;
            if (!cell || !meta) return null;
            const { column } = meta;
            const value = row.original[column.name] ?? null;
            const position = { row: index + 1, column: columnIndex + off };
            const link = value === null ? null : (links?.linkOf(column.name, row.original) ?? null);
            return (
              // A plain td with Table.Td's class: a page has up to 800 cells, and each Table.Td is a styled Box.
              <td
                key={cell.id}
                role="gridcell"
                className={cellClass}
                {...placementOf(meta.shown, columnIndex)}
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
                {link && links ? (
                  <ForeignKeyCell link={link} follow={links.follow} />
                ) : (
                  <CellValue column={column} value={value} cut={cutLengthOf(row.original, column.name)} />
                )}
                {offersWholeValue(column, value) && (
                  <ShowValueButton
                    column={column.name}
                    onShow={() => valuePanel.show(row.original, column)}
                  />
                )}
                {value !== null && (
                  <CellCopyButton
                    className={classes.copy}
                    column={column.name}
                    text={() => wholeCopyText(table, row.original, column)}
                    copied={copiedCell === `${row.id}:${column.name}`}
                    onCopied={() => setCopiedCell(`${row.id}:${column.name}`)}
                  />
                )}
              </td>
            );
          })}
        </Table.Tr>
      );
    });
  };

  return (
    <Table.ScrollContainer
      ref={scrollRef}
      type="native"
      minWidth={minWidth}
      classNames={{ scrollContainer: classes.scroll }}
    >
      <VisuallyHidden id={hintId}>{gridMessages.keys}</VisuallyHidden>
      <Table
        ref={gridRef}
        role="grid"
        aria-label={gridMessages.label}
        aria-describedby={hintId}
        aria-colcount={windowed ? placed.length + off : undefined}
        aria-rowcount={windowed && !loading ? rows.length + 1 : undefined}
        style={totalWidth === null ? undefined : { tableLayout: 'fixed', width: totalWidth }}
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
          <Table.Tr aria-rowindex={windowed ? 1 : undefined}>
            {selection && (
              <th
                className={`${Table.classes.th} ${classes.headerCell}`}
                aria-colindex={windowed ? 1 : undefined}
                data-select=""
              >
                <input
                  type="checkbox"
                  className={classes.check}
                  checked={chosen > 0 && chosen === rows.length}
                  ref={(box) => {
                    if (box) box.indeterminate = chosen > 0 && chosen < rows.length;
                  }}
                  aria-label="Select the rows of this page"
                  data-cell={cellKey({ row: 0, column: 0 })}
                  tabIndex={tabIndexOf({ row: 0, column: 0 })}
                  onChange={selection.togglePage}
                />
              </th>
            )}
            {cellsOf((columnIndex) => {
              const header = headerGroup?.headers[columnIndex];
              const meta = header?.column.columnDef.meta;
              if (!header || !meta) return null;
              const { column } = meta;
              const direction = ariaSort(sort, column.name);
              const position = { row: 0, column: columnIndex + off };
              return (
                <Table.Th
                  key={header.id}
                  aria-sort={isSortable(column) ? direction : undefined}
                  // The header is named by its column, not by its resize handle's label too.
                  aria-label={column.name}
                  className={classes.headerCell}
                  {...placementOf(meta.shown, columnIndex)}
                  data-align={alignOf(column)}
                  ta={alignOf(column)}
                >
                  {isSortable(column) ? (
                    <UnstyledButton
                      className={classes.sortButton}
                      title={typeGroupLabel(column.typeGroup)}
                      data-cell={cellKey(position)}
                      tabIndex={tabIndexOf(position)}
                      onClick={() => onSortChange(nextSort(sort, column.name))}
                    >
                      <ColumnTypeIcon group={column.typeGroup} size={14} labelled={false} />
                      <span className={classes.headerName}>{column.name}</span>
                      <SortIcon direction={direction} />
                    </UnstyledButton>
                  ) : (
                    // Binary data cannot be sorted (the server refuses it): the header stays a stop of the keyboard
                    // grid, with no sort to offer.
                    <span
                      className={classes.sortButton}
                      title={`${typeGroupLabel(column.typeGroup)}: cannot be sorted`}
                      data-cell={cellKey(position)}
                      tabIndex={tabIndexOf(position)}
                    >
                      <ColumnTypeIcon group={column.typeGroup} size={14} labelled={false} />
                      <span className={classes.headerName}>{column.name}</span>
                    </span>
                  )}
                  {onLayoutChange && (
                    <ColumnResizeHandle
                      column={column.name}
                      width={meta.shown.width}
                      tabIndex={tabIndexOf(position)}
                      onResize={(width) => resize(column.name, width)}
                    />
                  )}
                </Table.Th>
              );
            }, 'th')}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body()}</Table.Tbody>
      </Table>
      {windowed && widths && (
        <Suspense fallback={null}>
          <LazyGridWindow
            scrollRef={scrollRef}
            widths={widths}
            pinned={pinnedCount}
            rowCount={rowCount}
            activeColumn={active.column - off}
            activeRow={active.row - 1}
            onChange={onWindow}
          />
        </Suspense>
      )}
      {valuePanel.panel}
    </Table.ScrollContainer>
  );
}
