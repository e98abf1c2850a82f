import { Button, Group, Modal, Text } from '@mantine/core';
import { sessionMessages } from '#common/messages.ts';

/** The 'Idle Alert' (spec 000 §4): only 'Yes!' answers it; closing it any other way would not verify again. */
export function IdleAlert({ opened, onYes }: { opened: boolean; onYes: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onYes}
      title={sessionMessages.idleTitle}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
    >
      <Text>{sessionMessages.idleQuestion}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onYes} data-autofocus>
          {sessionMessages.idleYes}
        </Button>
      </Group>
    </Modal>
  );
}
