import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { usePopup } from '#web/ui/popups.ts';

export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  /** The question; a text is shown as a paragraph, anything else as it is (a form's fields, several paragraphs). */
  children: ReactNode;
  confirmLabel: string;
  /** Red (the theme keeps white on it readable) for what cannot be taken back. */
  color?: string;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before an action that cannot be taken back (removing a passkey, resetting a user's second factor…);
 * Cancel has the focus, so Enter never confirms by accident, and nothing closes it while the action runs. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red',
  loading = false,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  const close = () => {
    if (!loading) onClose();
  };
  usePopup(opened, close);
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={loading} data-autofocus>
            Cancel
          </Button>
          <Button color={color} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
