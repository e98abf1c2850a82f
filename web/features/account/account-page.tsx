import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Container, Grid, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { accountPageMessages as pm } from '#common/messages.ts';
import { useAccount } from '#web/api/account/account.ts';
import { LOGOUT_PATH } from '#web/session/session-provider.tsx';
import { SecuritySection } from '#web/features/account/security/security-section.tsx';
import { PageLoader } from '#web/ui/page-loader.tsx';
import { AccountDetailsCard } from './account-details-card.tsx';
import { DeleteAccountCard } from './delete-account-card.tsx';
import { useLinkOutcome } from './link-outcome.ts';
import { LinkedAccountsCard } from './linked-accounts-card.tsx';
import { ReauthProvider } from './reauth/reauth-provider.tsx';

/**
 * /account (spec 000 §2): Account Details with the linked sign-in accounts beside it on wide screens, then Security
 * across the full width (its own cards sit three to a row there), then Delete Account; one column on phones. The re-authentication provider wraps it all, so every section's calls
 * that need a recent sign-in can ask for the password (useReauth).
 */
export function AccountPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);
  useLinkOutcome();

  const leave = useCallback((message: string) => {
    notifications.show({ color: 'green', message });
    setDeleted(true);
  }, []);
  // Leaving happens once the page's contents are gone (their pending-changes guard would hold the navigation), through
  // /account/logout, which signs out on a public page and then goes to /home: signing out here, on /account, would
  // have the access guard send the person to the 401 page before the navigation lands.
  useEffect(() => {
    if (deleted) void navigate(LOGOUT_PATH, { replace: true });
  }, [deleted, navigate]);

  if (deleted) return null;
  if (account.isPending) return <PageLoader label={pm.loading} />;
  if (account.isError) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title={pm.accountFailed} role="alert">
          <Stack gap="sm" align="flex-start">
            {account.error.message}
            <Button variant="default" size="xs" onClick={() => void account.refetch()}>
              {pm.retry}
            </Button>
          </Stack>
        </Alert>
      </Container>
    );
  }

  const user = account.data;
  return (
    <ReauthProvider canUseApp={user.user_Details[0]?.totpVerified ?? false}>
      <Container size="xl" px={{ base: 'xs', sm: 'md' }} py={{ base: 'md', sm: 'xl' }}>
        <Stack gap="lg">
          <Title order={1}>{pm.myAccount}</Title>
          <Grid gap="lg" align="stretch">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <AccountDetailsCard key={user.id} user={user} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <LinkedAccountsCard />
            </Grid.Col>
          </Grid>
          <SecuritySection />
          <DeleteAccountCard onDeleted={leave} />
        </Stack>
      </Container>
    </ReauthProvider>
  );
}
