import type { TypeGroup } from '#common/contract/sql.ts';
import { COLUMN_WIDTH_MAX, COLUMN_WIDTH_MIN } from '#common/limits.ts';
import type { ShownColumn } from './column-layout.ts';

/*
 * The window of a wide grid (docs/decisions/0063-column-layout.md, "Wide grids"): from WINDOW_FROM_COLUMNS shown
 * columns on, the grid renders only the columns and rows in sight (and a few either side; grid-window.tsx, loaded for
 * such a grid only, follows the scroll), the pinned columns and the active cell's column and row, with one empty cell
 * (or row) for each run left out, so every row keeps the table's whole width and the body its height. Every
 * column then has a width the grid plans (the layout's, else one by its type and name), as a table of fixed layout
 * needs. Below that, nothing changes: the spec's default of 8 columns sizes itself to its values.
 */

/** From this many shown columns on, the grid renders a window of them. */
export const WINDOW_FROM_COLUMNS = 24;

/** The width a column gets by its type when the layout gives none. */
const TYPE_WIDTHS: Record<TypeGroup, number> = {
  Text: 180,
  Binary: 130,
  Number: 120,
  Date: 180,
  Time: 110,
  bit: 80,
  image: 96,
  guid: 300,
  Other: 180,
};
/** Room a header needs besides its name: the cell's padding, the type and sort icons. */
const HEADER_ROOM = 64;
/** A header name's width per character, at the header's size. */
const HEADER_CHAR = 8;
/** A planned width is never more than this, whatever the name's length (the layout's own width may be). */
const PLANNED_MAX = 320;

/** A column's width in a windowed grid: the layout's, else its type's, widened for its header's name. */
export function plannedWidth(shown: Pick<ShownColumn, 'column' | 'width'>): number {
  if (shown.width !== undefined) return Math.max(COLUMN_WIDTH_MIN, Math.min(shown.width, COLUMN_WIDTH_MAX));
  const byName = HEADER_ROOM + shown.column.name.length * HEADER_CHAR;
  return Math.min(PLANNED_MAX, Math.max(TYPE_WIDTHS[shown.column.typeGroup], byName));
}

/** What a windowed row renders, left to right: a column (by its index among the shown ones), or an empty cell as
 * wide as a run of columns left out. */
export type WindowPart = { kind: 'column'; index: number } | { kind: 'gap'; width: number; key: string };

/** The parts of a row that renders `indexes` (any order, repeats allowed) of columns as wide as `widths`. */
export function windowParts(indexes: readonly number[], widths: readonly number[]): WindowPart[] {
  const sorted = [...new Set(indexes)]
    .filter((index) => index >= 0 && index < widths.length)
    .sort((a, b) => a - b);
  const parts: WindowPart[] = [];
  const gap = (from: number, to: number) => {
    let width = 0;
    for (let index = from; index < to; index++) width += widths[index] ?? 0;
    if (width > 0) parts.push({ kind: 'gap', width, key: `gap-${from}` });
  };
  let next = 0;
  for (const index of sorted) {
    gap(next, index);
    parts.push({ kind: 'column', index });
    next = index + 1;
  }
  gap(next, widths.length);
  return parts;
}

/** Every column as a part: the grid that is not windowed. */
export const allParts = (count: number): WindowPart[] =>
  Array.from({ length: count }, (_, index) => ({ kind: 'column', index }));

/** A row's height before one is measured: a line of text with the grid's padding. */
export const ROW_ESTIMATE = 37;
/** Before the window is measured (its code loading, or the container not laid out): the first columns and rows. */
const UNMEASURED_COLUMNS = 12;
const UNMEASURED_ROWS = 30;

/** What a windowed body renders, top to bottom: a row (its index in the page), or an empty row as tall as a run of
 * rows left out. */
export type RowPart = { kind: 'row'; index: number } | { kind: 'gap'; height: number; key: string };

/** What a windowed grid renders: its columns' indexes (any order) and its body's parts. */
export interface WindowRange {
  columns: number[];
  rows: RowPart[];
}

/** Every row as a part: the grid that is not windowed. */
export const allRows = (count: number): RowPart[] =>
  Array.from({ length: count }, (_, index) => ({ kind: 'row', index }));

/** The window before it is measured: the first columns (the pinned ones at least) and rows, and the active cell's. */
export function unmeasuredRange(
  columnCount: number,
  pinned: number,
  activeColumn: number,
  rowCount: number,
  activeRow: number,
): WindowRange {
  const columns = [
    ...Array.from({ length: Math.max(UNMEASURED_COLUMNS, pinned) }, (_, index) => index),
    activeColumn,
  ];
  const shown = new Set([
    ...Array.from({ length: Math.min(rowCount, UNMEASURED_ROWS) }, (_, index) => index),
  ]);
  if (activeRow >= 0 && activeRow < rowCount) shown.add(activeRow);
  const rows: RowPart[] = [];
  let next = 0;
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (index > next) rows.push({ kind: 'gap', height: (index - next) * ROW_ESTIMATE, key: `gap-${next}` });
    rows.push({ kind: 'row', index });
    next = index + 1;
  }
  if (rowCount > next)
    rows.push({ kind: 'gap', height: (rowCount - next) * ROW_ESTIMATE, key: `gap-${next}` });
  return { columns: columns.filter((index) => index < columnCount), rows };
}

/** Whether two windows render the same. */
export function sameRange(a: WindowRange | null, b: WindowRange): boolean {
  const rowsKey = (range: WindowRange) =>
    range.rows.map((part) => (part.kind === 'row' ? part.index : `${part.key}:${part.height}`)).join(',');
  return a !== null && a.columns.join(',') === b.columns.join(',') && rowsKey(a) === rowsKey(b);
}
