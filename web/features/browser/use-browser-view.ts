import { useCallback, useEffect, useMemo, useState } from 'react';
import { writeBrowserAddress, type BrowserAddress, type BrowserTableName } from './browser-address.ts';

/**
 * The browser's view (table, search, sort, page, size) as state, written into the address after every change
 * (replaceState, no navigation). Spec 000 §4/§5: a new search, sort or page size goes back to page 1; a new table
 * starts with no search and no sort and keeps the page size.
 */
export function useBrowserView(initial: BrowserAddress) {
  const [view, setView] = useState(initial);

  useEffect(() => writeBrowserAddress(view), [view]);

  const selectTable = useCallback(
    (table: BrowserTableName) =>
      setView((current) => ({ ...current, table, filter: {}, sort: null, page: 1 })),
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
  const setSize = useCallback((size: number) => setView((current) => ({ ...current, size, page: 1 })), []);

  const actions = useMemo(
    () => ({ selectTable, search, sortBy, goToPage, setSize }),
    [selectTable, search, sortBy, goToPage, setSize],
  );
  return [view, actions] as const;
}

export type BrowserViewActions = ReturnType<typeof useBrowserView>[1];
