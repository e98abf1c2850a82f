import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { usePopup } from '#web/ui/popups.ts';
import { userTexts as ut } from './user-texts.ts';

export interface ConfirmActionModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red (shade 9: white on red 6 is below WCAG AA) for what cannot be taken back. */
  color?: string;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before an action on a user; Cancel has the focus, so Enter never confirms by accident. */
export function ConfirmActionModal({
  opened,
  title,
  children,
  confirmLabel,
  color = 'red.9',
  loading,
  onConfirm,
  onClose,
}: ConfirmActionModalProps) {
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
      closeButtonProps={{ 'aria-label': ut.close }}
    >
      <Stack gap="md">
        {children}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={loading} data-autofocus>
            {ut.cancel}
          </Button>
          <Button color={color} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
