import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MODAL_FADE_MS } from '#common/limits.ts';
import { securityMessages as sm } from '#common/messages.ts';
import { usePopup } from '#web/ui/popups.ts';

type ConfirmModalProps = {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red for what cannot be undone (shade 9: white on red 6 is 3.8:1, below WCAG AA). */
  color?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/** Asks before an action of the Security section that cannot be taken back (removing a passkey, replacing the
 * recovery codes); Cancel has the focus, so Enter never confirms by accident. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red.9',
  loading = false,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  usePopup(opened, onClose);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      withCloseButton={false}
      centered
      transitionProps={{ duration: MODAL_FADE_MS }}
    >
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} data-autofocus>
            {sm.cancel}
          </Button>
          <Button color={color} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
