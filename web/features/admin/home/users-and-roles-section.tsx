import { SimpleGrid } from '@mantine/core';
import { IconKey, IconLock, IconShieldCheck, IconShieldLock, IconUsers } from '@tabler/icons-react';
import type { AdminOverview } from '#common/contract/admin.ts';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { StatCard } from './stat-card.tsx';

/** "Users and roles": the counts, each a link to the page that lists them. */
export function UsersAndRolesSection({ overview }: { overview: AdminOverview }) {
  return (
    <AdminSection fill title="Users and roles">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        <StatCard label="Users" value={overview.users} to="/admin/users" icon={IconUsers} />
        <StatCard
          label="Administrators"
          value={overview.administrators}
          to="/admin/users"
          icon={IconShieldCheck}
        />
        <StatCard
          label="Locked"
          value={overview.lockedUsers}
          to="/admin/users"
          icon={IconLock}
          color={overview.lockedUsers > 0 ? 'orange' : 'indigo'}
        />
        <StatCard label="Active sessions" value={overview.activeSessions} to="/admin/users" icon={IconKey} />
        <StatCard label="Roles" value={overview.roles} to="/admin/roles" icon={IconShieldLock} />
      </SimpleGrid>
    </AdminSection>
  );
}
