import { verification, type Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { clearStoredVerification, sessionStorageArea } from '#web/session/session-storage.ts';

/*
 * Reading the stored session back (spec 000 §4): what is read is checked against the contract, so a value someone
 * edited or an older shape is dropped, and the person is simply signed out. Writing is session-storage.ts (no Zod);
 * its functions are re-exported here so callers and tests have one place.
 */
export {
  clearStoredVerification,
  encodeVerification,
  storeVerification,
} from '#web/session/session-storage.ts';

function fromBase64(encoded: string): string {
  const binary = atob(encoded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The verification a stored value holds, or null when it is not one. */
export function decodeVerification(stored: string): Verification | null {
  try {
    const checked = verification.safeParse(JSON.parse(fromBase64(stored)));
    return checked.success ? checked.data : null;
  } catch {
    return null;
  }
}

/** The stored verification; a value that does not decode is removed. */
export function readStoredVerification(): Verification | null {
  const stored = sessionStorageArea()?.getItem(SESSION_STORAGE_KEY) ?? null;
  if (stored === null) return null;
  const value = decodeVerification(stored);
  if (value === null) clearStoredVerification();
  return value;
}
