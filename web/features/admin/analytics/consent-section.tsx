import { DonutChart } from '@mantine/charts';
import { ColorSwatch, Group, Stack, Text } from '@mantine/core';
import type { AnalyticsReport } from '#common/contract/analytics.ts';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import type { AnalyticsSummary } from './analytics-summary.ts';
import { analyticsTexts as at } from './analytics-texts.ts';

const ACCEPTED_COLOR = 'teal.6';
const REJECTED_COLOR = 'orange.6';

/** Consent choices of the period: a donut for the eye, and each choice's count and share in words. */
export function ConsentSection({
  report,
  summary,
  days,
}: {
  report: AnalyticsReport;
  summary: AnalyticsSummary;
  days: number;
}) {
  const { accepted, rejected } = report.consent;
  const rows = [
    { name: at.accepted, value: accepted, percent: summary.acceptedPercent, color: ACCEPTED_COLOR },
    { name: at.rejected, value: rejected, percent: summary.rejectedPercent, color: REJECTED_COLOR },
  ];
  return (
    <AdminSection title={at.consent} fill>
      {summary.consentTotal === 0 ? (
        <Text size="sm" c="dimmed">
          {at.noConsent(days)}
        </Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{at.consentTotal(summary.consentTotal)}</Text>
          <Group gap="lg" align="center" wrap="nowrap">
            <div role="img" aria-label={at.consentChart}>
              <DonutChart
                size={120}
                thickness={22}
                withTooltip={false}
                data={rows
                  .filter((row) => row.value > 0)
                  .map(({ name, value, color }) => ({ name, value, color }))}
              />
            </div>
            <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {rows.map((row) => (
                <Group key={row.name} component="li" gap="xs" wrap="nowrap">
                  <ColorSwatch color={`var(--mantine-color-${row.color.replace('.', '-')})`} size={12} />
                  <Text size="sm">
                    <Text span fw={600}>
                      {row.name}:
                    </Text>{' '}
                    {at.choice(row.value, row.percent)}
                  </Text>
                </Group>
              ))}
            </Stack>
          </Group>
        </Stack>
      )}
    </AdminSection>
  );
}
