import type { TableListItem } from '#common/contract/sql.ts';

export interface TableInfoModalProps {
  db: string;
  table: TableListItem | null;
  opened: boolean;
  onClose: () => void;
}

/** The table information modal (spec 000 §2): General, Keys and Indexes tabs. */
export function TableInfoModal(_props: TableInfoModalProps) {
  return null;
}
