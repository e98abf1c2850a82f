import type { Row, TableListItem } from '#common/contract/sql.ts';

export interface RowHistoryProps {
  db: string;
  table: TableListItem;
  /** The row as the editor last loaded or saved it (its key columns identify it). */
  row: Row;
  /** After an undo: the row as it is now (null when the undo deleted it). */
  onUndone: (row: Row | null) => void;
}

/** The editor's History tab: the row's audit entries with Undo where the person may undo. */
export function RowHistory(_props: RowHistoryProps) {
  return null;
}
