import { useCallback, useMemo, type RefObject } from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';

/** A row's height before it is measured: a line of text with the grid's padding. */
const ROW_ESTIMATE = 37;
/** Rows rendered beyond each end of the ones in sight. */
const OVERSCAN = 6;
/** Rows rendered while the container has no height yet: the first ones. */
const UNMEASURED_ROWS = 30;

/** What a windowed body renders, top to bottom: a row (its index in the page), or an empty row as tall as a run of
 * rows left out. */
export type RowPart = { kind: 'row'; index: number } | { kind: 'gap'; height: number; key: string };

export interface RowWindow {
  parts: RowPart[];
  /** The ref each rendered row gives its element to, so its height is measured (it carries data-index). */
  measure: (element: HTMLTableRowElement | null) => void;
}

/**
 * The row window of a wide grid (column-window.ts says when a grid is wide): inside its scroll container, which is
 * bounded in height from tablets up, only the rows in sight and a few either side are rendered, with the active
 * cell's row wherever it is; an empty row stands for each run of rows left out, so the scroll height stays the
 * page's. On a phone the container grows with its rows (the page scrolls), every row is in its sight, and all are
 * rendered. `enabled` false: every row, as before.
 */
export function useRowWindow(
  scrollRef: RefObject<HTMLDivElement | null>,
  count: number,
  activeRow: number,
  enabled: boolean,
): RowWindow {
  const rangeExtractor = useCallback(
    (range: Range) =>
      [...new Set([...defaultRangeExtractor(range), activeRow])]
        .filter((index) => index >= 0 && index < range.count)
        .sort((a, b) => a - b),
    [activeRow],
  );
  // The app is not built with the React Compiler, so nothing memoizes around the virtualizer's own functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: enabled ? count : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    rangeExtractor,
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
  });
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();

  const parts = useMemo((): RowPart[] => {
    if (!enabled) return Array.from({ length: count }, (_, index) => ({ kind: 'row', index }));
    if (items.length === 0) {
      const first = Math.min(count, UNMEASURED_ROWS);
      const rows: RowPart[] = Array.from({ length: first }, (_, index) => ({ kind: 'row', index }));
      return count > first
        ? [...rows, { kind: 'gap', height: (count - first) * ROW_ESTIMATE, key: 'gap-end' }]
        : rows;
    }
    const result: RowPart[] = [];
    let end = 0;
    for (const item of items) {
      if (item.start > end) result.push({ kind: 'gap', height: item.start - end, key: `gap-${item.index}` });
      result.push({ kind: 'row', index: item.index });
      end = item.end;
    }
    if (total > end) result.push({ kind: 'gap', height: total - end, key: 'gap-end' });
    return result;
  }, [enabled, count, items, total]);

  return { parts, measure: virtualizer.measureElement };
}
