import { pageResult, type PageResult } from '#common/contract/sql.ts';
import type { Filter } from '#common/contract/filter.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { queryString, tableApiPath } from './paths.ts';
import type { CutPageRequest, PageRequest } from './page.ts';

/** A page request under a filter document (issue 35): the page's request with its `where` set. */
export type FilterQueryRequest = CutPageRequest & { where: Filter };

/**
 * POST /api/sql/{db}/{schema}/{table}/query?page=&pageSize=&orderBy=&cursor=&cutText=&labels= with
 * `{ where, search }` (encoded as the other data calls' bodies): the page of the rows the filter keeps, ANDed with the
 * search terms when there are some, and their count, as the page search answers it. Its query options and hook are the page's (page.ts): one query
 * whose call follows the view, so the page shown stays while the filtered one loads.
 */
export function fetchFilterQuery(
  request: FilterQueryRequest,
  signal?: AbortSignal,
): Promise<ApiResult<PageResult>> {
  const query = queryString({
    page: request.page,
    pageSize: request.pageSize,
    orderBy: request.sort,
    cursor: request.cursor,
    cutText: request.cutText,
    labels: request.labels ? 1 : undefined,
  });
  const body: { where: Filter; search?: PageRequest['filter'] } = { where: request.where };
  if (Object.keys(request.filter).length > 0) body.search = request.filter;
  return apiPostEncoded(`${tableApiPath(request)}/query${query}`, body, { schema: pageResult, signal });
}
