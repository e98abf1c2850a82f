import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { LOGIN_PATH } from '#common/content/site.ts';
import { PageLoader } from '#web/ui/page-loader.tsx';
import { fetchSetupStatus, SETUP_STATUS_KEY } from '#web/features/setup/setup-api.ts';
import { SetupForm } from '#web/features/setup/setup-form.tsx';

/** /setup?token=…: creates the first administrator with the one-time link the server printed at start-up. */
export function SetupPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const status = useQuery({
    queryKey: SETUP_STATUS_KEY,
    queryFn: ({ signal }) => fetchSetupStatus(signal),
  });

  return (
    <Container size={480} py={{ base: 32, sm: 64 }}>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="md">
          <div>
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              Set up DBUI
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Create the first administrator account.
            </Text>
          </div>
          {status.isPending ? (
            <PageLoader label="Checking the setup" />
          ) : !status.data?.isSuccess ? (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not check the setup">
              {status.data?.message ?? status.error?.message}
            </Alert>
          ) : status.data.data.required ? (
            <SetupForm token={token} />
          ) : (
            <Alert color="green" icon={<IconCheck size={18} />} title="Setup is complete">
              <Text size="sm">
                The administrator already exists. Sign in on the{' '}
                {/* The alert's own text colour, underlined: the link colour on pale green is below WCAG AA. */}
                <Anchor component={Link} to={LOGIN_PATH} size="sm" c="inherit" fw={600} underline="always">
                  login page
                </Anchor>
                .
              </Text>
            </Alert>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
