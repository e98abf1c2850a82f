import { SimpleGrid } from '@mantine/core';
import { IconAlertTriangle, IconLock } from '@tabler/icons-react';
import type { AdminOverview } from '#common/contract/admin.ts';
import { EntryList } from './entry-list.tsx';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { StatCard } from './stat-card.tsx';

/** "Sign-in failures": the last 24 hours' failed checks and lockouts, then the newest of them. */
export function SignInFailuresSection({ overview }: { overview: AdminOverview }) {
  return (
    <AdminSection fill title="Sign-in failures">
      <SimpleGrid cols={2} spacing="sm">
        <StatCard
          label="Failures in 24 h"
          value={overview.signInFailures24h}
          icon={IconAlertTriangle}
          color={overview.signInFailures24h > 0 ? 'orange' : 'indigo'}
        />
        <StatCard
          label="Lockouts in 24 h"
          value={overview.lockouts24h}
          icon={IconLock}
          color={overview.lockouts24h > 0 ? 'red' : 'indigo'}
        />
      </SimpleGrid>
      <EntryList
        entries={overview.recentFailures}
        label="Newest sign-in failures"
        empty="No failed sign-in is recorded."
      />
    </AdminSection>
  );
}
