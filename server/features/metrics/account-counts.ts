/*
 * Sign-in failures and lockouts, counted where they happen (features/account) as plain numbers: no import of
 * prom-client in the sign-in path, nothing allocated per count, and nothing to load when metrics are off. The
 * metrics route reads them at each scrape (issue 18). Per process, as Prometheus counters are: the scraper sums
 * the instances.
 */

/** Failed sign-in checks by the audit action that records them (a bounded set: password, code, passkey…). */
const signInFailures = new Map<string, number>();
let lockouts = 0;

/** A sign-in check failed (a wrong password, code or passkey, or an unknown username). */
export function countSignInFailure(action: string): void {
  signInFailures.set(action, (signInFailures.get(action) ?? 0) + 1);
}

/** A failure locked an account. */
export function countLockout(): void {
  lockouts += 1;
}

/** The counts so far, for the scrape. */
export function accountCounts(): { signInFailures: ReadonlyMap<string, number>; lockouts: number } {
  return { signInFailures, lockouts };
}
