import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { COLUMN_WIDTH_MAX, COLUMN_WIDTH_MIN } from '#common/limits.ts';
import { clampWidth } from '#web/features/browser/columns/columns-param.ts';
import classes from './data-grid.module.css';

/** How far ArrowLeft and ArrowRight resize a column, in CSS pixels. */
export const RESIZE_STEP = 16;

export interface ColumnResizeHandleProps {
  column: string;
  /** The layout's width; undefined: the grid sizes the column (the handle measures it). */
  width: number | undefined;
  /** 0 when its header cell is the grid's active cell (one Tab from it), else -1: the grid stays one tab stop. */
  tabIndex: number;
  /** The new width, on release of a drag or on each arrow key. */
  onResize: (width: number) => void;
}

/**
 * The resize handle at a header's right edge (a WAI-ARIA window splitter): a pointer drags it, ArrowLeft and
 * ArrowRight move it by RESIZE_STEP pixels. While dragging only the header's width changes (the column follows it); the
 * width is written into the layout on release.
 */
export function ColumnResizeHandle({ column, width, tabIndex, onResize }: ColumnResizeHandleProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const drag = useRef<{ x: number; width: number; now: number } | null>(null);
  const [measured, setMeasured] = useState<number | null>(null);
  const header = () => ref.current?.closest('th') ?? null;
  const currentWidth = () => width ?? Math.round(header()?.getBoundingClientRect().width ?? 0);

  // The header's width as drawn (aria-valuenow of a column the grid sizes itself), followed as it changes.
  useLayoutEffect(() => {
    const th = ref.current?.closest('th');
    if (!th || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setMeasured(Math.round(th.getBoundingClientRect().width)));
    observer.observe(th);
    return () => observer.disconnect();
  }, []);

  const show = (next: number) => {
    const th = header();
    if (!th) return;
    th.style.width = `${next}px`;
    th.style.minWidth = `${next}px`;
    th.style.maxWidth = `${next}px`;
    th.style.setProperty('--cell-width', `${next}px`);
  };

  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const start = currentWidth();
    drag.current = { x: event.clientX, width: start, now: start };
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>) => {
    const dragging = drag.current;
    if (!dragging) return;
    dragging.now = clampWidth(dragging.width + event.clientX - dragging.x);
    show(dragging.now);
  };
  const onPointerUp = () => {
    const dragging = drag.current;
    drag.current = null;
    if (dragging && dragging.now !== dragging.width) onResize(dragging.now);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    const by = event.key === 'ArrowRight' ? RESIZE_STEP : event.key === 'ArrowLeft' ? -RESIZE_STEP : 0;
    // The grid's own keys stop here: the arrows resize, nothing else moves the grid's focus from the handle.
    event.stopPropagation();
    if (by === 0) return;
    event.preventDefault();
    onResize(clampWidth(currentWidth() + by));
  };

  const now = width ?? measured ?? undefined;
  return (
    <span
      ref={ref}
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${column}`}
      aria-valuenow={now}
      aria-valuemin={COLUMN_WIDTH_MIN}
      aria-valuemax={COLUMN_WIDTH_MAX}
      tabIndex={tabIndex}
      className={classes.resizeHandle}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      onClick={(event) => event.stopPropagation()}
    />
  );
}
