import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { foreignKeyChoices, type ForeignKeyChoices } from '#common/contract/sql.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString, tableApiPath, type TableRef } from './paths.ts';

export interface ForeignKeyRequest extends TableRef {
  column: string;
  term: string;
}

/** GET /api/sql/{db}/{schema}/{table}/foreignkeys?column=&term=&page=: one page of 25 choices of one foreign-key
 * column, matches of the term first; canReadReferencedTable false means no options may be shown. */
export function fetchForeignKeyChoices(
  request: ForeignKeyRequest,
  page: number,
  signal?: AbortSignal,
): Promise<ApiResult<ForeignKeyChoices>> {
  const query = queryString({ column: request.column, term: request.term.trim(), page });
  return apiGet(`${tableApiPath(request)}/foreignkeys${query}`, { schema: foreignKeyChoices, signal });
}

export const foreignKeyChoicesQueryOptions = (request: ForeignKeyRequest) =>
  infiniteQueryOptions({
    queryKey: queryKeys.sql.foreignKeys(request),
    queryFn: async ({ pageParam, signal }) =>
      unwrapData(await fetchForeignKeyChoices(request, pageParam, signal)),
    initialPageParam: 1,
    getNextPageParam: (last: ForeignKeyChoices) => (last.hasMore ? last.page + 1 : undefined),
    staleTime: 30_000,
  });

/** The choices of a foreign-key combobox, 25 per load; fetchNextPage loads 25 more (on scroll to the end). */
export function useForeignKeyChoices(request: ForeignKeyRequest, enabled = true) {
  return useInfiniteQuery({ ...foreignKeyChoicesQueryOptions(request), enabled });
}
