import { useId, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { userMessages, type AdminUserDetail } from '#common/contract/admin.ts';
import type { ApiSuccess } from '#web/api/query.ts';
import {
  useEndSessions,
  useLockUser,
  useResetSecondFactor,
  useUnlockUser,
} from '#web/api/admin/user-actions.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { ConfirmModal } from '#web/ui/confirm-modal.tsx';
import { LockUserModal } from './lock-user-modal.tsx';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { userTexts as ut } from './user-texts.ts';

type Asking = 'lock' | 'reset' | 'end' | null;

/** The toasts of an action: the server's message in green, or its refusal in red. */
function toasts(success: string, failure: string, after: () => void) {
  return {
    onSuccess: (answer: ApiSuccess<AdminUserDetail>) => {
      notifications.show({ color: 'green', message: answer.message ?? success });
      after();
    },
    onError: (error: Error) => {
      notifications.show({ color: 'red', message: failureMessage(error, failure) });
      after();
    },
  };
}

/** An action's button and what it does: side by side where there is room, the words under it on a phone. */
function ActionRow({ hint, children }: { hint: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="wrap" align="center">
      <Stack w={200} style={{ flex: 'none' }}>
        {children}
      </Stack>
      <Text size="sm" c="dimmed" style={{ flex: '1 1 170px', minWidth: 0 }}>
        {hint}
      </Text>
    </Group>
  );
}

export interface UserActionsCardProps {
  user: AdminUserDetail;
  /** The user is the signed-in administrator: no Lock and no End sessions (the server refuses them too). */
  isOwnAccount: boolean;
}

/** The region "Account actions": Lock (or Unlock), Reset second factor and End sessions, each asked first. */
export function UserActionsCard({ user, isOwnAccount }: UserActionsCardProps) {
  const ownHintId = useId();
  const [asking, setAsking] = useState<Asking>(null);
  const close = () => setAsking(null);
  const lock = useLockUser(user.id);
  const unlock = useUnlockUser(user.id);
  const reset = useResetSecondFactor(user.id);
  const end = useEndSessions(user.id);
  const ownProps = isOwnAccount ? { disabled: true, 'aria-describedby': ownHintId } : {};

  return (
    <AdminSection title={ut.actions}>
      {isOwnAccount ? (
        <Alert
          id={ownHintId}
          variant="light"
          color="blue"
          icon={<IconInfoCircle size={18} aria-hidden />}
          p="xs"
        >
          <Text size="sm">{userMessages.notYourself}</Text>
        </Alert>
      ) : null}
      <Stack gap="sm">
        <ActionRow hint={ut.lockHint}>
          <Button variant="light" color="red" onClick={() => setAsking('lock')} {...ownProps}>
            {ut.lock}
          </Button>
        </ActionRow>
        {user.isLocked ? (
          <ActionRow hint={ut.unlockHint}>
            <Button
              variant="light"
              loading={unlock.isPending}
              onClick={() =>
                unlock.mutate(
                  undefined,
                  toasts(userMessages.unlocked, ut.unlockFailed, () => undefined),
                )
              }
            >
              {ut.unlock}
            </Button>
          </ActionRow>
        ) : null}
        <ActionRow hint={ut.resetHint}>
          <Button variant="light" color="red" onClick={() => setAsking('reset')}>
            {ut.resetSecondFactor}
          </Button>
        </ActionRow>
        <ActionRow hint={ut.endSessionsHint}>
          <Button variant="light" color="red" onClick={() => setAsking('end')} {...ownProps}>
            {ut.endSessions}
          </Button>
        </ActionRow>
      </Stack>

      <LockUserModal
        opened={asking === 'lock'}
        username={user.username}
        loading={lock.isPending}
        onLock={(until) => lock.mutate({ until }, toasts(userMessages.locked, ut.lockFailed, close))}
        onClose={close}
      />
      <ConfirmModal
        opened={asking === 'reset'}
        title={ut.resetTitle}
        confirmLabel={ut.reset}
        loading={reset.isPending}
        onConfirm={() =>
          reset.mutate(undefined, toasts(userMessages.secondFactorReset, ut.resetFailed, close))
        }
        onClose={close}
      >
        <Text size="sm">{ut.resetExplanation(user.username, user.email)}</Text>
      </ConfirmModal>
      <ConfirmModal
        opened={asking === 'end'}
        title={ut.endSessionsTitle}
        confirmLabel={ut.endSessions}
        loading={end.isPending}
        onConfirm={() =>
          end.mutate(
            undefined,
            toasts(userMessages.sessionsEnded(user.activeSessions), ut.endSessionsFailed, close),
          )
        }
        onClose={close}
      >
        <Text size="sm">{ut.endSessionsExplanation(user.username, user.activeSessions)}</Text>
      </ConfirmModal>
    </AdminSection>
  );
}
