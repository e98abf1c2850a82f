import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminUser } from '#common/contract/admin.ts';
import { RoleBadges, SecondFactorBadges, StatusBadge } from './user-badges.tsx';
import { shortInstant } from './user-format.ts';
import { userTexts as ut } from './user-texts.ts';

export interface UsersTableProps {
  /** The page's users; undefined while the first page loads. */
  users: AdminUser[] | undefined;
  /** The next page or search is loading while the last one stays on screen. */
  stale: boolean;
  /** What the empty table says. */
  emptyText: string;
}

const columns = ut.columns;

/**
 * The table named "Users" (Id, Username as a link to the user's page, Email, Roles, Last sign-in, Second factors,
 * Status). Below 880 px it scrolls sideways inside its frame, the username column staying in view (phones get
 * users-cards.tsx instead).
 */
export function UsersTable({ users, stale, emptyText }: UsersTableProps) {
  let body;
  if (users === undefined || users.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={7}>
          <Text size="sm" c="dimmed" py="md" ta="center" role={users === undefined ? 'status' : undefined}>
            {users === undefined ? ut.loadingUsers : emptyText}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = users.map((user) => (
      <Table.Tr key={user.id}>
        <Table.Td c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {user.id}
        </Table.Td>
        <Table.Th scope="row" fw={500} style={stickyCell}>
          <Anchor component={Link} to={`/admin/users/${user.id}`} size="sm" fw={600}>
            {user.username}
          </Anchor>
        </Table.Th>
        <Table.Td style={{ overflowWrap: 'anywhere' }}>{user.email}</Table.Td>
        <Table.Td>
          <RoleBadges roles={user.roles} />
        </Table.Td>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>
          {user.lastSignInAt === null ? (
            <Text span size="sm" c="dimmed">
              {ut.never}
            </Text>
          ) : (
            <time dateTime={user.lastSignInAt}>{shortInstant(user.lastSignInAt)}</time>
          )}
        </Table.Td>
        <Table.Td>
          <SecondFactorBadges factors={user.twoFactor} />
        </Table.Td>
        <Table.Td>
          <StatusBadge user={user} />
        </Table.Td>
      </Table.Tr>
    ));
  }

  return (
    <Table.ScrollContainer minWidth={880} type="native">
      <Table
        aria-label={ut.table}
        aria-busy={stale || users === undefined}
        highlightOnHover
        verticalSpacing="sm"
        fz="sm"
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={64}>{columns.id}</Table.Th>
            <Table.Th style={stickyCell}>{columns.username}</Table.Th>
            <Table.Th>{columns.email}</Table.Th>
            <Table.Th>{columns.roles}</Table.Th>
            <Table.Th>{columns.lastSignIn}</Table.Th>
            <Table.Th>{columns.secondFactors}</Table.Th>
            <Table.Th>{columns.status}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The username stays in view while the table scrolls sideways (the page's background behind it). */
const stickyCell = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
} as const;
