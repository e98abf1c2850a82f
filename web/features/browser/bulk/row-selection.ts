import { useState } from 'react';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import type { GridSelection } from '#web/features/browser/grid/data-grid.tsx';

/*
 * The rows chosen for a bulk change (issue 38, docs/decisions/0068-bulk-changes.md): by their keys as the bulk calls
 * take them (identity, else guid, else the primary key: the server's rowKey), or every row of the filter. The
 * selection belongs to one scope (the table, the search and the filter document): a selection made under another
 * scope is no selection at all, so it can never be carried to another filter (peers deleted whole tables that way).
 * Loaded with the grid, so kept small; the bar and its dialogs load on the first selected row.
 */

/** The bulk key's columns of a table (the server's rowKey), or none: such a table has no bulk changes. */
export function bulkKeyColumns(table: Pick<TableListItem, 'identityColumn' | 'guidColumn' | 'primaryKey'>) {
  return table.identityColumn
    ? [table.identityColumn]
    : table.guidColumn
      ? [table.guidColumn]
      : table.primaryKey;
}

export interface RowSelection {
  scope: string;
  /** Key text → the row, for the rows chosen by hand (the calls send only its key's columns: bulk-dialog.tsx). */
  keys: Map<string, Row>;
  /** Every row of the filter (then keys is empty). */
  all: boolean;
  /** The row clicked last (its index on the page), where a shift-click's range starts. */
  last: number | null;
}

const none = (scope: string): RowSelection => ({ scope, keys: new Map(), all: false, last: null });

/** The selection of the card's grid, under `scope`; `grid` is null when the table offers no bulk change. */
export function useRowSelection(table: TableListItem, rows: Row[], scope: string) {
  const [state, setState] = useState(() => none(scope));
  const selection = state.scope === scope ? state : none(scope);
  // Dropped, not only hidden: coming back to the first filter does not bring its selection back.
  if (selection !== state) setState(selection);
  const names = bulkKeyColumns(table);
  const textOf = (row: Row) => names.map((name) => row[name]).join(', ');
  const has = (row: Row) => selection.all || selection.keys.has(textOf(row));
  const set = (chosen: Row[], on: boolean, last: number | null) => {
    // Unticking a row of "every row of the filter" starts a hand-made selection from this page's rows.
    const keys = new Map(selection.all ? rows.map((row) => [textOf(row), row]) : selection.keys);
    for (const row of chosen) {
      if (on) keys.set(textOf(row), row);
      else keys.delete(textOf(row));
    }
    setState({ scope, keys, all: false, last });
  };
  const grid: GridSelection | null =
    (table.rights.canUpdate || table.rights.canDelete) && !table.isView && names.length > 0
      ? {
          has,
          label: textOf,
          toggle: (index, shift) => {
            const from = shift && selection.last !== null ? selection.last : index;
            const range = rows.slice(Math.min(from, index), Math.max(from, index) + 1);
            set(range, !has(rows[index] ?? {}), index);
          },
          togglePage: () => set(rows, !rows.every(has), null),
        }
      : null;
  return {
    selection,
    grid,
    selectAll: () => setState({ ...none(scope), all: true }),
    clear: () => setState(none(scope)),
  };
}
