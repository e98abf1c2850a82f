import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Filter } from '#common/contract/filter.ts';
import {
  freshView,
  writeBrowserAddress,
  type BrowserAddress,
  type BrowserTableName,
} from './browser-address.ts';
import { loadWhereCheck } from './filter/where-param.ts';
import type { ColumnLayout } from './columns/columns-param.ts';

/**
 * The browser's view (table, search, filter, sort, page, size, columns) as state, written into the address after every change
 * (replaceState, no navigation). Spec 000 §4/§5: a new search, filter, sort or page size goes back to page 1; a new
 * table starts with no search, no filter and no sort and keeps the page size.
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
    }),
    [selectTable, search, filterBy, whereChecked, refuseFilter, sortBy, goToPage, setSize, setColumns],
  );
  return [view, actions] as const;
}

export type BrowserViewActions = ReturnType<typeof useBrowserView>[1];
