import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { ROW_ESTIMATE, type RowPart, type WindowRange } from './column-window.ts';

/** Columns rendered beyond each side of the ones in sight (a quick scroll shows them at once). */
const COLUMN_OVERSCAN = 2;
/** Rows rendered beyond each end of the ones in sight. */
const ROW_OVERSCAN = 6;

/** The indexes to render: the range with its overscan, and the ones that must always be there. */
const withAlways = (range: Range, always: readonly number[]) =>
  [...new Set([...always, ...defaultRangeExtractor(range)])]
    .filter((index) => index >= 0 && index < range.count)
    .sort((a, b) => a - b);

export interface GridWindowProps {
  /** The grid's scroll container. */
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The planned width of each shown column (column-window.ts). */
  widths: readonly number[];
  /** How many columns are pinned (the first ones): always rendered. */
  pinned: number;
  /** The page's rows. */
  rowCount: number;
  /** The active cell's column and data row (-1: the header row): always rendered, so the keyboard has its cell. */
  activeColumn: number;
  activeRow: number;
  /** What to render, each time it changes. */
  onChange: (range: WindowRange) => void;
}

/**
 * The window of a wide grid (column-window.ts), loaded only for one: it renders nothing itself; TanStack Virtual
 * follows the container's sideways and downward scroll and its size, and this tells the grid which columns and rows
 * are in sight (with a few either side, the pinned columns and the active cell's column and row). The container is
 * bounded in height from tablets up; on a phone it grows with its rows (the page scrolls), every row is in its sight
 * and all are rendered. Rows are taken as tall as the first rendered one (a grid's rows are one line each).
 */
export default function GridWindow({
  scrollRef,
  widths,
  pinned,
  rowCount,
  activeColumn,
  activeRow,
  onChange,
}: GridWindowProps) {
  const [rowHeight, setRowHeight] = useState(ROW_ESTIMATE);
  const columnExtractor = useCallback(
    (range: Range) =>
      withAlways(range, [...Array.from({ length: pinned }, (_, index) => index), activeColumn]),
    [pinned, activeColumn],
  );
  const rowExtractor = useCallback((range: Range) => withAlways(range, [activeRow]), [activeRow]);
  // The app is not built with the React Compiler, so nothing memoizes around the virtualizers' own functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const columns = useVirtualizer({
    horizontal: true,
    count: widths.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => widths[index] ?? 0,
    overscan: COLUMN_OVERSCAN,
    rangeExtractor: columnExtractor,
  });
  const rows = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: ROW_OVERSCAN,
    rangeExtractor: rowExtractor,
  });
  // Sizes are estimates the virtualizers keep until told: a width changed (a resize), or the rows' height is known.
  useLayoutEffect(() => columns.measure(), [columns, widths]);
  useLayoutEffect(() => rows.measure(), [rows, rowHeight]);
  useLayoutEffect(() => {
    const row = scrollRef.current?.querySelector<HTMLElement>('tbody tr[data-row]');
    const height = row?.getBoundingClientRect().height ?? 0;
    if (height > 0 && Math.abs(height - rowHeight) >= 1) setRowHeight(height);
  }, [scrollRef, rowHeight, rowCount]);

  const columnItems = columns.getVirtualItems();
  const rowItems = rows.getVirtualItems();
  const total = rows.getTotalSize();
  const columnKey = columnItems.map((item) => item.index).join(',');
  const rowKey = `${rowItems.map((item) => `${item.index}@${item.start}`).join(',')}/${total}`;
  useLayoutEffect(() => {
    // No range while the container has no size: the grid keeps what it renders before it is measured.
    if (columnItems.length === 0 || (rowCount > 0 && rowItems.length === 0)) return;
    const rowParts: RowPart[] = [];
    let end = 0;
    for (const item of rowItems) {
      if (item.start > end)
        rowParts.push({ kind: 'gap', height: item.start - end, key: `gap-${item.index}` });
      rowParts.push({ kind: 'row', index: item.index });
      end = item.end;
    }
    if (total > end) rowParts.push({ kind: 'gap', height: total - end, key: 'gap-end' });
    onChange({ columns: columnItems.map((item) => item.index), rows: rowParts });
    // The keys say when what is rendered changes; the items are new arrays on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [columnKey, rowKey, rowCount, onChange]);
  return null;
}
