import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_ALERT_TICKS, IDLE_LOGOUT_AFTER_ALERT_MS, IDLE_TICK_MS } from '#common/limits.ts';
import { startIdleWatch } from '#web/session/idle-watch.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function watch() {
  const onAlert = vi.fn();
  const onTimeout = vi.fn();
  return { onAlert, onTimeout, idle: startIdleWatch({ onAlert, onTimeout }) };
}

describe('the idle watch (spec 000 §4, §9)', () => {
  it('uses the spec numbers: a 10 s tick, 150 ticks, 300,000 ms', () => {
    expect([IDLE_TICK_MS, IDLE_ALERT_TICKS, IDLE_LOGOUT_AFTER_ALERT_MS]).toEqual([10_000, 150, 300_000]);
  });

  it('alerts after 150 ticks of 10 s and not one tick before', () => {
    const { onAlert, idle } = watch();
    vi.advanceTimersByTime(149 * 10_000);
    expect(onAlert).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10_000);
    expect(onAlert).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * 10_000);
    expect(onAlert).toHaveBeenCalledTimes(1);
    idle.stop();
  });

  it('starts the count again on activity', () => {
    const { onAlert, idle } = watch();
    vi.advanceTimersByTime(140 * 10_000);
    idle.activity();
    vi.advanceTimersByTime(140 * 10_000);
    expect(onAlert).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10 * 10_000);
    expect(onAlert).toHaveBeenCalledTimes(1);
    idle.stop();
  });

  it('ends the session 300,000 ms after the alert without an answer, even with activity meanwhile', () => {
    const { onAlert, onTimeout, idle } = watch();
    vi.advanceTimersByTime(150 * 10_000);
    expect(onAlert).toHaveBeenCalledTimes(1);
    idle.activity();
    vi.advanceTimersByTime(299_999);
    expect(onTimeout).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000_000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    expect(onAlert).toHaveBeenCalledTimes(1);
  });

  it("an answer ('Yes!') drops the deadline and counts again from zero", () => {
    const { onAlert, onTimeout, idle } = watch();
    vi.advanceTimersByTime(150 * 10_000 + 200_000);
    idle.answered();
    vi.advanceTimersByTime(149 * 10_000);
    expect(onTimeout).not.toHaveBeenCalled();
    expect(onAlert).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(onAlert).toHaveBeenCalledTimes(2);
    idle.stop();
  });

  it('does nothing once stopped', () => {
    const { onAlert, onTimeout, idle } = watch();
    vi.advanceTimersByTime(150 * 10_000);
    idle.stop();
    vi.advanceTimersByTime(10_000_000);
    expect(onAlert).toHaveBeenCalledTimes(1);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('takes shorter timings (for end-to-end runs)', () => {
    const onAlert = vi.fn();
    const onTimeout = vi.fn();
    startIdleWatch({ timing: { tickMs: 100, alertTicks: 3, logoutAfterMs: 500 }, onAlert, onTimeout });
    vi.advanceTimersByTime(300);
    expect(onAlert).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });
});
