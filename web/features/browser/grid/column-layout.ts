import type { Column, Table } from '#common/contract/sql.ts';
import {
  clampWidth,
  type ColumnLayout,
  type LayoutColumn,
} from '#web/features/browser/columns/columns-param.ts';
import { gridColumns } from './grid-columns.ts';

/*
 * The grid's column layout (docs/decisions/0063-column-layout.md): which columns show, in which order, their widths
 * and pins, as pure functions of the table and the address's layout (columns/columns-param.ts). null is the spec's
 * default (grid-columns.ts: at most 8, indexed first). Every change goes through `effectiveLayout`, so names the table
 * does not have, or hides, never survive one; a change that lands on the default gives null back, so the address
 * stays clean.
 */

/** A column as the grid shows it. */
export interface ShownColumn {
  column: Column;
  /** CSS pixels; undefined: the grid sizes it. */
  width: number | undefined;
  pinned: boolean;
}

type TableColumns = Pick<Table, 'columns'>;

/** The columns a person may choose from: every column the table does not hide, in the table's order. */
export function choosableColumns(table: TableColumns): Column[] {
  return table.columns.filter((column) => !column.isHidden);
}

/** The spec's default layout: gridColumns, nothing pinned, no widths. */
export function defaultLayout(table: TableColumns): ColumnLayout {
  return gridColumns(table).map((column) => ({ name: column.name }));
}

/**
 * The layout as the table can show it: unknown and hidden names dropped (and a name's second entry), pinned columns
 * first (each group in its own order); the default when nothing remains or there is no layout.
 */
export function effectiveLayout(table: TableColumns, layout: ColumnLayout | null): ColumnLayout {
  if (!layout) return defaultLayout(table);
  const names = new Set(choosableColumns(table).map((column) => column.name));
  const seen = new Set<string>();
  const kept = layout.filter((entry) => {
    if (!names.has(entry.name) || seen.has(entry.name)) return false;
    seen.add(entry.name);
    return true;
  });
  if (kept.length === 0) return defaultLayout(table);
  return [...kept.filter((entry) => entry.pinned), ...kept.filter((entry) => !entry.pinned)];
}

/** The columns the grid shows, in order, with widths and pins. */
export function shownColumns(table: TableColumns, layout: ColumnLayout | null): ShownColumn[] {
  const byName = new Map(table.columns.map((column) => [column.name, column]));
  return effectiveLayout(table, layout).flatMap((entry) => {
    const column = byName.get(entry.name);
    return column ? [{ column, width: entry.width, pinned: entry.pinned === true }] : [];
  });
}

const sameEntry = (a: LayoutColumn, b: LayoutColumn) =>
  a.name === b.name && a.width === b.width && (a.pinned === true) === (b.pinned === true);

/** A layout to keep: null when it is the default (so the address leaves it out). */
export function normalizeLayout(table: TableColumns, layout: ColumnLayout | null): ColumnLayout | null {
  if (!layout) return null;
  const effective = effectiveLayout(table, layout);
  const fallback = defaultLayout(table);
  const isDefault =
    effective.length === fallback.length &&
    effective.every((entry, index) => {
      const other = fallback[index];
      return other !== undefined && sameEntry(entry, other);
    });
  return isDefault ? null : effective;
}

function change(
  table: TableColumns,
  layout: ColumnLayout | null,
  edit: (columns: ColumnLayout) => ColumnLayout,
): ColumnLayout | null {
  return normalizeLayout(table, edit(effectiveLayout(table, layout).map((entry) => ({ ...entry }))));
}

/** Moves a shown column to a position among the shown ones (clamped; pinned columns stay first). */
export function moveColumnTo(
  table: TableColumns,
  layout: ColumnLayout | null,
  name: string,
  to: number,
): ColumnLayout | null {
  return change(table, layout, (columns) => {
    const from = columns.findIndex((entry) => entry.name === name);
    if (from < 0) return columns;
    const [entry] = columns.splice(from, 1);
    if (entry) columns.splice(Math.max(0, Math.min(to, columns.length)), 0, entry);
    return columns;
  });
}

/** Moves a shown column one place up (-1) or down (+1). */
export function moveColumn(
  table: TableColumns,
  layout: ColumnLayout | null,
  name: string,
  by: -1 | 1,
): ColumnLayout | null {
  const from = effectiveLayout(table, layout).findIndex((entry) => entry.name === name);
  return from < 0 ? normalizeLayout(table, layout) : moveColumnTo(table, layout, name, from + by);
}

/** Shows a column (at the end) or hides it; the last shown column stays (a grid always shows one). */
export function setColumnShown(
  table: TableColumns,
  layout: ColumnLayout | null,
  name: string,
  shown: boolean,
): ColumnLayout | null {
  return change(table, layout, (columns) => {
    const at = columns.findIndex((entry) => entry.name === name);
    if (shown) return at >= 0 ? columns : [...columns, { name }];
    return at < 0 || columns.length === 1 ? columns : columns.filter((entry) => entry.name !== name);
  });
}

/** Pins a shown column (it moves to the end of the pinned ones) or unpins it (it goes after the pinned ones). */
export function setColumnPinned(
  table: TableColumns,
  layout: ColumnLayout | null,
  name: string,
  pinned: boolean,
): ColumnLayout | null {
  return change(table, layout, (columns) => {
    const entry = columns.find((column) => column.name === name);
    if (!entry || (entry.pinned === true) === pinned) return columns;
    const rest = columns.filter((column) => column !== entry);
    const next = { ...entry };
    if (pinned) next.pinned = true;
    else delete next.pinned;
    const lastPinned = rest.filter((column) => column.pinned).length;
    rest.splice(lastPinned, 0, next);
    return rest;
  });
}

/** Sets a shown column's width, clamped to COLUMN_WIDTH_MIN..COLUMN_WIDTH_MAX; undefined: the grid sizes it. */
export function setColumnWidth(
  table: TableColumns,
  layout: ColumnLayout | null,
  name: string,
  width: number | undefined,
): ColumnLayout | null {
  return change(table, layout, (columns) =>
    columns.map((entry) => {
      if (entry.name !== name) return entry;
      const next = { ...entry };
      if (width === undefined) delete next.width;
      else next.width = clampWidth(width);
      return next;
    }),
  );
}

/** Back to the spec's default. */
export function resetLayout(): null {
  return null;
}

/**
 * The table with its columns in the layout's order, for the row editor: the shown columns in layout order first, then
 * the rest in the table's order. Without a layout, the table as it is.
 */
export function tableInLayoutOrder<T extends TableColumns>(table: T, layout: ColumnLayout | null): T {
  if (!layout) return table;
  const order = effectiveLayout(table, layout).map((entry) => entry.name);
  const rank = (column: Column) => {
    const at = order.indexOf(column.name);
    return at < 0 ? order.length : at;
  };
  return { ...table, columns: [...table.columns].sort((a, b) => rank(a) - rank(b)) };
}
