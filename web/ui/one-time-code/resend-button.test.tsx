import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, renderHook, screen } from '@testing-library/react';
import type { SignInMethod } from '#common/contract/account.ts';
import { RESEND_LOCK_MS } from '#common/limits.ts';
import { accountMessages, twoFactorMessages as tm } from '#common/messages.ts';
import { ResendButton } from './resend-button.tsx';
import { canResend, resendLockFromMessage, useResendLock } from './resend-lock.ts';
import { renderPage } from '#web/test/render-page.tsx';

let time = 0;
const clock = () => time;
const advance = (ms: number) =>
  act(() => {
    time += ms;
    vi.advanceTimersByTime(ms);
  });

beforeEach(() => {
  vi.useFakeTimers();
  time = 2_000_000;
});
afterEach(() => vi.useRealTimers());

describe('resend lock', () => {
  it('reads the seconds of the server refusal and nothing else', () => {
    expect(resendLockFromMessage(accountMessages.resendWait(42))).toBe(42_000);
    expect(resendLockFromMessage('Please wait 7 seconds before resending OTP.')).toBe(7000);
    expect(resendLockFromMessage(accountMessages.resendFailed)).toBeNull();
    expect(resendLockFromMessage('Please wait 5 minutes before resending OTP.')).toBeNull();
    expect(resendLockFromMessage(undefined)).toBeNull();
  });

  it('can resend only codes the server sends', () => {
    const sendable: SignInMethod[] = ['Email', 'Phone'];
    for (const method of ['Email', 'Phone', 'Totp', 'Passkey', 'Recovery'] as const) {
      expect(canResend(method)).toBe(sendable.includes(method));
    }
  });

  it('locks for 60 seconds after a send, or as long as a refusal says', () => {
    const { result } = renderHook(() => useResendLock(clock));
    expect(result.current.lockedUntil).toBeNull();
    act(() => result.current.lock());
    expect(result.current.lockedUntil).toBe(time + RESEND_LOCK_MS);
    let understood = false;
    act(() => {
      understood = result.current.lockFromMessage(accountMessages.resendWait(17));
    });
    expect(understood).toBe(true);
    expect(result.current.lockedUntil).toBe(time + 17_000);
    act(() => {
      understood = result.current.lockFromMessage(accountMessages.resendFailed);
    });
    expect(understood).toBe(false);
    expect(result.current.lockedUntil).toBe(time + 17_000);
  });
});

describe('ResendButton', () => {
  const button = () => screen.getByRole<HTMLButtonElement>('button');

  it('is hidden for the authenticator app, passkeys and recovery codes', () => {
    for (const method of ['Totp', 'Passkey', 'Recovery'] as const) {
      const { unmount } = renderPage(
        <ResendButton method={method} lockedUntil={null} onResend={() => undefined} now={clock} />,
      );
      expect(screen.queryByRole('button')).toBeNull();
      unmount();
    }
  });

  it('resends when not locked', () => {
    const onResend = vi.fn();
    renderPage(<ResendButton method="Phone" lockedUntil={null} onResend={onResend} now={clock} />);
    expect(button().textContent).toBe(tm.resend);
    expect(button().disabled).toBe(false);
    fireEvent.click(button());
    expect(onResend).toHaveBeenCalledTimes(1);
  });

  it('shows the time left of the 60-second lock, counts down and enables itself again', () => {
    const onResend = vi.fn();
    renderPage(
      <ResendButton method="Email" lockedUntil={time + RESEND_LOCK_MS} onResend={onResend} now={clock} />,
    );
    expect(button().textContent).toBe(tm.resendIn('1:00'));
    expect(button().textContent).toBe('Resend in 1:00');
    expect(button().disabled).toBe(true);
    fireEvent.click(button());
    expect(onResend).not.toHaveBeenCalled();

    advance(18_000);
    expect(button().textContent).toBe('Resend in 0:42');
    advance(41_000);
    expect(button().textContent).toBe('Resend in 0:01');
    expect(button().disabled).toBe(true);
    advance(1000);
    expect(button().textContent).toBe(tm.resend);
    expect(button().disabled).toBe(false);
    fireEvent.click(button());
    expect(onResend).toHaveBeenCalledTimes(1);
  });

  it('takes the lock a 429 answer sets, through useResendLock', () => {
    function Harness() {
      const { lockedUntil, lockFromMessage } = useResendLock(clock);
      return (
        <ResendButton
          method="Email"
          lockedUntil={lockedUntil}
          onResend={() => lockFromMessage(accountMessages.resendWait(42))}
          now={clock}
        />
      );
    }
    renderPage(<Harness />);
    fireEvent.click(button());
    expect(button().textContent).toBe('Resend in 0:42');
    advance(42_000);
    expect(button().textContent).toBe(tm.resend);
  });

  it('waits while a resend is on its way', () => {
    renderPage(
      <ResendButton method="Email" lockedUntil={null} onResend={() => undefined} loading now={clock} />,
    );
    expect(button().disabled || button().hasAttribute('data-loading')).toBe(true);
  });
});
