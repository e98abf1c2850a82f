import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '#common/contract/account.ts';
import { writeAudit } from '#server/store/audit.ts';
import {
  hasEverHadRecoveryCodes,
  replaceRecoveryCodes,
  unusedRecoveryCodes,
  useRecoveryCode,
} from '#server/store/recovery-codes.ts';
import { safeEqual, sha256Hex } from '#server/crypto/tokens.ts';
import type { AccountDeps } from './account-deps.ts';

// No 0/o, 1/l/i: codes are read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A code as shown: ten characters in two groups of five (about 50 bits). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)] ?? 'a');
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** The form a code is hashed in: lower case without spaces or hyphens. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

/** Replaces the account's recovery codes with ten new ones and answers them (shown once, stored hashed). */
export async function issueRecoveryCodes(
  deps: AccountDeps,
  userId: number,
  address: string | null,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(
    deps.store.db,
    userId,
    codes.map((c) => sha256Hex(normalizeRecoveryCode(c))),
    deps.now().toISOString(),
  );
  await writeAudit(deps.store.db, {
    userId,
    action: 'recovery-codes.issued',
    target: `user:${userId}`,
    address,
  });
  return codes;
}

/** Issues the first recovery codes when two-factor sign-in is first set up; null when the account has had some. */
export async function firstRecoveryCodes(
  deps: AccountDeps,
  userId: number,
  address: string | null,
): Promise<string[] | null> {
  if (await hasEverHadRecoveryCodes(deps.store.db, userId)) return null;
  return issueRecoveryCodes(deps, userId, address);
}

/** Uses one of the account's recovery codes; true when it matched an unused one (each works once). */
export async function redeemRecoveryCode(deps: AccountDeps, userId: number, code: string): Promise<boolean> {
  const hash = sha256Hex(normalizeRecoveryCode(code));
  const candidates = await unusedRecoveryCodes(deps.store.db, userId);
  // Compare with every unused code, so the time does not tell which one (or whether any) matched.
  let match: number | null = null;
  for (const candidate of candidates) if (safeEqual(candidate.code_hash, hash)) match = candidate.id;
  return match !== null && useRecoveryCode(deps.store.db, match, deps.now().toISOString());
}
