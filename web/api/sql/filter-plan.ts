import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { filterPlan, type Filter, type FilterPlan } from '#common/contract/filter.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** The filter to plan and the order its rows would be read in ('Name', '-Name' or null). */
export interface FilterPlanRequest extends TableRef {
  where: Filter;
  orderBy: string | null;
}

/** POST /api/sql/{db}/{schema}/{table}/query/plan with `{ where, orderBy }`: for each condition whether an index
 * serves it, whether the whole filter will scan (with the advice and the scan budget), and the engine's estimate. */
export function fetchFilterPlan(
  request: FilterPlanRequest,
  signal?: AbortSignal,
): Promise<ApiResult<FilterPlan>> {
  const body: { where: Filter; orderBy?: string } = { where: request.where };
  if (request.orderBy) body.orderBy = request.orderBy;
  return apiPostEncoded(`${tableApiPath(request)}/query/plan`, body, { schema: filterPlan, signal });
}

export const filterPlanQueryOptions = (request: FilterPlanRequest) =>
  queryOptions({
    queryKey: queryKeys.sql.filterPlan(request),
    queryFn: async ({ signal }) => unwrapData(await fetchFilterPlan(request, signal)),
    // The badges of the last plan stay while the next one is asked for (no flicker as a filter is built).
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });

/** The plan of a filter; null asks for nothing. */
export function useFilterPlan(request: FilterPlanRequest | null) {
  return useQuery({
    ...filterPlanQueryOptions(
      request ?? { db: '', schema: '', table: '', where: { and: [] }, orderBy: null },
    ),
    enabled: request !== null,
  });
}
