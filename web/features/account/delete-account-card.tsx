import { useState } from 'react';
import { Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  accountApiMessages as am,
  accountMessages as m,
  accountPageMessages as pm,
} from '#common/messages.ts';
import { useDeleteAccount } from '#web/api/account/delete-account.ts';
import { usePopup } from '#web/ui/popups.ts';
import { useReauth } from './reauth/use-reauth.ts';

/**
 * Delete Account (spec 000 §2, §6, §8): a danger zone with the warning that it cannot be undone and that all related
 * data is deleted, and a confirmation modal. The call needs a recent sign-in (useReauth asks for the password when
 * the server wants it). Deleted, `onDeleted` signs out and leaves; refused, 'Failed to delete user.' with the
 * server's reason (the only administrator, 409, is told to make someone else an administrator first).
 */
export function DeleteAccountCard({ onDeleted }: { onDeleted: (message: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const run = useReauth();
  const remove = useDeleteAccount(run);
  const close = () => setConfirming(false);
  usePopup(confirming, close);

  // The confirmation closes first, so a password request (useReauth) is the only modal on screen.
  const confirmDelete = () => {
    setConfirming(false);
    remove.mutate(undefined, {
      onSuccess: (answer) => onDeleted(answer.message ?? am.accountDeleted),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: m.userDeleteFailed,
          message: error.message !== m.userDeleteFailed ? error.message : undefined,
        }),
    });
  };

  return (
    <Paper
      component="section"
      aria-labelledby="delete-account-title"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      style={{ borderColor: 'var(--mantine-color-red-outline)' }}
    >
      <Group justify="space-between" align="center" gap="md">
        <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Title order={2} id="delete-account-title" fz="h3">
            {pm.deleteTitle}
          </Title>
          <Text size="sm">{pm.deleteWarning}</Text>
        </Stack>
        <Button color="red.8" onClick={() => setConfirming(true)} loading={remove.isPending}>
          {pm.deleteButton}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={close}
        title={pm.deleteConfirmTitle}
        centered
        closeButtonProps={{ 'aria-label': pm.close }}
      >
        <Stack gap="md">
          <Text>{pm.deleteConfirmMessage}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} data-autofocus>
              {pm.cancel}
            </Button>
            <Button color="red.8" onClick={confirmDelete}>
              {pm.deleteConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
