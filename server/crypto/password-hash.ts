import { PASSWORD_MAX_LENGTH } from '#common/contract/account.ts';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's baseline), about 70 ms here. The native
// binding is loaded with the first password, not at every start.
const argon2 = () => import('@node-rs/argon2');

/** Hashes a password with argon2id. Length is capped first so a huge password cannot stall the server. */
export async function hashPassword(password: string): Promise<string> {
  const { hash } = await argon2();
  return hash(password.slice(0, PASSWORD_MAX_LENGTH));
}

/** True when the password matches the stored hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const { verify } = await argon2();
  return verify(stored, password.slice(0, PASSWORD_MAX_LENGTH)).catch(() => false);
}
