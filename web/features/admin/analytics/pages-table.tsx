import { Progress, Stack, Table, Text } from '@mantine/core';
import { ANALYTICS_OTHER_PAGES, type AnalyticsReport } from '#common/contract/analytics.ts';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { percentOf, type AnalyticsSummary } from './analytics-summary.ts';
import { analyticsTexts as at } from './analytics-texts.ts';

/** The most viewed pages as a table: the path, its views and its share of all views, with a bar for the eye. */
export function PagesTable({
  report,
  summary,
  days,
}: {
  report: AnalyticsReport;
  summary: AnalyticsSummary;
  days: number;
}) {
  const pages = report.pageViewsByPage;
  return (
    <AdminSection title={at.viewsByPage} fill>
      {pages.length === 0 ? (
        <Text size="sm" c="dimmed">
          {at.noViews(days)}
        </Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {at.topPagesNote(pages.length)}
          </Text>
          <Table striped={false} verticalSpacing={6} horizontalSpacing="xs" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{at.page}</Table.Th>
                <Table.Th w={64} ta="right">
                  {at.views}
                </Table.Th>
                <Table.Th w={64} ta="right">
                  {at.share}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pages.map((page) => (
                <Table.Tr key={page.path}>
                  <Table.Td>
                    {page.path === ANALYTICS_OTHER_PAGES ? (
                      <Text size="sm" fs="italic">
                        {at.otherPages}
                      </Text>
                    ) : (
                      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {page.path}
                      </Text>
                    )}
                    <Progress
                      value={percentOf(page.views, summary.topViews)}
                      size="xs"
                      mt={4}
                      aria-hidden="true"
                    />
                  </Table.Td>
                  <Table.Td ta="right">{page.views.toLocaleString('en')}</Table.Td>
                  <Table.Td ta="right">{percentOf(page.views, summary.totalViews)}%</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </AdminSection>
  );
}
