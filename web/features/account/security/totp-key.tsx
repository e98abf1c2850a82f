import { useId } from 'react';
import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { securityMessages as sm } from '#common/messages.ts';

/** The base32 secret in groups of four, for reading it off the screen into an app. */
export function groupedKey(key: string): string {
  return key.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** The authenticator secret for typing by hand: grouped for reading, copied without the spaces. */
export function TotpKey({ secret }: { secret: string }) {
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" id={labelId}>
        {sm.appKeyLabel}
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code
          block
          fz="sm"
          aria-labelledby={labelId}
          data-testid="totp-key"
          style={{ flex: 1, wordSpacing: '0.25em', overflowWrap: 'anywhere', whiteSpace: 'normal' }}
        >
          {groupedKey(secret)}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? sm.copied : sm.copyKey} withArrow>
              <ActionIcon
                variant="light"
                size="lg"
                color={copied ? 'green' : undefined}
                onClick={copy}
                aria-label={copied ? sm.copied : sm.copyKey}
              >
                {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}
