import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { analyticsReport, type AnalyticsReport } from '#common/contract/analytics.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { queryString } from '#web/api/query-string.ts';

/** GET /api/admin/analytics?days=: page views per day and per page, and consent choices, of the last `days` days. */
export function fetchAnalyticsReport(
  days: number,
  signal?: AbortSignal,
): Promise<ApiResult<AnalyticsReport>> {
  return apiGet(`/api/admin/analytics${queryString({ days })}`, { schema: analyticsReport, signal });
}

export const analyticsReportQueryOptions = (days: number) =>
  queryOptions({
    queryKey: queryKeys.analytics.report(days),
    queryFn: async ({ signal }) => unwrapData(await fetchAnalyticsReport(days, signal)),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** The analytics report of the last `days` days; the one shown stays while another range loads. */
export function useAnalyticsReport(days: number) {
  return useQuery(analyticsReportQueryOptions(days));
}
