import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AppDatabase, PasskeysTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/** A stored passkey with its counter as a number (PostgreSQL answers bigint as text). */
export type PasskeyRow = Omit<Selectable<PasskeysTable>, 'counter'> & { counter: number };

export interface NewPasskey {
  userId: number;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  backedUp: boolean;
  deviceType: string;
}

function row(stored: Selectable<PasskeysTable>): PasskeyRow {
  return { ...stored, counter: Number(stored.counter) };
}

/** Stores a passkey and answers its id. */
export async function insertPasskey(db: Db, passkey: NewPasskey, now: string): Promise<number> {
  const inserted = await db
    .insertInto('passkeys')
    .values({
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports.length > 0 ? JSON.stringify(passkey.transports) : null,
      name: passkey.name,
      created_at: now,
      backed_up: passkey.backedUp ? 1 : 0,
      device_type: passkey.deviceType,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The passkeys of an account, oldest first. */
export async function passkeysOfUser(db: Db, userId: number): Promise<PasskeyRow[]> {
  const rows = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(row);
}

/** How many passkeys an account has. */
export async function countPasskeys(db: Db, userId: number): Promise<number> {
  const found = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(found?.n ?? 0);
}

/** The passkey with this credential id (base64url), whoever owns it. */
export async function findPasskeyByCredentialId(
  db: Db,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const found = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return found ? row(found) : undefined;
}

/** Deletes a passkey of this account; false when the account has none with this id. */
export async function deletePasskey(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/**
 * Records a sign-in with a passkey: the new counter, the time and the backup state. Only when the stored counter
 * is still the one the check was made against, so two answers with the same counter cannot both pass.
 */
export async function recordPasskeyUse(
  db: Db,
  passkey: { id: number; counter: number },
  use: { counter: number; backedUp: boolean },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: use.counter, last_used_at: now, backed_up: use.backedUp ? 1 : 0 })
    .where('id', '=', passkey.id)
    .where('counter', '=', passkey.counter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes WebAuthn challenges (one_time_codes of the passkey purposes) that expired before `now`. */
export async function deleteExpiredPasskeyChallenges(db: Db, purposes: string[], now: string): Promise<void> {
  await db
    .deleteFrom('one_time_codes')
    .where('purpose', 'in', purposes)
    .where('expires_at', '<', now)
    .execute();
}

export interface NewPasskeyChallenge {
  purpose: string;
  /** SHA-256 of the challenge with what it is bound to (made by the caller). */
  digest: string;
  userId: number | null;
  attemptId: number | null;
  expiresAt: string;
}

/** Stores a WebAuthn challenge (as one_time_codes row, channel Passkey) until it is used or expires. */
export async function insertPasskeyChallenge(
  db: Db,
  challenge: NewPasskeyChallenge,
  now: string,
): Promise<void> {
  await db
    .insertInto('one_time_codes')
    .values({
      user_id: challenge.userId,
      purpose: challenge.purpose,
      channel: 'Passkey',
      code_hash: challenge.digest,
      created_at: now,
      expires_at: challenge.expiresAt,
      attempt_id: challenge.attemptId,
    })
    .execute();
}
