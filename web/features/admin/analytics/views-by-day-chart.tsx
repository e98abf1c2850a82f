import { BarChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import type { AnalyticsReport } from '#common/contract/analytics.ts';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { dayLabel, type AnalyticsSummary } from './analytics-summary.ts';
import { analyticsTexts as at } from './analytics-texts.ts';

/** Page views on every day of the period as bars, with the total and the busiest day in words. */
export function ViewsByDayChart({
  report,
  summary,
  days,
}: {
  report: AnalyticsReport;
  summary: AnalyticsSummary;
  days: number;
}) {
  const data = report.pageViewsByDay.map((day) => ({ day: dayLabel(day.day), views: day.views }));
  return (
    <AdminSection title={at.viewsByDay}>
      <Stack gap="xs">
        <Text size="sm">
          {at.totalViews(summary.totalViews, days)}{' '}
          {summary.busiest ? at.busiest(dayLabel(summary.busiest.day), summary.busiest.views) : ''}
        </Text>
        {summary.totalViews === 0 ? (
          <Text size="sm" c="dimmed">
            {at.noViews(days)}
          </Text>
        ) : (
          // Hidden overflow: until the chart has measured its box after a resize, it never widens the page.
          <div role="img" aria-label={at.chartLabel(days)} style={{ overflow: 'hidden' }}>
            <BarChart
              h={240}
              data={data}
              dataKey="day"
              series={[{ name: 'views', label: at.views, color: 'blue.6' }]}
              tickLine="y"
              gridAxis="x"
              maxBarWidth={28}
              yAxisProps={{ allowDecimals: false, width: 40 }}
              xAxisProps={{ minTickGap: 12 }}
              valueFormatter={(value) => value.toLocaleString('en')}
            />
          </div>
        )}
      </Stack>
    </AdminSection>
  );
}
