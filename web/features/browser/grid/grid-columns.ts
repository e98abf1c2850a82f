import type { Column, Table } from '#common/contract/sql.ts';
import { GRID_MAX_COLUMNS } from '#common/limits.ts';

/**
 * The columns the grid shows (spec 000 §2, §9): at most GRID_MAX_COLUMNS, the indexed columns first, then the
 * others, each group in the table's order; hidden columns never.
 */
export function gridColumns(table: Pick<Table, 'columns'>): Column[] {
  const shown = table.columns.filter((column) => !column.isHidden);
  const indexed = shown.filter((column) => column.isIndexed);
  const others = shown.filter((column) => !column.isIndexed);
  return [...indexed, ...others].slice(0, GRID_MAX_COLUMNS);
}
