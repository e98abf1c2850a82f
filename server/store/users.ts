import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/** How many accounts exist. */
export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  isAdmin: boolean;
  emailVerified: boolean;
}

/** Creates an account and answers its id. */
export async function insertUser(db: Db, user: NewUser, now: string): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      username: user.username,
      email: user.email,
      password_hash: user.passwordHash,
      is_admin: user.isAdmin ? 1 : 0,
      email_verified_at: user.emailVerified ? now : null,
      password_changed_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Gives an account a role. */
export async function addUserRole(db: Db, userId: number, roleId: number): Promise<void> {
  await db.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
}
