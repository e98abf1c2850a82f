import { verification, type Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';

/*
 * The session in browser storage (spec 000 §4): the Verification under UTOKEN, base64-encoded JSON. The JSON is
 * UTF-8 before base64 (btoa alone refuses names outside Latin-1). What is read back is checked against the contract:
 * a value someone edited or an older shape is dropped, and the person is simply signed out.
 */

function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(encoded: string): string {
  const binary = atob(encoded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The stored form of a verification. */
export function encodeVerification(value: Verification): string {
  return toBase64(JSON.stringify(value));
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

/** Storage that may be missing or refuse (private windows, a full quota): the session then lives in memory only. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored verification; a value that does not decode is removed. */
export function readStoredVerification(): Verification | null {
  const stored = storage()?.getItem(SESSION_STORAGE_KEY) ?? null;
  if (stored === null) return null;
  const value = decodeVerification(stored);
  if (value === null) clearStoredVerification();
  return value;
}

export function storeVerification(value: Verification): void {
  try {
    storage()?.setItem(SESSION_STORAGE_KEY, encodeVerification(value));
  } catch {
    // A full or refused storage keeps the session for this page only; nothing to tell the person.
  }
}

export function clearStoredVerification(): void {
  try {
    storage()?.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Nothing stored that could be removed.
  }
}
