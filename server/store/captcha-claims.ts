import type { Kysely } from 'kysely';
import type { AppDatabase } from './schema.ts';

/**
 * Remembers a human-check solution until it expires: true the first time `id` is claimed, false after (on every
 * instance, since the claim is a primary key in the app store). Expired claims are swept as new ones arrive.
 */
export async function claimCaptcha(
  db: Kysely<AppDatabase>,
  id: string,
  expiresAt: string,
  now: string,
): Promise<boolean> {
  await db.deleteFrom('captcha_claims').where('expires_at', '<', now).execute();
  const result = await db
    .insertInto('captcha_claims')
    .values({ id, expires_at: expiresAt })
    .onConflict((c) => c.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}
