import { useReducer, useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { UseMutationResult } from '@tanstack/react-query';
import type { MethodVerified } from '#common/contract/account.ts';
import { EMAIL_CODE_LIFETIME_MS } from '#common/limits.ts';
import type { ApiSuccess } from '#web/api/query.ts';
import { useResendLock } from '#web/ui/one-time-code/resend-lock.ts';
import { showFailure } from './failure-toast.ts';
import { initialSetup, setupReducer } from './method-setup.ts';

type SendMutation = UseMutationResult<ApiSuccess<null>, Error, string>;
type VerifyMutation = UseMutationResult<ApiSuccess<MethodVerified>, Error, string>;

/** The Email and Phone cards' setup: the steps (method-setup.ts), sending the code (and again, under the resend
 * lock), the emailed code's countdown, and checking the code. */
export function useSentCodeSetup({
  send,
  verify,
  onVerified,
  expires,
}: {
  send: SendMutation;
  verify: VerifyMutation;
  onVerified: (answer: ApiSuccess<MethodVerified>) => void;
  /** Whether the code stops working after EMAIL_CODE_LIFETIME_MS (the emailed one). */
  expires: boolean;
}) {
  const [state, dispatch] = useReducer(setupReducer, initialSetup);
  const { lockedUntil, lock, lockFromMessage } = useResendLock();
  const [expiresAt, setExpiresAt] = useState<number | null>(null);
  const [verifyError, setVerifyError] = useState<string | null>(null);

  const sendTo = (target: string) => {
    send.mutate(target, {
      onSuccess: (answer) => {
        lock();
        if (expires) setExpiresAt(Date.now() + EMAIL_CODE_LIFETIME_MS);
        setVerifyError(null);
        if (answer.message) notifications.show({ color: 'green', message: answer.message });
        dispatch({ type: 'sent', target });
      },
      onError: (error) => {
        // 'Please wait N seconds…': the lock shows the wait on the Resend button as well as in the toast.
        lockFromMessage(error.message);
        showFailure(error);
      },
    });
  };

  const check = (code: string) => {
    setVerifyError(null);
    verify.mutate(code, {
      onSuccess: (answer) => {
        dispatch({ type: 'verified' });
        onVerified(answer);
      },
      onError: (error) => setVerifyError(error.message),
    });
  };

  return {
    state,
    start: () => dispatch({ type: 'start' }),
    change: () => dispatch({ type: 'change' }),
    cancel: () => dispatch({ type: 'cancel' }),
    sendTo,
    check,
    sendPending: send.isPending,
    verifyPending: verify.isPending,
    lockedUntil,
    expiresAt,
    verifyError,
  };
}
