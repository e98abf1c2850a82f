import { lazy, Suspense } from 'react';
import { Alert, Button, Grid, Skeleton, Stack, Text } from '@mantine/core';
import { failureMessage } from '#web/api/failure-message.ts';
import { useAdminOverview } from '#web/api/admin/overview.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { DatabasesSection } from './databases-section.tsx';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { RecentChangesSection } from './recent-changes-section.tsx';
import { SignInFailuresSection } from './sign-in-failures-section.tsx';
import { UsersAndRolesSection } from './users-and-roles-section.tsx';

/** The home page's own sentences. */
export const adminHomeMessages = {
  overviewFailed: 'Failed to load the overview.',
  retry: 'Retry',
  loading: 'Loading the overview…',
} as const;

// The living style sheet loads after the overview's code, in a chunk of its own (the sample grid with it).
const InterfacePieces = lazy(() =>
  import('./interface-pieces.tsx').then((module) => ({ default: module.InterfacePieces })),
);

/** /admin/home: the administrator's start page: users and roles, the databases' health, the last day's failed
 * sign-ins and data changes (GET /api/admin/overview), then the app's interface pieces. */
export function AdminHomePage() {
  return (
    <AdminFrame title="Admin">
      <Stack gap="lg">
        <Overview />
        <Suspense
          fallback={
            <AdminSection fill title="Interface pieces">
              <Skeleton height={240} radius="md" />
            </AdminSection>
          }
        >
          <InterfacePieces />
        </Suspense>
      </Stack>
    </AdminFrame>
  );
}

function Overview() {
  const overview = useAdminOverview();

  if (overview.isPending) {
    return (
      <Stack gap="lg" role="status" aria-busy="true" aria-label={adminHomeMessages.loading}>
        <Skeleton height={120} radius="md" />
        <Skeleton height={220} radius="md" />
      </Stack>
    );
  }

  if (overview.isError) {
    const detail = failureMessage(overview.error, '');
    return (
      <Alert color="red" title={adminHomeMessages.overviewFailed} role="alert">
        <Stack gap="sm" align="flex-start">
          {detail && <Text size="sm">{detail}</Text>}
          <Button
            variant="default"
            size="xs"
            loading={overview.isFetching}
            onClick={() => void overview.refetch()}
          >
            {adminHomeMessages.retry}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const data = overview.data;
  return (
    <Stack gap="lg">
      <UsersAndRolesSection overview={data} />
      <Grid gap="lg" align="stretch">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <DatabasesSection health={data.health} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <SignInFailuresSection overview={data} />
        </Grid.Col>
      </Grid>
      <RecentChangesSection overview={data} />
    </Stack>
  );
}
