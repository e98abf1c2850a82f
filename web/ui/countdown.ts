import { useEffect, useState } from 'react';

/** The clock a countdown reads: Date.now in the app, a test's own clock in tests. */
export type Clock = () => number;

/** How often a countdown redraws: a second is the smallest step m:ss shows. */
const TICK_MS = 1000;

/** Milliseconds as m:ss, rounded up so '0:00' appears only when no time is left (59.2 s left reads 1:00). */
export function formatMinutesSeconds(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

/** Milliseconds left until `deadline` (an epoch time), redrawn every second while time is left; 0 when none
 * is left or there is no deadline. The time is read from the clock on each draw; the interval only asks for the
 * next draw, and stops at zero, so a finished countdown costs nothing. */
export function useTimeLeft(deadline: number | null, now: Clock = Date.now): number {
  const [, setDraws] = useState(0);
  const timeLeft = deadline === null ? 0 : Math.max(0, deadline - now());
  const running = timeLeft > 0;

  useEffect(() => {
    if (!running || deadline === null) return;
    const timer = setInterval(() => {
      setDraws((draws) => draws + 1);
      if (deadline - now() <= 0) clearInterval(timer);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [deadline, now, running]);

  return timeLeft;
}
