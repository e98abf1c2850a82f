import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { ANALYTICS_DAYS_DEFAULT } from '#common/contract/analytics.ts';

/** The periods the page offers, in days. */
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

const isRange = (days: number): days is AnalyticsRange =>
  (ANALYTICS_RANGES as readonly number[]).includes(days);

/** The period in the address (/admin/analytics?days=7); anything else is the default 30. */
export function analyticsDaysOf(params: URLSearchParams): AnalyticsRange {
  const days = Number(params.get('days'));
  return isRange(days) ? days : (ANALYTICS_DAYS_DEFAULT as AnalyticsRange);
}

/** The period and its change, written in place (the default leaves the address bare). */
export function useAnalyticsDays() {
  const [params, setParams] = useSearchParams();
  const days = analyticsDaysOf(params);
  const setDays = useCallback(
    (next: AnalyticsRange) =>
      setParams(
        () =>
          next === ANALYTICS_DAYS_DEFAULT
            ? new URLSearchParams()
            : new URLSearchParams({ days: String(next) }),
        { replace: true },
      ),
    [setParams],
  );
  return { days, setDays };
}
