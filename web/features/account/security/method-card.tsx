import { useId, type ReactNode } from 'react';
import { Badge, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { TwoFactorMethod } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import { PreferredSwitch } from './preferred-switch.tsx';
import { shortDate } from './short-date.ts';

type MethodCardProps = {
  method: TwoFactorMethod;
  icon: ReactNode;
  verified: boolean;
  /** date*Verified of the user detail (ISO-8601). */
  verifiedAt: string | null;
  preferred: boolean;
  /** What is set up, e.g. the address or number, shown under the title. */
  value?: string | null;
  /** Its setup steps are open (the card is taller than the others: security-section.module.css). */
  settingUp: boolean;
  /** The setup steps, or the Set up button when closed. */
  children: ReactNode;
};

/** One method of the Security section (spec 000 §2, §4): its name and what it does, whether it is verified with
 * its Added date, the 'Make preferred' switch, and its setup (set up, or redo once verified). A labelled region,
 * so a screen reader can jump between the cards and knows which card a control belongs to. */
export function MethodCard({
  method,
  icon,
  verified,
  verifiedAt,
  preferred,
  value,
  settingUp,
  children,
}: MethodCardProps) {
  const titleId = useId();
  const added = shortDate(verifiedAt);
  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      withBorder
      radius="md"
      p="md"
      data-setting-up={settingUp || undefined}
    >
      <Stack gap="sm" h="100%">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            {icon}
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={3} fz="lg" id={titleId} lh={1.2}>
              {sm.cardTitles[method]}
            </Title>
            <Group gap={6}>
              {/* Filled teal 9: white on it is 5.0:1; Mantine's light green badge text is 3.8:1 (below WCAG AA). */}
              <Badge
                variant={verified ? 'filled' : 'light'}
                color={verified ? 'teal.9' : 'gray'}
                leftSection={verified ? <IconCircleCheck size={14} aria-hidden /> : undefined}
              >
                {verified ? sm.verified : sm.notSetUp}
              </Badge>
              {preferred && verified && (
                <Badge variant="filled" color="indigo">
                  {sm.preferred}
                </Badge>
              )}
            </Group>
          </Stack>
        </Group>
        <Text size="sm" c="dimmed">
          {sm.cardDescriptions[method]}
        </Text>
        {verified && (value || added) && (
          <Stack gap={2}>
            {value && (
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            )}
            {added && <Text size="sm">{sm.added(added)}</Text>}
          </Stack>
        )}
        <PreferredSwitch method={method} verified={verified} preferred={preferred} />
        <Stack gap="sm" mt="auto">
          {children}
        </Stack>
      </Stack>
    </Paper>
  );
}
