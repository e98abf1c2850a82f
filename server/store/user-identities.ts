import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppDatabase, UserIdentitiesTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export type UserIdentityRow = Selectable<UserIdentitiesTable>;

/** The identity a provider knows by this subject, if linked to an account. */
export async function findIdentity(
  db: Db,
  provider: string,
  subject: string,
): Promise<UserIdentityRow | undefined> {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

/** The identities linked to an account, by provider. */
export async function identitiesOfUser(db: Db, userId: number): Promise<UserIdentityRow[]> {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('provider')
    .execute();
}

/** Links an identity to an account; the unique constraints refuse a subject linked elsewhere (or a second one of
 * the same provider on this account). */
export async function insertIdentity(
  db: Db,
  identity: { userId: number; provider: string; subject: string; email: string | null },
  now: string,
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({
      user_id: identity.userId,
      provider: identity.provider,
      subject: identity.subject,
      email: identity.email,
      created_at: now,
      last_used_at: now,
    })
    .execute();
}

/** Records a sign-in through an identity and the email the provider gave this time. */
export async function touchIdentity(db: Db, id: number, email: string | null, now: string): Promise<void> {
  await db.updateTable('user_identities').set({ last_used_at: now, email }).where('id', '=', id).execute();
}

/** Unlinks the account's identity of a provider; true when there was one. */
export async function deleteIdentity(db: Db, userId: number, provider: string): Promise<boolean> {
  const result = await db
    .deleteFrom('user_identities')
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
