import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppDatabase, SignInAttemptsTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export type SignInAttemptRow = Selectable<SignInAttemptsTable>;
export type AttemptPurpose = 'sign-in' | 'signup' | 'reset';

export interface NewAttempt {
  userId: number | null;
  keyHash: string;
  purpose: AttemptPurpose;
  allowed: string[];
  expiresAt: string;
  address: string | null;
}

/** Stores a pre-sign-in key (hashed by the caller) and answers the attempt's id. */
export async function insertAttempt(db: Db, attempt: NewAttempt, now: string): Promise<number> {
  const row = await db
    .insertInto('sign_in_attempts')
    .values({
      user_id: attempt.userId,
      key_hash: attempt.keyHash,
      purpose: attempt.purpose,
      allowed: attempt.allowed.join(','),
      created_at: now,
      expires_at: attempt.expiresAt,
      address: attempt.address,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The unused, unexpired attempt with this key hash. */
export async function findOpenAttempt(
  db: Db,
  keyHash: string,
  now: string,
): Promise<SignInAttemptRow | undefined> {
  return db
    .selectFrom('sign_in_attempts')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Whether the unexpired attempt with this key hash has been completed (its sign-in done, its key used up). */
export async function isAttemptCompleted(db: Db, keyHash: string, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('sign_in_attempts')
    .select('id')
    .where('key_hash', '=', keyHash)
    .where('used_at', 'is not', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Moves an open attempt of `from` purpose on to the next step: its new purpose and allowed methods. True when this
 * call moved it (once only, even in a race). */
export async function moveAttemptOn(
  db: Db,
  id: number,
  purpose: string,
  allowed: string[],
): Promise<boolean> {
  const result = await db
    .updateTable('sign_in_attempts')
    .set({ purpose, allowed: allowed.join(',') })
    .where('id', '=', id)
    .where('purpose', '!=', purpose)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Closes an attempt; true when this call closed it (once only, even in a race). */
export async function closeAttempt(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('sign_in_attempts')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims the right to send a code by `channel`: true when nothing was sent by it since `lockedBefore` (and
 * records `now` as the send), false while the resend lock holds. Atomic, so two quick clicks send once.
 */
export async function claimSend(
  db: Db,
  id: number,
  channel: 'Email' | 'Phone',
  now: string,
  lockedBefore: string,
): Promise<boolean> {
  const column = channel === 'Email' ? 'email_sent_at' : 'phone_sent_at';
  const result = await db
    .updateTable('sign_in_attempts')
    .set({ [column]: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb(column, 'is', null), eb(column, '<=', lockedBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes attempts that expired before `before` (housekeeping). */
export async function deleteExpiredAttempts(db: Db, before: string): Promise<void> {
  await db.deleteFrom('sign_in_attempts').where('expires_at', '<', before).execute();
}
