import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/** Replaces every recovery code of an account with new ones (hashed by the caller). */
export async function replaceRecoveryCodes(
  db: Db,
  userId: number,
  codeHashes: string[],
  now: string,
): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now })))
    .execute();
}

/** How many unused recovery codes an account has. */
export async function countRecoveryCodes(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Whether the account ever had recovery codes issued (used or not). */
export async function hasEverHadRecoveryCodes(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('recovery_codes')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The unused codes of an account (id and hash), for a constant-time comparison by the caller. */
export async function unusedRecoveryCodes(db: Db, userId: number) {
  return db
    .selectFrom('recovery_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Uses a recovery code; true when this call used it (once only, even in a race). */
export async function useRecoveryCode(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether the account has a used recovery code with this hash: sent twice at once, a code is no guess. */
export async function hasUsedRecoveryCode(db: Db, userId: number, codeHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('recovery_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
