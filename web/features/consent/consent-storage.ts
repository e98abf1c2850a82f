import { COOKIE_CONSENT_KEY, COOKIE_REJECTION_DAYS } from '#common/limits.ts';

/** Spec 001 §4: cookie consent is accepted or rejected. */
export type ConsentChoice = 'accepted' | 'rejected';

/** What the banner needs to know: the visitor's choice, or null while it is to be asked. */
export type ConsentState = ConsentChoice | null;

/**
 * The value stored under 'accept-cookies-v1' (spec 001 §9 names the key; the value is ours): the choice and when it
 * was made, as JSON, e.g. {"value":"rejected","at":"2026-11-24T16:00:00.000Z"}. The date lets a rejection expire.
 */
export interface StoredConsent {
  value: ConsentChoice;
  at: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const REJECTION_MEMORY_MS = COOKIE_REJECTION_DAYS * DAY_MS;

/** The part of Web Storage used here, so tests can hand in a storage that fails. */
export type ConsentStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Reads the stored value; anything missing, unreadable or of another shape is no choice. */
export function readStoredConsent(storage: ConsentStorage | null): StoredConsent | null {
  try {
    const text = storage?.getItem(COOKIE_CONSENT_KEY);
    if (!text) return null;
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { value, at } = parsed as Record<string, unknown>;
    if (value !== 'accepted' && value !== 'rejected') return null;
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) return null;
    return { value, at };
  } catch {
    // Storage blocked by the browser, or a value that is not JSON: the banner asks.
    return null;
  }
}

/**
 * The choice in force at `now`: an acceptance is kept; a rejection is kept for 30 days (spec 001 §4, §9), then
 * the banner asks again. A rejection dated in the future (a clock set back) counts from now, so it is kept.
 */
export function consentAt(stored: StoredConsent | null, now: Date): ConsentState {
  if (!stored) return null;
  if (stored.value === 'accepted') return 'accepted';
  const age = now.getTime() - Date.parse(stored.at);
  return age < REJECTION_MEMORY_MS ? 'rejected' : null;
}

/** Stores the choice made at `now`; false when the browser refuses (the choice then lasts for this page only). */
export function writeStoredConsent(storage: ConsentStorage | null, value: ConsentChoice, now: Date): boolean {
  const stored: StoredConsent = { value, at: now.toISOString() };
  try {
    if (!storage) return false;
    storage.setItem(COOKIE_CONSENT_KEY, JSON.stringify(stored));
    return true;
  } catch {
    return false;
  }
}

/** The window's localStorage, or null where reading it throws (some browsers' privacy modes). */
export function browserStorage(): ConsentStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
