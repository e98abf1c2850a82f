import { IDLE_ALERT_TICKS, IDLE_LOGOUT_AFTER_ALERT_MS, IDLE_TICK_MS } from '#common/limits.ts';

/** The idle rule's numbers (spec 000 §4, §9); end-to-end tests pass shorter ones. */
export interface IdleTiming {
  tickMs: number;
  alertTicks: number;
  logoutAfterMs: number;
}

export const specIdleTiming: IdleTiming = {
  tickMs: IDLE_TICK_MS,
  alertTicks: IDLE_ALERT_TICKS,
  logoutAfterMs: IDLE_LOGOUT_AFTER_ALERT_MS,
};

/** The timers the watch uses; tests and e2e hand in their own. */
export interface Clock {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The window's timers, looked up at each call so fake timers installed later are used. */
export const browserClock: Clock = {
  setInterval: (run, ms) => globalThis.setInterval(run, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface IdleWatch {
  /** A mouse move or key press: the count starts again (not while the alert waits for its answer). */
  activity(): void;
  /** 'Yes!' on the alert: the alert's deadline is dropped and the count starts again. */
  answered(): void;
  stop(): void;
}

/**
 * Spec 000 §4: a tick every 10 s; any activity resets the count; at 150 ticks the alert; no answer within
 * 300,000 ms ends the session. Activity while the alert is shown does not answer it: only 'Yes!' does.
 */
export function startIdleWatch(options: {
  timing?: IdleTiming;
  clock?: Clock;
  onAlert: () => void;
  onTimeout: () => void;
}): IdleWatch {
  const timing = options.timing ?? specIdleTiming;
  const clock = options.clock ?? browserClock;
  let ticks = 0;
  let deadline: unknown = null;
  let stopped = false;

  const interval = clock.setInterval(() => {
    if (deadline !== null) return;
    ticks += 1;
    if (ticks < timing.alertTicks) return;
    deadline = clock.setTimeout(() => {
      deadline = null;
      stop();
      options.onTimeout();
    }, timing.logoutAfterMs);
    options.onAlert();
  }, timing.tickMs);

  function stop(): void {
    if (stopped) return;
    stopped = true;
    clock.clearInterval(interval);
    if (deadline !== null) clock.clearTimeout(deadline);
    deadline = null;
  }

  return {
    activity() {
      if (deadline === null) ticks = 0;
    },
    answered() {
      if (deadline !== null) clock.clearTimeout(deadline);
      deadline = null;
      ticks = 0;
    },
    stop,
  };
}
