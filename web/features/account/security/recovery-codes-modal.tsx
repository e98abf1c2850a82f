import { Alert, Button, Code, CopyButton, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { MODAL_FADE_MS } from '#common/limits.ts';
import { securityMessages as sm } from '#common/messages.ts';
import { saveDownload } from '#web/api/client.ts';
import { usePopup } from '#web/ui/popups.ts';

type RecoveryCodesModalProps = {
  /** The codes the server just issued; null when there is nothing to show. */
  codes: string[] | null;
  username: string;
  onClose: () => void;
};

/** The text file of the codes: a line saying what they are, then one code a line. */
export function recoveryCodesText(codes: string[], username: string): string {
  return [sm.recoveryFileHeader(username), '', ...codes, ''].join('\n');
}

/** The recovery codes, shown this once (the server keeps only their hashes): copy, download as text, and a clear
 * warning. Closing needs a deliberate click on 'I have saved them' or the close button; a click beside the dialog
 * does not lose the codes (Escape still closes). */
export function RecoveryCodesModal({ codes, username, onClose }: RecoveryCodesModalProps) {
  const opened = codes !== null;
  usePopup(opened, onClose);
  const shown = codes ?? [];
  const text = recoveryCodesText(shown, username);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={sm.recoveryModalTitle}
      centered
      closeOnClickOutside={false}
      withCloseButton={false}
      transitionProps={{ duration: MODAL_FADE_MS }}
    >
      <Stack gap="md">
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
          {sm.recoveryOnlyOnce}
        </Alert>
        <SimpleGrid
          component="ul"
          cols={2}
          spacing="xs"
          verticalSpacing="xs"
          aria-label={sm.recoveryListLabel}
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {shown.map((code) => (
            <li key={code}>
              <Code fz="md" ff="monospace" style={{ display: 'block', textAlign: 'center' }}>
                {code}
              </Code>
            </li>
          ))}
        </SimpleGrid>
        <Group gap="sm" grow preventGrowOverflow={false} wrap="wrap">
          <CopyButton value={shown.join('\n')}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                color={copied ? 'green' : undefined}
                leftSection={
                  copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
                }
                onClick={copy}
              >
                {copied ? sm.copied : sm.recoveryCopy}
              </Button>
            )}
          </CopyButton>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => saveDownload(new Blob([text], { type: 'text/plain' }), sm.recoveryFileName)}
          >
            {sm.recoveryDownload}
          </Button>
        </Group>
        <Button onClick={onClose}>{sm.recoverySaved}</Button>
      </Stack>
    </Modal>
  );
}
