import { Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { TableListItem } from '#common/contract/sql.ts';
import { MOBILE_BREAKPOINT_PX, MODAL_FADE_MS } from '#common/limits.ts';
import { usePopup } from '#web/ui/popups.ts';
import { GeneralTab } from './general-tab.tsx';
import { IndexesTab } from './indexes-tab.tsx';
import { KeysTab } from './keys-tab.tsx';

export interface TableInfoModalProps {
  db: string;
  table: TableListItem | null;
  opened: boolean;
  onClose: () => void;
}

/** The table information modal (spec 000 §2): General, Keys and Indexes tabs. Full screen on phones. */
export function TableInfoModal({ db, table, opened, onClose }: TableInfoModalProps) {
  const phone = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`) ?? false;
  const shown = opened && table !== null;
  usePopup(shown, onClose);
  return (
    <Modal.Root
      opened={shown}
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      centered={!phone}
      // The theme's 300 ms fade is a default of <Modal>, which the compound Modal.Root does not read.
      transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
    >
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header>
          <Stack gap={0} miw={0}>
            <Modal.Title fw={700} fz="lg">
              Table information
            </Modal.Title>
            {table && (
              <Text size="sm" c="dimmed" truncate="end">
                {table.schema}.{table.name}
              </Text>
            )}
          </Stack>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body>
          {table && (
            // Each opening starts on General (the body mounts afresh).
            <Tabs defaultValue="general" keepMounted={false}>
              <Tabs.List mb="md">
                <Tabs.Tab value="general">General</Tabs.Tab>
                <Tabs.Tab value="keys">Keys</Tabs.Tab>
                <Tabs.Tab value="indexes">Indexes</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="general">
                <GeneralTab db={db} table={table} />
              </Tabs.Panel>
              <Tabs.Panel value="keys">
                <KeysTab table={table} />
              </Tabs.Panel>
              <Tabs.Panel value="indexes">
                <IndexesTab table={table} />
              </Tabs.Panel>
            </Tabs>
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
