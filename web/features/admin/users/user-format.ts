import type { AdminUser } from '#common/contract/admin.ts';
import { userTexts as ut } from './user-texts.ts';

// The audit trail's words for a time (audit-entry-text.ts), without its seconds: the pages side by side agree.
const shortDateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant in a short local date and time ("24 Nov 2026, 15:00"), the text itself when it is not one. */
export function shortInstant(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : shortDateTime.format(instant);
}

/** The server stores "until an administrator unlocks" as the last instant of year 9999. */
const untilUnlocked = (lockedUntil: string | null) => lockedUntil === null || lockedUntil.startsWith('9999-');

/** How long a locked account stays locked ("until 24/11/2026, 15:00"); null when it is not locked. */
export function lockEnd(user: Pick<AdminUser, 'isLocked' | 'lockedUntil'>): string | null {
  if (!user.isLocked) return null;
  return untilUnlocked(user.lockedUntil) ? ut.untilUnlocked : ut.until(shortInstant(user.lockedUntil ?? ''));
}

/** A second factor's name as people know it: the authenticator app is "App". */
export function secondFactorLabel(factor: string): string {
  return factor === 'Totp' ? 'App' : factor;
}
