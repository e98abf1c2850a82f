import type { QueryClient } from '@tanstack/react-query';
import { pageQueryOptions, type PageRequest } from '#web/api/sql/page.ts';
import { tablesQueryOptions } from '#web/api/sql/tables.ts';
import { parseBrowserAddress, type BrowserAddress } from './browser-address.ts';
import { loadWhereCheck } from './filter/where-param.ts';

/** The page request of a view (null without a table, while the address's filter is being checked, or while its saved
 * view loads): the one the browser's data hook asks for. */
export function pageRequestOf(view: BrowserAddress): PageRequest | null {
  return view.table && !view.whereToCheck && !view.viewPending
    ? {
        db: view.db,
        schema: view.table.schema,
        table: view.table.name,
        filter: view.filter,
        where: view.where,
        sort: view.sort,
        page: view.page,
        pageSize: view.size,
      }
    : null;
}

/**
 * Starts reading what the browser at this address shows first (its database's tables and the view's page), for the
 * route to call once the person may open it, while the browser's own code is still loading: the page's hooks then
 * find these reads under way. Small and in the app's first chunk on purpose (the address parser and two query
 * options). A failed read is left to the page's hooks, which show it.
 */
export function prefetchBrowserView(queryClient: QueryClient, pathname: string, search: string): void {
  const view = parseBrowserAddress(pathname, search);
  if (!view) return;
  void queryClient.prefetchQuery(tablesQueryOptions(view.db));
  if (view.table && view.viewPending) {
    // The address's saved view: the page waits for it (its sort, filter and size), so its list is read now, by code
    // loaded for it (the views' schemas are not in the first chunk).
    const ref = { db: view.db, schema: view.table.schema, table: view.table.name };
    import('#web/api/views/views.ts').then(
      ({ viewsQueryOptions }) => void queryClient.prefetchQuery(viewsQueryOptions(ref)),
      () => undefined,
    );
    return;
  }
  const pending = view.whereToCheck;
  if (pending) {
    // The page under the address's filter, once it is checked (a refused one is the page's to say).
    loadWhereCheck().then(
      ({ checkWhere }) => {
        const checked = checkWhere(pending.json);
        const request = pageRequestOf({ ...view, where: checked.where, whereToCheck: null });
        if (request && checked.problem === null) void queryClient.prefetchQuery(pageQueryOptions(request));
      },
      () => undefined,
    );
    return;
  }
  const request = pageRequestOf(view);
  if (request) void queryClient.prefetchQuery(pageQueryOptions(request));
}
