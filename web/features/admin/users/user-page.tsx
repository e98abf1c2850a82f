import { Alert, Anchor, Badge, Button, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { userMessages } from '#common/contract/admin.ts';
import { useAdminUser } from '#web/api/admin/user.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { useSession } from '#web/session/session-context.ts';
import { RecentActivity } from './recent-activity.tsx';
import { UserActionsCard } from './user-actions-card.tsx';
import { UserProfile } from './user-profile.tsx';
import { UserRolesForm } from './user-roles-form.tsx';
import { userTexts as ut } from './user-texts.ts';

/** The user Id in the address, or null when it is not one (which no user has). */
function userIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return param !== undefined && /^\d+$/.test(param) && Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/** /admin/users/{id}: one user, their roles, the actions on their account and their recent activity. */
export function UserPage() {
  const id = userIdOf(useParams().id);
  return id === null ? <UserNotFound /> : <UserDetails id={id} />;
}

function UserNotFound() {
  return (
    <AdminFrame title={ut.notFoundTitle}>
      <Stack gap="sm" align="flex-start">
        <Text>{userMessages.notFound}</Text>
        <Anchor component={Link} to="/admin/users">
          {ut.backToUsers}
        </Anchor>
      </Stack>
    </AdminFrame>
  );
}

function UserDetails({ id }: { id: number }) {
  const user = useAdminUser(id);
  const session = useSession();

  if (user.isPending)
    return (
      <AdminFrame title={ut.userTitle}>
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{ut.loadingUser}</Text>
        </Group>
      </AdminFrame>
    );
  if (user.isError) {
    if (user.error.message === userMessages.notFound) return <UserNotFound />;
    return (
      <AdminFrame title={ut.userTitle}>
        <Alert color="red" role="alert" title={ut.loadFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failureMessage(user.error, ut.loadFailed)}</Text>
            <Button size="xs" variant="light" onClick={() => void user.refetch()}>
              {ut.tryAgain}
            </Button>
          </Stack>
        </Alert>
      </AdminFrame>
    );
  }

  const detail = user.data;
  const isOwnAccount = session.verification?.user.id === detail.id;
  return (
    <AdminFrame title={detail.username}>
      <Stack gap="md">
        {/* The lock state is the profile's Status; here only what a glance should catch besides it. */}
        {detail.isAdmin || detail.passwordExpired ? (
          <Group gap="xs">
            {detail.isAdmin ? (
              <Badge variant="light" color="indigo" size="sm" tt="none">
                {ut.administrator}
              </Badge>
            ) : null}
            {detail.passwordExpired ? (
              <Badge variant="light" color="yellow" size="sm" tt="none">
                {ut.passwordExpired}
              </Badge>
            ) : null}
          </Group>
        ) : null}
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <UserProfile user={detail} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="md">
              <UserRolesForm user={detail} />
              <UserActionsCard user={detail} isOwnAccount={isOwnAccount} />
            </Stack>
          </Grid.Col>
        </Grid>
        <RecentActivity userId={detail.id} />
      </Stack>
    </AdminFrame>
  );
}
