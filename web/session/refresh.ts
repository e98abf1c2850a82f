import { SESSION_REFRESH_AT_LEAST_MS, SESSION_REFRESH_BEFORE_MS } from '#common/limits.ts';

/** setTimeout's largest delay; a longer one would fire at once. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * How long until the session should verify again (spec 000 §4: when the expiration is within 5 minutes), planned
 * right after a verification came: the time left until that point, but never under a minute (a browser clock far
 * ahead of the server's, or an expiration that does not parse, would otherwise verify again and again at once).
 */
export function refreshDelay(expiration: string, now: number, before = SESSION_REFRESH_BEFORE_MS): number {
  const expires = Date.parse(expiration);
  if (Number.isNaN(expires)) return SESSION_REFRESH_AT_LEAST_MS;
  return Math.min(Math.max(SESSION_REFRESH_AT_LEAST_MS, expires - before - now), LONGEST_TIMER_MS);
}
