import { useCallback, useLayoutEffect, useMemo, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import type { ShownColumn } from './column-layout.ts';
import {
  allParts,
  plannedWidth,
  WINDOW_FROM_COLUMNS,
  windowParts,
  type WindowPart,
} from './column-window.ts';

/** Columns rendered beyond each side of the ones in sight (a quick scroll shows them at once). */
const OVERSCAN = 2;
/** Columns rendered while the container has no width yet (hidden, or not laid out): the first ones. */
const UNMEASURED_COLUMNS = 12;

/** What the grid renders: the row's parts, and for a windowed grid the planned widths and their sum. */
export interface ColumnWindow {
  parts: WindowPart[];
  /** The planned width of each shown column; null: the grid is not windowed (the columns size themselves). */
  widths: number[] | null;
  /** The table's whole width when windowed. */
  totalWidth: number | null;
}

/**
 * The column window of the grid (column-window.ts) over its scroll container: TanStack Virtual follows the sideways
 * scroll and the container's width; the pinned columns and the active cell's column (`activeColumn`, so the keyboard
 * focus always has its cell) are rendered wherever the scroll is.
 */
export function useColumnWindow(
  scrollRef: RefObject<HTMLDivElement | null>,
  placed: readonly ShownColumn[],
  activeColumn: number,
): ColumnWindow {
  const windowed = placed.length >= WINDOW_FROM_COLUMNS;
  const widths = useMemo(() => (windowed ? placed.map(plannedWidth) : null), [windowed, placed]);
  const pinned = useMemo(() => placed.filter((entry) => entry.pinned).length, [placed]);
  const rangeExtractor = useCallback(
    (range: Range) =>
      [
        ...new Set([
          ...Array.from({ length: pinned }, (_, index) => index),
          ...defaultRangeExtractor(range),
          activeColumn,
        ]),
      ]
        .filter((index) => index < range.count)
        .sort((a, b) => a - b),
    [pinned, activeColumn],
  );
  // The app is not built with the React Compiler, so nothing memoizes around the virtualizer's own functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    horizontal: true,
    count: widths?.length ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => widths?.[index] ?? 0,
    overscan: OVERSCAN,
    rangeExtractor,
    // Before the container is measured: the window's width (the grid is rarely much narrower).
    initialRect: { width: typeof window === 'undefined' ? 0 : window.innerWidth, height: 0 },
  });
  // A width changed (a resize, another layout): the virtualizer's sizes are estimates it keeps until told.
  useLayoutEffect(() => {
    if (widths) virtualizer.measure();
  }, [virtualizer, widths]);

  const items = virtualizer.getVirtualItems();
  return useMemo(() => {
    if (!widths) return { parts: allParts(placed.length), widths: null, totalWidth: null };
    // No range while the container has no width: the first columns, the pinned ones and the active one.
    const indexes =
      items.length > 0
        ? items.map((item) => item.index)
        : [
            ...Array.from({ length: Math.max(UNMEASURED_COLUMNS, pinned) }, (_, index) => index),
            activeColumn,
          ];
    return {
      parts: windowParts(indexes, widths),
      widths,
      totalWidth: widths.reduce((sum, width) => sum + width, 0),
    };
  }, [items, widths, placed.length, pinned, activeColumn]);
}
