import type { CellValue, Column } from '#common/contract/sql.ts';
import { isJsonColumn } from '#web/features/browser/grid/json-value.ts';

/*
 * Which values the grid offers whole in the value panel (docs/decisions/0064-rich-values.md): JSON, binary, and text
 * a cell may cut (longer than a short name, or on more than one line). Numbers, dates, times, bits, guids and images
 * fit their cells (an image's cell is its picture).
 */

/** Text up to this many characters fits a cell and gets no "Show whole value". */
export const WHOLE_VALUE_FROM_LENGTH = 24;

export type ValueKind = 'json' | 'binary' | 'text';

/** How the value panel shows a column's values, or null when the grid offers it no panel. */
export function valueKindOf(column: Pick<Column, 'type' | 'typeGroup'>): ValueKind | null {
  if (isJsonColumn(column)) return 'json';
  if (column.typeGroup === 'Binary') return 'binary';
  if (column.typeGroup === 'Text' || column.typeGroup === 'Other') return 'text';
  return null;
}

/** Whether a cell offers its value whole (a "Show whole value" button, Shift+Enter). */
export function offersWholeValue(column: Pick<Column, 'type' | 'typeGroup'>, value: CellValue): boolean {
  if (value === null) return false;
  const kind = valueKindOf(column);
  if (kind === 'json' || kind === 'binary') return true;
  if (kind !== 'text' || typeof value !== 'string') return false;
  return value.length > WHOLE_VALUE_FROM_LENGTH || value.includes('\n');
}
