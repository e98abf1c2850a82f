import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A random 256-bit secret as base64url (43 characters): session tokens, pre-sign-in keys. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 as hex: how tokens, keys and codes are stored (never in the clear). Node's one-shot hash: every
 * signed-in call hashes its token, and createHash builds a stream object for it. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A random six-digit code, uniform over 000000–999999. */
export function randomSixDigits(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
