import { useState } from 'react';
import { Radio, Stack, Text } from '@mantine/core';
import { ConfirmModal } from '#web/ui/confirm-modal.tsx';
import { userTexts as ut } from './user-texts.ts';

const HOUR_MS = 60 * 60 * 1000;
const durations = { hour: HOUR_MS, day: 24 * HOUR_MS, unlocked: null } as const;
type Duration = keyof typeof durations;

/** The instant a lock of this length ends, from now; null: until an administrator unlocks. */
export function lockUntil(duration: Duration, now = Date.now()): string | null {
  const length = durations[duration];
  return length === null ? null : new Date(now + length).toISOString();
}

export interface LockUserModalProps {
  opened: boolean;
  username: string;
  loading: boolean;
  /** The end chosen (ISO), or null for "Until unlocked". */
  onLock: (until: string | null) => void;
  onClose: () => void;
}

/** "Lock user": a radio group "Lock for" (1 hour, 1 day, Until unlocked), then Cancel or Lock. */
export function LockUserModal({ opened, username, loading, onLock, onClose }: LockUserModalProps) {
  const [duration, setDuration] = useState<Duration>('hour');
  return (
    <ConfirmModal
      opened={opened}
      title={ut.lockTitle}
      confirmLabel={ut.lock}
      loading={loading}
      onConfirm={() => onLock(lockUntil(duration))}
      onClose={onClose}
    >
      <Text size="sm">{ut.lockExplanation(username)}</Text>
      <Radio.Group label={ut.lockFor} value={duration} onChange={(value) => setDuration(value as Duration)}>
        <Stack gap="xs" mt="xs">
          {(Object.keys(durations) as Duration[]).map((key) => (
            <Radio key={key} value={key} label={ut.lockDurations[key]} />
          ))}
        </Stack>
      </Radio.Group>
    </ConfirmModal>
  );
}
