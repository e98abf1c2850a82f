import { COLUMN_WIDTH_MAX, COLUMN_WIDTH_MIN } from '#common/limits.ts';

/*
 * The grid's column layout in the address (docs/decisions/0063-column-layout.md): cols=TrackId:pin,Composer:240,Name
 * lists the columns shown, in the order shown; ":pin" keeps a column at the left while the grid scrolls sideways,
 * ":N" sets its width in CSS pixels (an entry may carry both, TrackId:pin:120). A name's own "%", "," and ":" are
 * percent-encoded. Absent: the spec's default columns (grid/grid-columns.ts). The parser knows no table: names the
 * table does not have (or hides) are dropped by grid/column-layout.ts.
 */

export const COLUMNS_PARAM = 'cols';

/** One shown column: the shape of a saved view's columns (common/contract/views.ts viewColumn). */
export interface LayoutColumn {
  name: string;
  /** CSS pixels, COLUMN_WIDTH_MIN to COLUMN_WIDTH_MAX; absent: the grid sizes the column. */
  width?: number;
  /** Stays visible at the left while the grid scrolls sideways. */
  pinned?: boolean;
}

/** The columns shown, in the order shown. */
export type ColumnLayout = LayoutColumn[];

const PIN = 'pin';

/** A width in range: rounded, clamped to COLUMN_WIDTH_MIN..COLUMN_WIDTH_MAX. */
export function clampWidth(width: number): number {
  return Math.min(COLUMN_WIDTH_MAX, Math.max(COLUMN_WIDTH_MIN, Math.round(width)));
}

const encodeName = (name: string) =>
  name.replace(/[%,:]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function decodeName(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * The layout a cols= value names, or null when there is none (absent, empty, or no entry that reads). Entries that do
 * not read (an empty name) are skipped, a column named twice keeps its first entry, flags it does not know are
 * ignored, widths are clamped into range.
 */
export function parseColumnsParam(raw: string | null): ColumnLayout | null {
  if (raw === null) return null;
  const layout: ColumnLayout = [];
  const seen = new Set<string>();
  for (const entry of raw.split(',')) {
    const [rawName = '', ...flags] = entry.split(':');
    const name = decodeName(rawName.trim());
    if (name === null || name === '' || seen.has(name)) continue;
    seen.add(name);
    const column: LayoutColumn = { name };
    for (const flag of flags) {
      const value = flag.trim();
      if (value === PIN) column.pinned = true;
      else if (/^\d{1,6}$/.test(value)) column.width = clampWidth(Number(value));
    }
    layout.push(column);
  }
  return layout.length > 0 ? layout : null;
}

/** The cols= value of a layout (the inverse of parseColumnsParam). */
export function encodeColumnsParam(layout: ColumnLayout): string {
  return layout
    .map((column) =>
      [
        encodeName(column.name),
        column.pinned ? PIN : null,
        column.width === undefined ? null : String(column.width),
      ]
        .filter((part) => part !== null)
        .join(':'),
    )
    .join(',');
}
