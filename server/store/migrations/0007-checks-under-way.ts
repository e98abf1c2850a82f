import type { Kysely } from 'kysely';

/*
 * Lockouts that hold under parallel guesses (docs/decisions/0013-lockout-and-sessions.md): a password or code is
 * checked only after a slot is reserved on the account, in one conditional update, so failures made plus checks
 * under way never pass the limit. `checks_under_way` counts the reserved slots; `checks_started_at` is when the last
 * one was taken, so slots a crashed process never gave back are forgotten a minute later.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('checks_under_way', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('checks_started_at', 'varchar(30)').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only.');
}
