import { useCallback, useLayoutEffect, useRef, useState, type FocusEvent } from 'react';

/*
 * The grid's keyboard focus (the WAI-ARIA grid pattern, docs/decisions/0047): the whole grid is one tab stop, the
 * active cell; the arrow keys, Home, End, Ctrl+Home, Ctrl+End, Page Up and Page Down move it. Row 0 is the header
 * row (its sort buttons take the focus), rows 1 to n the data rows. A cell says where it is with data-cell="row:column",
 * so the grid finds it without a ref per cell (a page has up to 800). Kept apart from what a cell does (open a row,
 * copy a value), so an editing grid can add its own keys and cells on the same model.
 */

/** A cell of the focus model: row 0 is the header row, 1 to `rows` the data rows; columns from 0. */
export interface GridPosition {
  row: number;
  column: number;
}

/** The grid's size: its data rows (without the header) and its columns. */
export interface GridBounds {
  rows: number;
  columns: number;
}

/** How many rows Page Up and Page Down move. */
export const PAGE_ROWS = 10;

/** The attribute a focusable cell carries: "row:column". */
export const CELL_ATTRIBUTE = 'data-cell';
export const cellKey = ({ row, column }: GridPosition) => `${row}:${column}`;

/** A position inside the grid: past the last row or column it is the last; without data rows, the header row. */
export function clampPosition(at: GridPosition, bounds: GridBounds): GridPosition {
  return {
    row: Math.max(0, Math.min(at.row, bounds.rows)),
    column: Math.max(0, Math.min(at.column, bounds.columns - 1)),
  };
}

/** Where a key moves the focus from `at`, or null when the key is not a move. `control`: Ctrl or ⌘ held. */
export function moveFocus(
  at: GridPosition,
  key: string,
  bounds: GridBounds,
  control = false,
): GridPosition | null {
  const to = (row: number, column: number) => clampPosition({ row, column }, bounds);
  switch (key) {
    case 'ArrowRight':
      return to(at.row, at.column + 1);
    case 'ArrowLeft':
      return to(at.row, at.column - 1);
    case 'ArrowDown':
      return to(at.row + 1, at.column);
    case 'ArrowUp':
      return to(at.row - 1, at.column);
    case 'Home':
      return control ? to(0, 0) : to(at.row, 0);
    case 'End':
      return control ? to(bounds.rows, bounds.columns - 1) : to(at.row, bounds.columns - 1);
    case 'PageDown':
      return to(at.row + PAGE_ROWS, at.column);
    case 'PageUp':
      // From the data rows, no further than the first of them: the header is one Arrow Up away.
      return to(at.row > 0 ? Math.max(1, at.row - PAGE_ROWS) : 0, at.column);
    default:
      return null;
  }
}

/** The position of the cell an event happened in (the cell itself or something inside it), or null. */
export function positionOf(target: EventTarget | null): GridPosition | null {
  const cell = target instanceof Element ? target.closest(`[${CELL_ATTRIBUTE}]`) : null;
  const [row, column] = (cell?.getAttribute(CELL_ATTRIBUTE) ?? '').split(':').map(Number);
  return row === undefined || column === undefined || Number.isNaN(row) || Number.isNaN(column)
    ? null
    : { row, column };
}

/**
 * The roving focus of one grid: which cell is the tab stop (`tabIndexOf`), moving the focus there (`focusCell`), and
 * following the focus when a cell gets it by a click or a tab (`onFocus`, on the grid element). `gridRef` is the grid
 * element the cells are looked up in.
 */
export function useGridFocus<T extends HTMLElement>(bounds: GridBounds) {
  const gridRef = useRef<T>(null);
  // The first data cell, or the first header when there are no rows (clamped below).
  const [wanted, setWanted] = useState<GridPosition>({ row: 1, column: 0 });
  const active = clampPosition(wanted, bounds);

  // A cell to focus once it is rendered: a wide grid renders the active cell's column only after it became active.
  const pending = useRef<GridPosition | null>(null);
  const cellAt = (position: GridPosition) =>
    gridRef.current?.querySelector<HTMLElement>(`[${CELL_ATTRIBUTE}="${cellKey(position)}"]`) ?? null;

  const focusCell = useCallback(
    (position: GridPosition) => {
      const target = clampPosition(position, bounds);
      setWanted(target);
      const cell = cellAt(target);
      pending.current = cell ? null : target;
      cell?.focus();
    },
    [bounds],
  );
  useLayoutEffect(() => {
    if (!pending.current) return;
    const cell = cellAt(pending.current);
    if (cell) {
      pending.current = null;
      cell.focus();
    }
  });

  const onFocus = useCallback((event: FocusEvent) => {
    const position = positionOf(event.target);
    if (position) setWanted((current) => (cellKey(current) === cellKey(position) ? current : position));
  }, []);

  const tabIndexOf = (position: GridPosition) =>
    position.row === active.row && position.column === active.column ? 0 : -1;

  return { gridRef, active, tabIndexOf, focusCell, onFocus };
}
