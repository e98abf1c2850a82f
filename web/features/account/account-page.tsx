import { Container, Stack, Title } from '@mantine/core';
import { useAccount } from '#web/api/account/account.ts';
import { ReauthProvider } from '#web/features/account/reauth/reauth-provider.tsx';
import { SecuritySection } from '#web/features/account/security/security-section.tsx';

/** /account (spec 000 §2): Account Details, Security and Delete Account; being built (issue 12). */
export function AccountPage() {
  const account = useAccount();
  const canUseApp = account.data?.user_Details[0]?.totpVerified ?? false;
  return (
    <ReauthProvider canUseApp={canUseApp}>
      <Container size="lg" py="xl">
        <Stack gap="lg">
          <Title order={1}>My Account</Title>
          <SecuritySection />
        </Stack>
      </Container>
    </ReauthProvider>
  );
}
