import type { CellValue, Row, Table } from '#common/contract/sql.ts';
import { browserMessages } from '#common/messages.ts';
import { editorMessages } from './editor-messages.ts';
import { changedColumns, copyRow, emptyRow, type EditorMode } from './row-fields.ts';

/*
 * The row editor's states (spec 000 §4 "Row editor"): clean, then changed on the first edit (the banner appears),
 * then saved or discarded, back to clean. The backup is the row as last loaded or saved (or the empty new row);
 * Discard puts it back. Copy turns the row into a new one (add mode) as a pending change of the backup, so Discard
 * after Copy goes back to the row copied. A successful upsert switches to edit mode with the row the server answered.
 */

export interface EditorState {
  /** The backup: the mode and values the form returns to on Discard. */
  backup: { mode: EditorMode; row: Row };
  mode: EditorMode;
  values: Row;
  /** Fields whose message may show: left (touched) or changed (dirty) at least once, or all after a Save attempt. */
  marked: ReadonlySet<string>;
  /** Text left in a foreign-key field that names none of its options, by column: kept and shown with a message
   * (issue 32), never dropped without a word; choosing an option or discarding ends it. */
  typed: Readonly<Record<string, string>>;
}

export type EditorAction =
  | { type: 'open'; mode: EditorMode; row: Row | null }
  | { type: 'change'; column: string; value: CellValue }
  | { type: 'typed'; column: string; text: string | null }
  | { type: 'leave'; column: string }
  | { type: 'markAll' }
  | { type: 'copy' }
  | { type: 'discard' }
  | { type: 'saved'; row: Row };

/** The state of a freshly opened editor: an existing row (edit) or an empty new one (add). */
export function openEditor(table: Pick<Table, 'columns'>, mode: EditorMode, row: Row | null): EditorState {
  const values = mode === 'edit' && row ? row : emptyRow(table);
  return { backup: { mode, row: values }, mode, values, marked: new Set(), typed: {} };
}

/** The reducer; the table is bound by the caller (`(s, a) => editorReducer(table, s, a)`). */
export function editorReducer(
  table: Pick<Table, 'columns'>,
  state: EditorState,
  action: EditorAction,
): EditorState {
  switch (action.type) {
    case 'open':
      return openEditor(table, action.mode, action.row);
    case 'change':
      return {
        ...state,
        values: { ...state.values, [action.column]: action.value },
        marked: mark(state.marked, action.column),
        typed: without(state.typed, action.column),
      };
    case 'typed':
      return {
        ...state,
        marked: mark(state.marked, action.column),
        typed:
          action.text === null
            ? without(state.typed, action.column)
            : { ...state.typed, [action.column]: action.text },
      };
    case 'leave':
      return state.marked.has(action.column)
        ? state
        : { ...state, marked: mark(state.marked, action.column) };
    case 'markAll':
      return { ...state, marked: new Set(table.columns.map((column) => column.name)) };
    case 'copy':
      return { ...state, mode: 'add', values: copyRow(table, state.values), marked: new Set(), typed: {} };
    case 'discard':
      return { ...state, mode: state.backup.mode, values: state.backup.row, marked: new Set(), typed: {} };
    case 'saved':
      return {
        backup: { mode: 'edit', row: action.row },
        mode: 'edit',
        values: action.row,
        marked: new Set(),
        typed: {},
      };
  }
}

const mark = (marked: ReadonlySet<string>, column: string) => new Set(marked).add(column);
const without = (typed: Readonly<Record<string, string>>, column: string) => {
  if (!(column in typed)) return typed;
  const { [column]: _gone, ...rest } = typed;
  return rest;
};

/** Changed: the banner shows (a value differs from the backup, the row was copied into a new one, or a foreign-key
 * field holds text that names no option). */
export function isPending(state: EditorState): boolean {
  return (
    state.mode !== state.backup.mode ||
    changedColumns(state.values, state.backup.row).length > 0 ||
    Object.keys(state.typed).length > 0
  );
}

/** Why Delete is refused now ('Cannot delete with pending changes.'), or null. */
export function deleteRefusal(state: EditorState): string | null {
  return isPending(state) ? browserMessages.cannotDeleteWithPendingChanges : null;
}

/** Why closing is refused now, or null: pending changes are saved or discarded first. */
export function closeRefusal(state: EditorState): string | null {
  return isPending(state) ? editorMessages.closeWithPendingChanges : null;
}
