import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/** The union of the links of every role the user has (the verification's `links`). */
export async function linksOfUser(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('role_links')
    .innerJoin('user_roles', 'user_roles.role_id', 'role_links.role_id')
    .where('user_roles.user_id', '=', userId)
    .select('role_links.link')
    .distinct()
    .orderBy('role_links.link')
    .execute();
  return rows.map((r) => r.link);
}

/** Whether any of the user's roles makes them an administrator. */
export async function userIsAdmin(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .innerJoin('users', 'users.id', 'user_roles.user_id')
    .where('user_roles.user_id', '=', userId)
    .where('roles.is_admin', '=', 1)
    .select('roles.id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The built-in User role every new account gets. */
export const USER_ROLE_ID = 2;
