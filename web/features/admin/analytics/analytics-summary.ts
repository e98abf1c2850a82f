import type { AnalyticsReport } from '#common/contract/analytics.ts';

/** A UTC day (YYYY-MM-DD) as the charts and texts show it: "Nov 24". */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** A whole percentage of a total (0 when the total is 0); the two shares of consent add up to 100. */
export const percentOf = (part: number, total: number): number =>
  total > 0 ? Math.round((part / total) * 100) : 0;

/** What the page says about a report, beside its charts. */
export function summaryOf(report: AnalyticsReport) {
  const totalViews = report.pageViewsByDay.reduce((sum, day) => sum + day.views, 0);
  const busiest = report.pageViewsByDay.reduce<{ day: string; views: number } | null>(
    (best, day) => (day.views > 0 && (best === null || day.views > best.views) ? day : best),
    null,
  );
  const { accepted, rejected } = report.consent;
  const consentTotal = accepted + rejected;
  const acceptedPercent = percentOf(accepted, consentTotal);
  return {
    totalViews,
    busiest,
    consentTotal,
    acceptedPercent,
    rejectedPercent: consentTotal > 0 ? 100 - acceptedPercent : 0,
    /** Page views of the top pages, for each page's share. */
    topViews: Math.max(0, ...report.pageViewsByPage.map((page) => page.views)),
    empty: totalViews === 0 && consentTotal === 0,
  };
}
export type AnalyticsSummary = ReturnType<typeof summaryOf>;
