import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import { pageResult, type Filter, type PageResult } from '#common/contract/sql.ts';
import { GRID_CUT_TEXT } from '#common/limits.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { fetchFilterQuery } from './filter-query.ts';
import { queryString, tableApiPath, type TableRef } from './paths.ts';

/** One page of a table as the browser asks for it: the filter (column → term), the filter document when one is set,
 * the sort ('Name' or '-Name', null for none), the page from 1 and the page size (20, 40, 60, 80 or 100). */
export interface PageRequest extends TableRef {
  filter: Filter;
  /** The filter document (issue 35): set, the page comes from …/query (filter-query.ts) with the terms beside it;
   * null or left out, from the spec's page search, exactly as without filters. */
  where?: FilterDocument | null;
  sort: string | null;
  page: number;
  pageSize: number;
  /** The cursor of the page shown when this one is its neighbour (Next, Previous): the server then seeks from it.
   * Not part of the query's key: page N is the same page however it is reached. */
  cursor?: string | null;
  /** Ask for the labels of the rows the page's foreign keys point at (`?labels=1`, decision 0067). */
  labels?: boolean;
}

/** A page request with the length its long values are cut to (`?cutText=`, decision 0066); left out, every value
 * comes whole. */
export type CutPageRequest = PageRequest & { cutText?: number };

/** POST /api/sql/{db}/{schema}/{table}/page/{page}/search?pageSize=&orderBy=&cursor=&cutText=&labels=: the page's
 * rows (with their foreign keys' labels when asked, decision 0067), the count (countIsExact false when it is an
 * estimate or capped) and the page's cursor. With the cursor of the neighbouring page shown, the server seeks from it,
 * so Next and Previous cost what page 1 costs on any server instance. */
export function fetchPage(request: CutPageRequest, signal?: AbortSignal): Promise<ApiResult<PageResult>> {
  const query = queryString({
    pageSize: request.pageSize,
    orderBy: request.sort,
    cursor: request.cursor,
    cutText: request.cutText,
    labels: request.labels ? 1 : undefined,
  });
  return apiPostEncoded(`${tableApiPath(request)}/page/${request.page}/search${query}`, request.filter, {
    schema: pageResult,
    signal,
  });
}

export const pageQueryOptions = (request: PageRequest) =>
  queryOptions({
    queryKey: queryKeys.sql.page(request),
    queryFn: async ({ signal }) => {
      const where = request.where;
      // The grid's pages carry long values cut (decision 0066; a cell shows at most GRID_CUT_TEXT characters) and
      // their foreign keys' labels (a link a key cell, decision 0067).
      const asked = { ...request, cutText: GRID_CUT_TEXT, labels: true };
      return unwrapData(
        await (where ? fetchFilterQuery({ ...asked, where }, signal) : fetchPage(asked, signal)),
      );
    },
    // The page shown stays while the next one loads (no blank grid between pages).
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** A page of rows; `isPlaceholderData` is true while the previous page is still shown. */
export function usePage(request: PageRequest | null) {
  return useQuery({
    ...pageQueryOptions(
      request ?? { db: '', schema: '', table: '', filter: {}, sort: null, page: 1, pageSize: 20 },
    ),
    enabled: request !== null,
  });
}
