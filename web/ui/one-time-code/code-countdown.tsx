import { Text } from '@mantine/core';
import { twoFactorMessages as tm } from '#common/messages.ts';
import type { Clock } from '#web/ui/countdown.ts';
import { formatMinutesSeconds, useTimeLeft } from '#web/ui/countdown.ts';
import classes from './code-countdown.module.css';

/** The emailed code's time left (spec 000 §4: m:ss, green while time is left, red at 0:00). `expiresAt` is when
 * the code was sent plus EMAIL_CODE_LIFETIME_MS; the screen sets it again on every resend. */
export function CodeCountdown({ expiresAt, now }: { expiresAt: number; now?: Clock }) {
  const timeLeft = useTimeLeft(expiresAt, now);
  const expired = timeLeft === 0;
  return (
    <div>
      <Text size="sm" span>
        {tm.codeExpiresIn}{' '}
      </Text>
      <Text
        size="sm"
        fw={700}
        span
        className={classes.timer}
        data-tone={expired ? 'red' : 'green'}
        role="timer"
        aria-label={tm.codeExpiresIn}
        data-expired={expired || undefined}
      >
        {formatMinutesSeconds(timeLeft)}
      </Text>
      {expired && (
        <Text size="sm" className={classes.expired} role="status">
          {tm.codeExpired}
        </Text>
      )}
    </div>
  );
}
