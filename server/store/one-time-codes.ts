import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export interface NewCode {
  userId: number | null;
  purpose: string;
  channel?: string | null;
  codeHash: string;
  expiresAt: string;
}

/** Stores a code (hashed by the caller); earlier unused codes of the same user and purpose stop working. */
export async function replaceCode(db: Db, code: NewCode, now: string): Promise<void> {
  let retire = db
    .updateTable('one_time_codes')
    .set({ used_at: now })
    .where('purpose', '=', code.purpose)
    .where('used_at', 'is', null);
  retire =
    code.userId === null ? retire.where('user_id', 'is', null) : retire.where('user_id', '=', code.userId);
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
    })
    .execute();
}

/** Marks an unused, unexpired code with this hash as used; true when there was one. Once only, even in a race. */
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
