import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_MAX_LENGTH } from '#common/contract/account.ts';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's baseline), about 70 ms here.

/** Hashes a password with argon2id. Length is capped first so a huge password cannot stall the server. */
export function hashPassword(password: string): Promise<string> {
  return hash(password.slice(0, PASSWORD_MAX_LENGTH));
}

/** True when the password matches the stored hash. */
export function verifyPassword(stored: string, password: string): Promise<boolean> {
  return verify(stored, password.slice(0, PASSWORD_MAX_LENGTH)).catch(() => false);
}
