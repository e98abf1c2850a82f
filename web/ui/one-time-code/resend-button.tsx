import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { SignInMethod } from '#common/contract/account.ts';
import { twoFactorMessages as tm } from '#common/messages.ts';
import type { Clock } from '#web/ui/countdown.ts';
import { formatMinutesSeconds, useTimeLeft } from '#web/ui/countdown.ts';
import { canResend } from './resend-lock.ts';

type ResendButtonProps = {
  method: SignInMethod;
  /** Until when resending is locked (epoch ms; useResendLock), or null. */
  lockedUntil: number | null;
  onResend: () => void;
  /** A resend is on its way. */
  loading?: boolean;
  now?: Clock;
};

/** Sends the code again: hidden for methods with nothing to send (the authenticator app, spec 000 §4); while
 * the 60-second lock holds it is disabled and says how long is left. */
export function ResendButton({ method, lockedUntil, onResend, loading = false, now }: ResendButtonProps) {
  const timeLeft = useTimeLeft(lockedUntil, now);
  if (!canResend(method)) return null;
  const locked = timeLeft > 0;
  return (
    <Button
      variant="subtle"
      leftSection={<IconRefresh size={16} aria-hidden />}
      onClick={onResend}
      disabled={locked}
      loading={loading}
    >
      {locked ? tm.resendIn(formatMinutesSeconds(timeLeft)) : tm.resend}
    </Button>
  );
}
