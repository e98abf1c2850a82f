import { useCallback, useState } from 'react';
import { RESEND_LOCK_MS } from '#common/limits.ts';
import type { SignInMethod } from '#common/contract/account.ts';
import { accountMessages } from '#common/messages.ts';
import type { Clock } from '#web/ui/countdown.ts';

/** Methods whose code the server sends, and so can send again; the authenticator app makes its own codes
 * (spec 000 §4: resend hidden for it), and passkeys and recovery codes have nothing to send. */
export function canResend(method: SignInMethod): boolean {
  return method === 'Email' || method === 'Phone';
}

/** The lock a 429 answer asks for: 'Please wait N seconds before resending OTP.' (accountMessages.resendWait)
 * gives N seconds; null for any other message. */
export function resendLockFromMessage(message: string | undefined): number | null {
  const seconds = Number(/\d+/.exec(message ?? '')?.[0]);
  return Number.isInteger(seconds) && message === accountMessages.resendWait(seconds) ? seconds * 1000 : null;
}

/** The resend lock of one code entry: `lockedUntil` for ResendButton, `lock()` after a code was sent (60 s,
 * spec 000 §9) and `lockFromMessage()` for a refusal that says how long to wait (answers whether it did). */
export function useResendLock(now: Clock = Date.now) {
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const lock = useCallback((ms: number = RESEND_LOCK_MS) => setLockedUntil(now() + ms), [now]);
  const lockFromMessage = useCallback(
    (message: string | undefined): boolean => {
      const ms = resendLockFromMessage(message);
      if (ms === null) return false;
      setLockedUntil(now() + ms);
      return true;
    },
    [now],
  );
  return { lockedUntil, lock, lockFromMessage };
}
