import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { EMAIL_CODE_LIFETIME_MS } from '#common/limits.ts';
import { twoFactorMessages as tm } from '#common/messages.ts';
import { CodeCountdown } from './code-countdown.tsx';
import { renderPage } from '#web/test/render-page.tsx';

let time = 0;
const clock = () => time;
const advance = (ms: number) =>
  act(() => {
    time += ms;
    vi.advanceTimersByTime(ms);
  });

describe('CodeCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    time = 5_000_000;
  });
  afterEach(() => vi.useRealTimers());

  it('counts the 15 minutes down in m:ss, green, then red at 0:00', () => {
    renderPage(<CodeCountdown expiresAt={time + EMAIL_CODE_LIFETIME_MS} now={clock} />);
    const timer = screen.getByRole('timer', { name: tm.codeExpiresIn });
    expect(timer.textContent).toContain('15:00');
    expect(timer.getAttribute('data-tone')).toBe('green');
    expect(screen.queryByText(tm.codeExpired)).toBeNull();

    advance(1000);
    expect(timer.textContent).toContain('14:59');
    advance(EMAIL_CODE_LIFETIME_MS - 1000 - 42_000);
    expect(timer.textContent).toContain('0:42');
    expect(timer.getAttribute('data-tone')).toBe('green');

    advance(42_000);
    expect(timer.textContent).toContain('0:00');
    expect(timer.getAttribute('data-tone')).toBe('red');
    expect(timer.hasAttribute('data-expired')).toBe(true);
    expect(screen.getByRole('status').textContent).toContain(tm.codeExpired);

    advance(60_000);
    expect(timer.textContent).toContain('0:00');
  });

  it('starts again from a new expiry after a resend', () => {
    const { rerender } = renderPage(<CodeCountdown expiresAt={time + 1000} now={clock} />);
    advance(1000);
    expect(screen.getByRole('timer').textContent).toContain('0:00');
    rerender(<CodeCountdown expiresAt={time + EMAIL_CODE_LIFETIME_MS} now={clock} />);
    expect(screen.getByRole('timer').textContent).toContain('15:00');
    expect(screen.getByRole('timer').getAttribute('data-tone')).toBe('green');
  });
});
