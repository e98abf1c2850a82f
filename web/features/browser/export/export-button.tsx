import type { Filter, TableListItem } from '#common/contract/sql.ts';

export interface ExportButtonProps {
  db: string;
  table: TableListItem;
  /** The current search (column → term) and sort, as the grid shows them. */
  filter: Filter;
  sort: string | null;
}

/** Export (spec 000 §4): a job for the current search and sort, its progress, cancel, and the download. */
export function ExportButton(_props: ExportButtonProps) {
  return null;
}
