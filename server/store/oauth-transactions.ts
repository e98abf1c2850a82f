import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppDatabase, OAuthTransactionsTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export type OAuthTransactionRow = Selectable<OAuthTransactionsTable>;

export interface NewOAuthTransaction {
  stateHash: string;
  provider: string;
  mode: 'sign-in' | 'link';
  userId: number | null;
  nonce: string | null;
  codeVerifier: string;
  returnTo: string | null;
  expiresAt: string;
}

/** Stores an authorization request's checks; transactions older than `forgetBefore` are deleted on the way. */
export async function insertOAuthTransaction(
  db: Db,
  transaction: NewOAuthTransaction,
  now: string,
  forgetBefore: string,
): Promise<void> {
  await db.deleteFrom('oauth_transactions').where('expires_at', '<', forgetBefore).execute();
  await db
    .insertInto('oauth_transactions')
    .values({
      state_hash: transaction.stateHash,
      provider: transaction.provider,
      mode: transaction.mode,
      user_id: transaction.userId,
      nonce: transaction.nonce,
      code_verifier: transaction.codeVerifier,
      return_to: transaction.returnTo,
      created_at: now,
      expires_at: transaction.expiresAt,
    })
    .execute();
}

/**
 * Uses the transaction with this state hash: answers it only to the one call that marks it used (a replayed or
 * concurrent callback gets undefined). Expiry and provider are the caller's to check, so an expired state is
 * used up too.
 */
export async function takeOAuthTransaction(
  db: Db,
  stateHash: string,
  now: string,
): Promise<OAuthTransactionRow | undefined> {
  const result = await db
    .updateTable('oauth_transactions')
    .set({ used_at: now })
    .where('state_hash', '=', stateHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db
    .selectFrom('oauth_transactions')
    .selectAll()
    .where('state_hash', '=', stateHash)
    .executeTakeFirst();
}
