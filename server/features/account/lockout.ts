import { writeAudit } from '#server/store/audit.ts';
import { countLoginFailure } from '#server/store/users.ts';
import { accountRules, type AccountDeps } from './account-deps.ts';

/** Whether the account is locked at `now`. */
export function isLocked(user: { locked_until: string | null }, now: Date): boolean {
  return user.locked_until !== null && user.locked_until > now.toISOString();
}

/**
 * Counts a failed password or code (0005): five in a row lock the account for 15 minutes. Every failure and the
 * lock itself are audited.
 */
export async function recordFailure(
  deps: AccountDeps,
  userId: number,
  action: string,
  address: string | null,
): Promise<void> {
  const now = deps.now();
  const lockUntil = new Date(now.getTime() + accountRules.lockMs).toISOString();
  const locked = await countLoginFailure(deps.store.db, userId, accountRules.lockAfterFailures, lockUntil);
  await writeAudit(deps.store.db, { userId, action, target: `user:${userId}`, address });
  if (locked) {
    await writeAudit(deps.store.db, {
      userId,
      action: 'account.locked',
      target: `user:${userId}`,
      detail: { until: lockUntil, after: accountRules.lockAfterFailures },
      address,
    });
    deps.log.warn({ userId }, 'account locked after repeated failures');
  }
}
