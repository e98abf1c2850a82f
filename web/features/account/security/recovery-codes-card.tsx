import { useId, useState } from 'react';
import { Button, Paper, Stack, Text, ThemeIcon, Group, Title } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { RECOVERY_CODE_COUNT } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import type { RecentAuthRunner } from '#web/api/account/recent-auth.ts';
import { useRegenerateRecoveryCodes } from '#web/api/account/recovery-codes.ts';
import { ConfirmModal } from '#web/ui/confirm-modal.tsx';
import { showFailure } from './failure-toast.ts';

type RecoveryCodesCardProps = {
  /** Unused codes the account has. */
  left: number;
  /** Whether a method is verified: codes come with the first one. */
  hasMethod: boolean;
  run: RecentAuthRunner;
  onIssued: (codes: string[]) => void;
};

/** Recovery codes: how many are left, and ten new ones on request (after a confirmation: the old ones stop
 * working and other sessions end). */
export function RecoveryCodesCard({ left, hasMethod, run, onIssued }: RecoveryCodesCardProps) {
  const titleId = useId();
  const [asking, setAsking] = useState(false);
  const regenerate = useRegenerateRecoveryCodes(run);

  // The confirmation closes first: the call may ask for the password in a modal of its own.
  const confirm = () => {
    setAsking(false);
    regenerate.mutate(undefined, {
      onSuccess: (answer) => onIssued(answer.data.recoveryCodes),
      onError: showFailure,
    });
  };

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="md" p="md" h="100%">
      <Stack gap="sm" h="100%">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
            <IconLifebuoy size={22} />
          </ThemeIcon>
          <Title order={3} fz="lg" id={titleId}>
            {sm.recoveryTitle}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {sm.recoveryDescription}
        </Text>
        <Text size="sm" fw={500}>
          {hasMethod || left > 0 ? sm.recoveryLeft(left, RECOVERY_CODE_COUNT) : sm.recoveryNone}
        </Text>
        <Group mt="auto">
          <Button
            variant="default"
            onClick={() => setAsking(true)}
            disabled={!hasMethod && left === 0}
            loading={regenerate.isPending}
          >
            {sm.recoveryRegenerate}
          </Button>
        </Group>
      </Stack>
      <ConfirmModal
        opened={asking}
        title={sm.recoveryRegenerateTitle}
        confirmLabel={sm.recoveryRegenerate}
        color="indigo"
        onConfirm={confirm}
        onClose={() => setAsking(false)}
      >
        {sm.recoveryRegenerateQuestion}
      </ConfirmModal>
    </Paper>
  );
}
