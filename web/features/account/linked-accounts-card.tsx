import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { socialProviderNames, type SocialProviderName } from '#common/contract/social.ts';
import { accountPageMessages as pm, socialMessages as sm } from '#common/messages.ts';
import { useProviderLink } from '#web/api/account/provider-link.ts';
import { useProviderUnlink } from '#web/api/account/provider-unlink.ts';
import { providerName, useProviders } from '#web/api/account/providers.ts';
import { useReauth } from './reauth/use-reauth.ts';

function shortDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/**
 * Linked sign-in accounts (spec 000 §1: google, microsoft, facebook; and the operator's OpenID Connect provider, 0060):
 * each provider this server has set up, linked or not. Link sends the browser to the provider (the server answers its URL), which comes back to /account; Unlink
 * removes it. Both need a recent sign-in (useReauth). A server with no provider set up says so in one quiet line,
 * so nobody looks for buttons that cannot work.
 */
export function LinkedAccountsCard() {
  const providers = useProviders();
  const run = useReauth();
  const link = useProviderLink(run);
  const unlink = useProviderUnlink(run);

  const startLink = (provider: SocialProviderName) =>
    link.mutate(provider, {
      onSuccess: (answer) => window.location.assign(answer.data.url),
      onError: (error) => notifications.show({ color: 'red', message: error.message }),
    });
  const removeLink = (provider: SocialProviderName) =>
    unlink.mutate(provider, {
      onSuccess: (answer) =>
        notifications.show({
          color: 'green',
          message: answer.message ?? sm.unlinked(providerName(provider, providers.data)),
        }),
      onError: (error) => notifications.show({ color: 'red', message: error.message }),
    });

  const busy = link.isPending || unlink.isPending;
  return (
    <Paper
      component="section"
      aria-labelledby="linked-accounts-title"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
    >
      <Stack gap="md">
        <Title order={2} id="linked-accounts-title" fz="h3">
          {pm.socialTitle}
        </Title>
        {providers.isPending ? (
          <Text size="sm" c="dimmed">
            {pm.loading}
          </Text>
        ) : providers.isError ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {pm.socialFailed} {providers.error.message}
          </Text>
        ) : providers.data.configured.length === 0 ? (
          <Text size="sm" c="dimmed">
            {pm.socialNone}
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {pm.socialIntro}
            </Text>
            <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {socialProviderNames
                .filter((name) => providers.data.configured.includes(name))
                .map((name) => {
                  const linked = providers.data.linked.find((l) => l.provider === name);
                  const label = providerName(name, providers.data);
                  return (
                    <Group component="li" key={name} justify="space-between" gap="sm" wrap="nowrap">
                      <div style={{ minWidth: 0 }}>
                        <Text fw={600}>{label}</Text>
                        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                          {linked
                            ? pm.socialLinked(linked.email, shortDate(linked.linkedAt))
                            : pm.socialNotLinked}
                        </Text>
                      </div>
                      {linked ? (
                        <Button
                          variant="default"
                          size="xs"
                          aria-label={pm.socialUnlink(label)}
                          disabled={busy}
                          loading={unlink.isPending && unlink.variables === name}
                          onClick={() => removeLink(name)}
                        >
                          {pm.socialUnlinkButton}
                        </Button>
                      ) : (
                        <Button
                          variant="light"
                          size="xs"
                          aria-label={pm.socialLink(label)}
                          disabled={busy}
                          loading={link.isPending && link.variables === name}
                          onClick={() => startLink(name)}
                        >
                          {pm.socialLinkButton}
                        </Button>
                      )}
                    </Group>
                  );
                })}
            </Stack>
          </>
        )}
      </Stack>
    </Paper>
  );
}
