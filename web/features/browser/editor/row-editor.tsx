import type { Row, TableListItem } from '#common/contract/sql.ts';

/** Which row the editor shows: an existing one (edit) or a new one (add). */
export type EditorTarget = { mode: 'edit'; row: Row } | { mode: 'add' };

export interface RowEditorProps {
  db: string;
  table: TableListItem;
  /** null: the editor is closed. */
  target: EditorTarget | null;
  /** changed: something was saved or deleted, so the grid refreshes (spec 000 §4). */
  onClose: (changed: boolean) => void;
}

/** The row editor modal (spec 000 §2, §4, §5, §8). */
export function RowEditor(_props: RowEditorProps) {
  return null;
}
