import { SESSION_REFRESH_BEFORE_MS } from '#common/limits.ts';

/** setTimeout's largest delay; a longer one would fire at once. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * How long until the session should verify again (spec 000 §4: when the expiration is within 5 minutes): 0 when it
 * already is (or the expiration does not parse, so the server decides), else the time left until that point.
 */
export function refreshDelay(expiration: string, now: number, before = SESSION_REFRESH_BEFORE_MS): number {
  const expires = Date.parse(expiration);
  if (Number.isNaN(expires)) return 0;
  return Math.min(Math.max(0, expires - before - now), LONGEST_TIMER_MS);
}
