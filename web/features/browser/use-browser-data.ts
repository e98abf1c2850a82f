import { useEffect, useRef, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { browserMessages } from '#common/messages.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useDatabases } from '#web/api/sql/databases.ts';
import { usePage, type PageRequest } from '#web/api/sql/page.ts';
import { useTables } from '#web/api/sql/tables.ts';
import type { BrowserAddress } from './browser-address.ts';
import { pageRequestOf } from './browser-prefetch.ts';
import type { CardPage } from './table-card.tsx';
import { isSameTable } from './table-list.tsx';

/** A page without labels (one array, so the grid's links are not built again each render). */
const NO_LABELS: [] = [];

/** A page shown with its cursor, and the view (table, filter, sort, size) it belongs to. */
interface ShownPage {
  view: string;
  page: number;
  cursor: string;
}

/** What a cursor belongs to on the server: the table, search, filter, sort and page size (not the page). */
const viewKey = (request: PageRequest) =>
  JSON.stringify([
    request.db,
    request.schema,
    request.table,
    request.filter,
    request.where ?? null,
    request.sort,
    request.pageSize,
  ]);

/** The shown page's cursor when the asked page is its neighbour in the same view, else none (a jump by number). */
export function neighbourCursor(shown: ShownPage | null, request: PageRequest | null): string | null {
  if (!shown || !request || Math.abs(shown.page - request.page) !== 1) return null;
  return shown.view === viewKey(request) ? shown.cursor : null;
}

/** Shows a failure's toast once per failure (spec 000 §8: the server's message when it sent one). */
function useFailureToast(error: Error | null, when: boolean, fallback: string) {
  const shown = useRef<Error | null>(null);
  useEffect(() => {
    if (!error || !when || shown.current === error) return;
    shown.current = error;
    notifications.show({ color: 'red', message: failureMessage(error, fallback) });
  }, [error, when, fallback]);
}

export interface BrowserData {
  /** false: the database is not one the person's links show (or none exists); null: not known yet. */
  databaseFound: boolean | null;
  tables: TableListItem[] | undefined;
  tablesFailed: boolean;
  /** The table the view names: undefined while the list loads, null when the list does not have it. */
  table: TableListItem | null | undefined;
  page: CardPage;
}

/**
 * What the browser reads: the databases (to tell an unknown one), the tables of the view's database, and the
 * view's page. The page is asked for at once, beside the table list, so the first rows are not one round trip
 * later than they could be. Failures are toasts (spec 000 §8), each only where it is news: an unknown database
 * says 'No database was found.' and not also that its tables failed.
 */
export function useBrowserData(view: BrowserAddress): BrowserData {
  const databases = useDatabases();
  const tables = useTables(view.db);
  const request = pageRequestOf(view);
  // The page shown and its cursor: Next and Previous (any neighbour of it in the same view) send it, so the server
  // seeks from it (docs/decisions/0036-stateless-paging.md). The address keeps ?page= alone.
  const [shown, setShown] = useState<ShownPage | null>(null);
  const pageQuery = usePage(request && { ...request, cursor: neighbourCursor(shown, request) });

  const databaseFound = databases.data ? databases.data.some((d) => d.name === view.db) : null;
  const table =
    view.table === null
      ? null
      : tables.data
        ? (tables.data.find((item) => isSameTable(view.table, item)) ?? null)
        : undefined;

  useFailureToast(databases.error, true, browserMessages.databasesFailed);
  const missingShown = useRef(false);
  useEffect(() => {
    if (databaseFound !== false || missingShown.current) return;
    missingShown.current = true;
    notifications.show({ color: 'red', message: browserMessages.noDatabase });
  }, [databaseFound]);
  useFailureToast(tables.error, databaseFound === true || databases.isError, browserMessages.tableInfoFailed);
  useFailureToast(pageQuery.error, Boolean(table), browserMessages.pageFailed);

  // The query keeps the last page as a placeholder while the next loads; a page of another table is no use here.
  const tableKey = view.table ? `${view.table.schema}\u0000${view.table.name}` : null;
  const [loadedTable, setLoadedTable] = useState<string | null>(null);
  const fresh = pageQuery.isSuccess && !pageQuery.isPlaceholderData;
  if (fresh && loadedTable !== tableKey) setLoadedTable(tableKey);
  const usable = pageQuery.data && (fresh || loadedTable === tableKey) ? pageQuery.data : undefined;
  // Once the page's own read is done: a page shown from the cache is read again with the cursor it was reached by.
  const freshCursor = fresh && !pageQuery.isFetching && request ? (pageQuery.data?.cursor ?? null) : null;
  if (request && freshCursor && (shown?.cursor !== freshCursor || shown.view !== viewKey(request)))
    setShown({ view: viewKey(request), page: request.page, cursor: freshCursor });

  return {
    databaseFound,
    tables: tables.data,
    tablesFailed: tables.isError,
    table,
    page: {
      rows: usable?.results ?? [],
      count: usable?.count ?? null,
      countIsExact: usable?.countIsExact ?? true,
      loading: view.table !== null && usable === undefined && !pageQuery.isError,
      stale: usable !== undefined && pageQuery.isPlaceholderData,
      labels: usable?.labels ?? NO_LABELS,
    },
  };
}
