import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export interface NewCode {
  userId: number | null;
  purpose: string;
  channel?: string | null;
  codeHash: string;
  expiresAt: string;
  /** The sign-in the code belongs to (sign-in codes). */
  attemptId?: number | null;
  /** The address being confirmed (setup codes of an email or phone). */
  target?: string | null;
}

/**
 * Stores a code (hashed by the caller); earlier unused codes of the same user and purpose — and channel and
 * sign-in, when given — stop working: a newer code supersedes them.
 */
export async function replaceCode(db: Db, code: NewCode, now: string): Promise<void> {
  let retire = db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('purpose', '=', code.purpose)
    .where('used_at', 'is', null);
  retire =
    code.userId === null ? retire.where('user_id', 'is', null) : retire.where('user_id', '=', code.userId);
  if (code.channel != null) retire = retire.where('channel', '=', code.channel);
  if (code.attemptId != null) retire = retire.where('attempt_id', '=', code.attemptId);
  await retire.execute();
  await db
    .insertInto('one_time_codes')
    .values({
      user_id: code.userId,
      purpose: code.purpose,
      channel: code.channel ?? null,
      code_hash: code.codeHash,
      created_at: now,
      expires_at: code.expiresAt,
      attempt_id: code.attemptId ?? null,
      target: code.target ?? null,
    })
    .execute();
}

export async function consumeCode(db: Db, purpose: string, codeHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('purpose', '=', purpose)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The newest unused, unexpired code of a user for a purpose and channel (and sign-in, when given). */
export async function currentAccountCode(
  db: Db,
  where: { userId: number; purpose: string; channel: string; attemptId?: number | null },
  now: string,
) {
  let query = db
    .selectFrom('one_time_codes')
    .select(['id', 'code_hash', 'target', 'failures'])
    .where('user_id', '=', where.userId)
    .where('purpose', '=', where.purpose)
    .where('channel', '=', where.channel)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (where.attemptId != null) query = query.where('attempt_id', '=', where.attemptId);
  return query.orderBy('id', 'desc').executeTakeFirst();
}

/** Whether a code with this hash was ever issued for the sign-in (used, replaced by a newer one, or run out): such a
 * code is no guess, whatever its state. */
export async function wasIssuedForAttempt(
  db: Db,
  where: { userId: number; purpose: string; channel: string; attemptId: number },
  codeHash: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('user_id', '=', where.userId)
    .where('purpose', '=', where.purpose)
    .where('channel', '=', where.channel)
    .where('attempt_id', '=', where.attemptId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
  return row !== undefined;
}

/** Uses a code by id; true when this call used it (once only, even in a race). */
export async function useCode(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Reserves one of a code's `limit` guesses before it is compared, in one conditional update, so parallel guesses
 * cannot compare more than `limit` times; false when the code is used or its guesses are spent.
 */
export async function reserveCodeGuess(db: Db, id: number, limit: number): Promise<boolean> {
  const result = await db
    .updateTable('one_time_codes')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('failures', '<', limit)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After a wrong guess: the code stops working once its `limit` guesses are spent. */
export async function retireSpentCode(db: Db, id: number, limit: number, now: string): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('failures', '>=', limit)
    .where('used_at', 'is', null)
    .execute();
}
