import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { formatMinutesSeconds, useTimeLeft } from '#web/ui/countdown.ts';

describe('formatMinutesSeconds', () => {
  it('writes m:ss, rounding up so 0:00 means no time is left', () => {
    expect(formatMinutesSeconds(15 * 60 * 1000)).toBe('15:00');
    expect(formatMinutesSeconds(42_000)).toBe('0:42');
    expect(formatMinutesSeconds(59_200)).toBe('1:00');
    expect(formatMinutesSeconds(1)).toBe('0:01');
    expect(formatMinutesSeconds(0)).toBe('0:00');
    expect(formatMinutesSeconds(-5000)).toBe('0:00');
  });
});

describe('useTimeLeft', () => {
  let time = 0;
  const clock = () => time;
  beforeEach(() => {
    vi.useFakeTimers();
    time = 1_000_000;
  });
  afterEach(() => vi.useRealTimers());

  const advance = (ms: number) =>
    act(() => {
      time += ms;
      vi.advanceTimersByTime(ms);
    });

  it('counts down on the given clock and stops at zero', () => {
    const deadline = time + 3000;
    const { result } = renderHook(() => useTimeLeft(deadline, clock));
    expect(result.current).toBe(3000);
    advance(1000);
    expect(result.current).toBe(2000);
    advance(2000);
    expect(result.current).toBe(0);
    advance(5000);
    expect(result.current).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is zero without a deadline and starts again for a new one', () => {
    const { result, rerender } = renderHook(({ deadline }) => useTimeLeft(deadline, clock), {
      initialProps: { deadline: null as number | null },
    });
    expect(result.current).toBe(0);
    rerender({ deadline: time + 5000 });
    expect(result.current).toBe(5000);
    advance(1000);
    expect(result.current).toBe(4000);
  });
});
