import { writeAudit } from '#server/store/audit.ts';
import { checkFailed, releaseCheck, reserveCheck } from '#server/store/users.ts';
import { accountRules, type AccountDeps } from './account-deps.ts';
import { countLockout, countSignInFailure } from '#server/features/metrics/account-counts.ts';

/*
 * The lockout (0005, 0013): five failed passwords or codes in a row lock an account for 15 minutes. Every check is
 * made under a slot reserved in the app store first (`reserveCheck`), so failures made plus checks under way never
 * pass five, whatever arrives at once and on however many instances; then the slot becomes a failure
 * (`recordFailure`) or is given back (`releaseCheck`). A call that gets no slot is refused without any check.
 */

/** A reserved slot nobody gave back within this time belonged to a check that died with its process. */
const STALE_CHECK_MS = 60_000;

/** Whether the account is locked at `now`. */
export function isLocked(user: { locked_until: string | null }, now: Date): boolean {
  return user.locked_until !== null && user.locked_until > now.toISOString();
}

/** Reserves the right to check one password or code of the account; false when it is locked or as many checks are
 * under way as failures are left before the lock: then nothing may be checked. */
export function reserveCheckSlot(deps: AccountDeps, userId: number): Promise<boolean> {
  const now = deps.now();
  return reserveCheck(deps.store.db, userId, {
    limit: accountRules.lockAfterFailures,
    now: now.toISOString(),
    staleBefore: new Date(now.getTime() - STALE_CHECK_MS).toISOString(),
  });
}

/** Gives a slot back: the check succeeded or was no guess. False when the account locked meanwhile (an
 * administrator, or other checks' failures), so a right password or code must be refused after all. */
export function releaseCheckSlot(deps: AccountDeps, userId: number): Promise<boolean> {
  return releaseCheck(deps.store.db, userId, deps.now().toISOString());
}

/** Audits a call refused without a check: the account is locked, or its remaining checks are all under way. */
export async function refuseUnchecked(
  deps: AccountDeps,
  userId: number,
  action: string,
  address: string | null,
): Promise<void> {
  await writeAudit(deps.store.db, { userId, action, target: `user:${userId}`, address });
}

/**
 * A reserved check failed: it counts toward the lockout, and the fifth failure in a row locks the account for 15
 * minutes. Every failure and the lock itself are audited. True when this failure locked the account.
 */
export async function recordFailure(
  deps: AccountDeps,
  userId: number,
  action: string,
  address: string | null,
): Promise<boolean> {
  const now = deps.now();
  const lockUntil = new Date(now.getTime() + accountRules.lockMs).toISOString();
  const locked = await checkFailed(deps.store.db, userId, {
    limit: accountRules.lockAfterFailures,
    now: now.toISOString(),
    lockUntil,
  });
  countSignInFailure(action);
  await writeAudit(deps.store.db, { userId, action, target: `user:${userId}`, address });
  if (locked) {
    countLockout();
    await writeAudit(deps.store.db, {
      userId,
      action: 'account.locked',
      target: `user:${userId}`,
      detail: { until: lockUntil, after: accountRules.lockAfterFailures },
      address,
    });
    deps.log.warn({ userId }, 'account locked after repeated failures');
  }
  return locked;
}
