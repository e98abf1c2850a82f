import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/**
 * A server secret kept in the app store: made once by `make` and then read by every instance. Two instances
 * starting together both try to insert; the primary key lets only the first one win, and both read it back.
 */
export async function sharedSecret(db: Db, name: string, make: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ name, value: make() })
    .onConflict((c) => c.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** Writes the health probe's row: throws when the app store cannot be written (its disk full, read-only…). */
export async function writeProbe(db: Db, now: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name: 'health.write-probe', value: now })
    .onConflict((c) => c.column('name').doUpdateSet({ value: now }))
    .execute();
}
