import { Link } from 'react-router';
import { Anchor, Text } from '@mantine/core';
import type { AdminOverview } from '#common/contract/admin.ts';
import { EntryList } from './entry-list.tsx';
import { AdminSection } from '#web/features/admin/admin-section.tsx';

/** "Recent changes": the newest data changes and the way to the whole audit trail. */
export function RecentChangesSection({ overview }: { overview: AdminOverview }) {
  return (
    <AdminSection
      fill
      title="Recent changes"
      aside={
        <Anchor component={Link} to="/admin/audit" size="sm" fw={500}>
          Open the audit trail
        </Anchor>
      }
    >
      <Text size="sm" c="dimmed">
        {overview.changes24h === 1
          ? '1 data change in the last 24 hours.'
          : `${overview.changes24h.toLocaleString('en-US')} data changes in the last 24 hours.`}
      </Text>
      <EntryList
        entries={overview.recentChanges}
        label="Newest data changes"
        empty="No data change is recorded."
      />
    </AdminSection>
  );
}
