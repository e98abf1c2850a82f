import type { Row, TableListItem } from '#common/contract/sql.ts';

export interface DataGridProps {
  table: TableListItem;
  /** The page's rows as the API answered them. */
  rows: Row[];
  /** 'Name', '-Name' or null (spec 000 §3 sort string). */
  sort: string | null;
  /** Ascending → descending → none (spec 000 §4); the page goes back to 1 (the caller does that). */
  onSortChange: (sort: string | null) => void;
  /** A row click or Enter on a focused row. */
  onOpenRow: (row: Row) => void;
  /** True while the first page loads (nothing to show yet). */
  loading: boolean;
  /** True while the previous page stays shown as the next one loads. */
  stale: boolean;
}

/** The result grid (spec 000 §2, §4, §9): at most 8 columns, indexed first, sortable headers, cells by type. */
export function DataGrid({ rows }: DataGridProps) {
  return <p>{rows.length} rows</p>;
}
