import { Alert, Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useAudit } from '#web/api/admin/audit.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AuditTime, auditActionLabel, auditTargetLabel } from '#web/features/admin/audit-entry-summary.tsx';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { userTexts as ut } from './user-texts.ts';

/** How many of their newest audit entries the user's page shows. */
export const RECENT_ACTIVITY_SIZE = 10;

/** The region "Recent activity": the user's newest 10 audit entries (what, on what, when) and the whole trail. */
export function RecentActivity({ userId }: { userId: number }) {
  const audit = useAudit({ page: 1, pageSize: RECENT_ACTIVITY_SIZE, userId });
  let body;
  if (audit.isPending) {
    body = (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{ut.loadingActivity}</Text>
      </Group>
    );
  } else if (audit.isError) {
    body = (
      <Alert color="red" role="alert" p="xs">
        {failureMessage(audit.error, ut.activityFailed)}
      </Alert>
    );
  } else if (audit.data.results.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        {ut.noActivity}
      </Text>
    );
  } else {
    body = (
      <Stack component="ol" gap={0} aria-label={ut.activityList} m={0} p={0} style={{ listStyle: 'none' }}>
        {audit.data.results.map((entry) => {
          const target = auditTargetLabel(entry.target);
          return (
            <Group
              component="li"
              key={entry.id}
              justify="space-between"
              align="baseline"
              gap="xs"
              py={6}
              wrap="wrap"
              style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            >
              <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                <Text span inherit fw={500} title={entry.action}>
                  {auditActionLabel(entry.action)}
                </Text>
                {target ? (
                  <Text span inherit c="dimmed">
                    {' · '}
                    {target}
                  </Text>
                ) : null}
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                <AuditTime at={entry.at} />
              </Text>
            </Group>
          );
        })}
      </Stack>
    );
  }
  return (
    <AdminSection
      title={ut.recentActivity}
      aside={
        <Anchor component={Link} to={`/admin/audit?userId=${userId}`} size="sm">
          {ut.seeAll}
        </Anchor>
      }
    >
      {body}
    </AdminSection>
  );
}
