import { useId, useState } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  browserSupportsWebAuthn,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import { IconFingerprint, IconKey, IconTrash } from '@tabler/icons-react';
import {
  passkeyRegisterRequest,
  passkeyRegistrationResponse,
  type PasskeySummary,
} from '#common/contract/passkeys.ts';
import { securityMessages as sm } from '#common/messages.ts';
import { usePasskeyDelete } from '#web/api/account/passkey-delete.ts';
import { usePasskeyRegisterOptions } from '#web/api/account/passkey-register-options.ts';
import { usePasskeyRegisterVerify } from '#web/api/account/passkey-register-verify.ts';
import { usePasskeys } from '#web/api/account/passkeys.ts';
import type { RecentAuthRunner } from '#web/api/account/recent-auth.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { ConfirmModal } from '#web/ui/confirm-modal.tsx';
import { showFailure } from './failure-toast.ts';
import { shortDate } from './short-date.ts';

/** Why the browser did not create the passkey, in words: a cancel or time-out is the person's choice, not an error
 * of ours. */
function creationFailure(error: unknown): string {
  const name =
    error instanceof WebAuthnError ? (error.cause as Error | undefined)?.name : (error as Error)?.name;
  return name === 'NotAllowedError' || name === 'AbortError' ? sm.passkeyCancelled : sm.passkeyFailed;
}

/** Passkeys (docs/decisions/0009-passkeys.md): the list (name, added, last used), a new one from this device's
 * authenticator with a name, and removal after a confirmation. */
export function PasskeysCard({ run }: { run: RecentAuthRunner }) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const passkeys = usePasskeys();
  const options = usePasskeyRegisterOptions(run);
  const register = usePasskeyRegisterVerify(run);
  const remove = usePasskeyDelete(run);
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  const supported = browserSupportsWebAuthn();
  const checkedName = passkeyRegisterRequest.shape.name.safeParse(name);
  const nameError = checkedName.success ? null : (checkedName.error.issues[0]?.message ?? null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.account.all });

  const add = async () => {
    if (creating || nameError) return;
    setCreating(true);
    try {
      const offered = await options.mutateAsync().catch((error: unknown) => {
        showFailure(error);
        return null;
      });
      if (!offered) return;
      let created: unknown;
      try {
        // The server's options are WebAuthn's own JSON shape; the contract only spells out the challenge.
        created = await startRegistration({
          optionsJSON: offered.data as unknown as PublicKeyCredentialCreationOptionsJSON,
        });
      } catch (error) {
        notifications.show({ color: 'red', message: creationFailure(error) });
        return;
      }
      const response = passkeyRegistrationResponse.safeParse(created);
      if (!response.success) {
        notifications.show({ color: 'red', message: sm.passkeyFailed });
        return;
      }
      const trimmed = name.trim();
      const saved = await register
        .mutateAsync({ response: response.data, ...(trimmed ? { name: trimmed } : {}) })
        .catch((error: unknown) => {
          showFailure(error);
          return null;
        });
      if (!saved) return;
      if (saved.message) notifications.show({ color: 'green', message: saved.message });
      setName('');
      await refresh();
    } finally {
      setCreating(false);
    }
  };

  const confirmRemove = () => {
    const passkey = removing;
    setRemoving(null);
    if (!passkey) return;
    remove.mutate(passkey.id, {
      onSuccess: (answer) => {
        if (answer.message) notifications.show({ color: 'green', message: answer.message });
        void refresh();
      },
      onError: showFailure,
    });
  };

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="md" h="100%">
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconFingerprint size={22} />
          </ThemeIcon>
          <Title order={3} fz="lg" id={titleId}>
            {sm.passkeysTitle}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {sm.passkeysDescription}
        </Text>

        {passkeys.isPending && <Loader size="sm" role="status" aria-label={sm.passkeysTitle} />}
        {passkeys.isError && (
          <Alert color="red" variant="light">
            {sm.passkeysLoadFailed}
          </Alert>
        )}
        {passkeys.data?.length === 0 && (
          <Text size="sm" fw={500}>
            {sm.passkeysNone}
          </Text>
        )}
        {passkeys.data && passkeys.data.length > 0 && (
          <Stack
            component="ul"
            gap="xs"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label={sm.passkeysTitle}
          >
            {passkeys.data.map((passkey) => (
              <Paper component="li" key={passkey.id} withBorder radius="sm" p="xs">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                    <IconKey size={18} aria-hidden style={{ flexShrink: 0 }} />
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate="end">
                        {passkey.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {sm.passkeyCreated(shortDate(passkey.createdAt))}
                        {' · '}
                        {passkey.lastUsedAt
                          ? sm.passkeyLastUsed(shortDate(passkey.lastUsedAt))
                          : sm.passkeyNeverUsed}
                      </Text>
                    </Stack>
                  </Group>
                  <Button
                    variant="default"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden color="var(--mantine-color-red-filled)" />}
                    aria-label={sm.passkeyRemoveLabel(passkey.name)}
                    style={{ flexShrink: 0 }}
                    onClick={() => setRemoving(passkey)}
                    loading={remove.isPending && remove.variables === passkey.id}
                  >
                    {sm.passkeyRemove}
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}

        {supported ? (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <Group gap="xs" align="flex-end" wrap="wrap">
              <TextInput
                label={sm.passkeyNameLabel}
                placeholder={sm.passkeyNamePlaceholder}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={nameError}
                style={{ flex: '1 1 12rem' }}
              />
              <Button
                type="submit"
                loading={creating}
                leftSection={<IconFingerprint size={16} aria-hidden />}
              >
                {sm.passkeyAdd}
              </Button>
            </Group>
          </form>
        ) : (
          <Text size="sm" c="dimmed">
            {sm.passkeysUnsupported}
          </Text>
        )}
      </Stack>
      <ConfirmModal
        opened={removing !== null}
        title={sm.passkeyRemoveTitle}
        confirmLabel={sm.passkeyRemove}
        onConfirm={confirmRemove}
        onClose={() => setRemoving(null)}
      >
        {removing ? sm.passkeyRemoveQuestion(removing.name) : ''}
      </ConfirmModal>
    </Paper>
  );
}
