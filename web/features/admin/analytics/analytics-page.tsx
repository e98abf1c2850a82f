import '@mantine/charts/styles.css';
import { Alert, Button, Grid, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBarOff } from '@tabler/icons-react';
import { useAnalyticsReport } from '#web/api/analytics/report.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { ANALYTICS_RANGES, useAnalyticsDays } from './analytics-address.ts';
import { summaryOf } from './analytics-summary.ts';
import { analyticsTexts as at } from './analytics-texts.ts';
import { ConsentSection } from './consent-section.tsx';
import { PagesTable } from './pages-table.tsx';
import { ViewsByDayChart } from './views-by-day-chart.tsx';

/**
 * /admin/analytics (issue 15): the site's own analytics over 7, 30 or 90 days (in the address): page views per day,
 * the most viewed pages and the consent choices (GET /api/admin/analytics), each with its numbers in words. The
 * chart library and its styles load with this page's chunk only.
 */
export function AnalyticsPage() {
  const { days, setDays } = useAnalyticsDays();
  const report = useAnalyticsReport(days);

  return (
    <AdminFrame
      title={at.title}
      actions={
        <SegmentedControl
          aria-label={at.range}
          value={String(days)}
          onChange={(value) => setDays(Number(value) as (typeof ANALYTICS_RANGES)[number])}
          data={ANALYTICS_RANGES.map((range) => ({ value: String(range), label: at.rangeOption(range) }))}
        />
      }
    >
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          {at.privacy}
        </Text>
        {report.isPending ? (
          <Stack gap="lg" role="status" aria-busy="true" aria-label={at.loading}>
            <Skeleton height={300} radius="md" />
            <Skeleton height={200} radius="md" />
          </Stack>
        ) : report.isError && !report.data ? (
          <Alert color="red" title={at.failed} role="alert">
            <Stack gap="sm" align="flex-start">
              {failureMessage(report.error, '') && <Text size="sm">{failureMessage(report.error, '')}</Text>}
              <Button
                variant="default"
                size="xs"
                loading={report.isFetching}
                onClick={() => void report.refetch()}
              >
                {at.retry}
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Report days={days} data={report.data} />
        )}
      </Stack>
    </AdminFrame>
  );
}

function Report({
  days,
  data,
}: {
  days: number;
  data: NonNullable<ReturnType<typeof useAnalyticsReport>['data']>;
}) {
  const summary = summaryOf(data);
  // The data shown may still be the previous period's while this one loads: its own length says which.
  const shownDays = data.pageViewsByDay.length || days;
  if (summary.empty) {
    return (
      <Alert
        variant="light"
        color="gray"
        icon={<IconChartBarOff aria-hidden="true" />}
        title={at.emptyTitle(shownDays)}
      >
        {at.emptyBody}
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <ViewsByDayChart report={data} summary={summary} days={shownDays} />
      <Grid gap="lg" align="stretch">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <PagesTable report={data} summary={summary} days={shownDays} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <ConsentSection report={data} summary={summary} days={shownDays} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
