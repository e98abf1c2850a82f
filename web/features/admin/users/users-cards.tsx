import type { ReactNode } from 'react';
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminUser } from '#common/contract/admin.ts';
import { RoleBadges, SecondFactorBadges, StatusBadge } from './user-badges.tsx';
import { shortInstant } from './user-format.ts';
import type { UsersTableProps } from './users-table.tsx';
import { userTexts as ut } from './user-texts.ts';

const columns = ut.columns;

function Line({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" w={104} style={{ flexShrink: 0 }}>
        {term}
      </Text>
      <Text component="div" size="sm" style={{ minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

function UserCard({ user }: { user: AdminUser }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group justify="space-between" align="center" gap="xs" wrap="nowrap">
          <Anchor
            component={Link}
            to={`/admin/users/${user.id}`}
            fw={600}
            style={{ minWidth: 0, overflowWrap: 'anywhere' }}
          >
            {user.username}
          </Anchor>
          <StatusBadge user={user} />
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {user.email}
        </Text>
        <Line term={columns.roles}>
          <RoleBadges roles={user.roles} />
        </Line>
        <Line term={columns.lastSignIn}>
          {user.lastSignInAt === null ? (
            ut.never
          ) : (
            <time dateTime={user.lastSignInAt}>{shortInstant(user.lastSignInAt)}</time>
          )}
        </Line>
        <Line term={columns.secondFactors}>
          <SecondFactorBadges factors={user.twoFactor} />
        </Line>
        <Line term={columns.id}>{user.id}</Line>
      </Stack>
    </Paper>
  );
}

/** The user list on a phone: a card per user (the table's columns as lines), in a list named "Users". */
export function UsersCards({ users, stale, emptyText }: UsersTableProps) {
  if (users === undefined || users.length === 0)
    return (
      <Text size="sm" c="dimmed" py="md" ta="center" role={users === undefined ? 'status' : undefined}>
        {users === undefined ? ut.loadingUsers : emptyText}
      </Text>
    );
  return (
    <Stack
      component="ul"
      aria-label={ut.table}
      aria-busy={stale}
      gap="xs"
      m={0}
      p={0}
      style={{ listStyle: 'none', opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {users.map((user) => (
        <UserCard key={user.id} user={user} />
      ))}
    </Stack>
  );
}
