import type { Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';

/*
 * The session in browser storage (spec 000 §4): the Verification under UTOKEN, base64-encoded JSON. The JSON is
 * UTF-8 before base64 (btoa alone refuses names outside Latin-1). This part writes, removes and tells whether a value
 * is there, without Zod, so the shell of a first-time visitor loads none (decision 0033); reading a value back, which
 * checks it against the contract, is storage.ts, loaded when there is something to read.
 */

function toBase64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Storage that may be missing or refuse (private windows, a full quota): the session then lives in memory only. */
export function sessionStorageArea(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The stored form of a verification. */
export function encodeVerification(value: Verification): string {
  return toBase64(JSON.stringify(value));
}

/** Whether a session is stored (not yet checked: storage.ts reads it). */
export function hasStoredSession(): boolean {
  try {
    return (sessionStorageArea()?.getItem(SESSION_STORAGE_KEY) ?? null) !== null;
  } catch {
    return false;
  }
}

export function storeVerification(value: Verification): void {
  try {
    sessionStorageArea()?.setItem(SESSION_STORAGE_KEY, encodeVerification(value));
  } catch {
    // A full or refused storage keeps the session for this page only; nothing to tell the person.
  }
}

export function clearStoredVerification(): void {
  try {
    sessionStorageArea()?.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Nothing stored that could be removed.
  }
}
