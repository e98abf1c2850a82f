import type { Kysely } from 'kysely';
import type { DynamicSchema } from './engine.ts';

/*
 * A transaction that outlives one call's deadline (issue 39's all-or-nothing import, decision 0070). The pools of
 * PostgreSQL and MySQL end a checkout at the call's deadline (call-deadline.ts): right for a page or a row's write,
 * wrong for an import that holds one transaction while it reads a file of millions of rows. Each of those engines
 * opens, beside its Kysely instance, a second one over the same pool whose checkouts give each statement a deadline
 * of its own (as a stream's connection does), registered here. SQLite and SQL Server have no such deadline: their
 * own instance serves.
 */

const longDbs = new WeakMap<Kysely<DynamicSchema>, Kysely<DynamicSchema>>();

export function registerLongTransactionDb(db: Kysely<DynamicSchema>, long: Kysely<DynamicSchema>): void {
  longDbs.set(db, long);
}

/** The instance to hold a long transaction on: the registered one, else `db` itself. */
export function longTransactionDb(db: Kysely<DynamicSchema>): Kysely<DynamicSchema> {
  return longDbs.get(db) ?? db;
}
