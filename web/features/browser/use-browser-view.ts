import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Filter } from '#common/contract/filter.ts';
import type { SavedView } from '#common/contract/views.ts';
import {
  freshView,
  writeBrowserAddress,
  type BrowserAddress,
  type BrowserTableName,
} from './browser-address.ts';
import type { RowKey } from '#web/api/sql/row-by-key.ts';
import { loadWhereCheck } from './filter/where-param.ts';
import type { ColumnLayout } from './columns/columns-param.ts';
import { stateOfView, type ViewField } from './views/view-state.ts';
import { viewsTexts } from './views/views-texts.ts';

/** The browser's state with a saved view's parts, except those the address set itself (`keep`). */
function withView(
  current: BrowserAddress,
  saved: SavedView,
  keep: readonly ViewField[] = [],
): BrowserAddress {
  const state = stateOfView(saved);
  const next: BrowserAddress = {
    ...current,
    viewId: saved.Id,
    savedView: saved,
    viewPending: null,
    viewNotice: saved.problems.length > 0 ? saved.problems.join(' ') : null,
  };
  if (!keep.includes('sort')) next.sort = state.sort;
  if (!keep.includes('size')) next.size = state.size;
  if (!keep.includes('columns')) next.columns = state.columns;
  if (!keep.includes('where')) {
    next.where = state.where;
    next.whereToCheck = null;
    next.whereProblem = null;
  }
  return next;
}

/**
 * The browser's view (table, search, filter, sort, page, size, columns, saved view) as state, written into the address
 * after every change (replaceState, no navigation). Spec 000 §4/§5: a new search, filter, sort or page size goes back
 * to page 1; a new table starts with no search, no filter, no sort and no saved view, and keeps the page size.
 */
export function useBrowserView(initial: BrowserAddress) {
  const [view, setView] = useState(initial);

  useEffect(() => writeBrowserAddress(view), [view]);

  const selectTable = useCallback(
    (table: BrowserTableName) => setView((current) => freshView(current.db, table, current.size)),
    [],
  );
  /** Applies a filter document (null: none). */
  const filterBy = useCallback(
    (where: Filter | null) =>
      setView((current) => ({ ...current, where, whereToCheck: null, whereProblem: null, page: 1 })),
    [],
  );
  /** The address's filter once checked: kept (the same page), or dropped with the sentence saying why. */
  const whereChecked = useCallback(
    (checked: { where: Filter | null; problem: string | null }) =>
      setView((current) =>
        current.whereToCheck === null
          ? current
          : { ...current, where: checked.where, whereToCheck: null, whereProblem: checked.problem },
      ),
    [],
  );
  /** Drops the filter and says why (a shared filter that does not fit this table); null hides the sentence. */
  const refuseFilter = useCallback(
    (problem: string | null) =>
      setView((current) =>
        problem === null
          ? current.whereProblem === null
            ? current
            : { ...current, whereProblem: null }
          : { ...current, where: null, whereToCheck: null, whereProblem: problem, page: 1 },
      ),
    [],
  );
  const search = useCallback(
    (filter: Record<string, string>) => setView((current) => ({ ...current, filter, page: 1 })),
    [],
  );
  const sortBy = useCallback(
    (sort: string | null) => setView((current) => ({ ...current, sort, page: 1 })),
    [],
  );
  const goToPage = useCallback(
    (page: number) => setView((current) => (current.page === page ? current : { ...current, page })),
    [],
  );
  /** A new column layout (null: the spec's default); the page stays. */
  const setColumns = useCallback(
    (columns: ColumnLayout | null) => setView((current) => ({ ...current, columns })),
    [],
  );
  const setSize = useCallback((size: number) => setView((current) => ({ ...current, size, page: 1 })), []);
  /** Opens a saved view (its parts replace the browser's, from page 1), or the table's default for null. */
  const openView = useCallback(
    (saved: SavedView | null) =>
      setView((current) =>
        saved === null
          ? { ...freshView(current.db, current.table), filter: current.filter }
          : { ...withView(current, saved), page: 1 },
      ),
    [],
  );
  /** The address's view, once the views this person may open are known (null: they could not be read). */
  const viewLoaded = useCallback(
    (views: readonly SavedView[] | null) =>
      setView((current) => {
        if (current.viewPending === null) return current;
        const saved = views?.find((item) => item.Id === current.viewId);
        if (saved) return withView(current, saved, current.viewPending);
        return {
          ...current,
          viewId: null,
          viewPending: null,
          viewNotice: views === null ? viewsTexts.addressViewFailed : viewsTexts.addressViewMissing,
        };
      }),
    [],
  );
  /** A view was saved (the browser's state is now that view) or deleted (null: the state stays, with no view). */
  const viewSaved = useCallback(
    (saved: SavedView | null) =>
      setView((current) =>
        saved === null
          ? { ...current, viewId: null, savedView: null, viewNotice: null }
          : { ...current, viewId: saved.Id, savedView: saved, viewNotice: null },
      ),
    [],
  );
  /** The row open in the editor, in the address as `row=` (null: none, and no sentence about one). */
  const openRow = useCallback(
    (row: RowKey | null) =>
      setView((current) =>
        (current.row ?? null) === row && !current.rowProblem
          ? current
          : { ...current, row, rowProblem: null },
      ),
    [],
  );
  /** The address's row could not be opened: the sentence says why, and `row=` leaves the address. */
  const refuseRow = useCallback(
    (problem: string) => setView((current) => ({ ...current, row: null, rowProblem: problem })),
    [],
  );
  const dismissViewNotice = useCallback(
    () => setView((current) => (current.viewNotice === null ? current : { ...current, viewNotice: null })),
    [],
  );

  // An address's filter is checked by code loaded for it (the first visit of an address without one carries none);
  // the page waits for it (pageRequestOf).
  const pending = view.whereToCheck;
  useEffect(() => {
    if (!pending) return;
    let live = true;
    loadWhereCheck().then(
      ({ checkWhere }) => live && whereChecked(checkWhere(pending.json)),
      () =>
        live &&
        whereChecked({
          where: null,
          problem:
            'The filter in this address could not be checked: reload the page to try again. Every row is shown.',
        }),
    );
    return () => {
      live = false;
    };
  }, [pending, whereChecked]);

  const actions = useMemo(
    () => ({
      selectTable,
      search,
      filterBy,
      whereChecked,
      refuseFilter,
      sortBy,
      goToPage,
      setSize,
      setColumns,
      openView,
      viewLoaded,
      viewSaved,
      dismissViewNotice,
      openRow,
      refuseRow,
    }),
    [
      openRow,
      refuseRow,
      selectTable,
      search,
      filterBy,
      whereChecked,
      refuseFilter,
      sortBy,
      goToPage,
      setSize,
      setColumns,
      openView,
      viewLoaded,
      viewSaved,
      dismissViewNotice,
    ],
  );
  return [view, actions] as const;
}

export type BrowserViewActions = ReturnType<typeof useBrowserView>[1];
