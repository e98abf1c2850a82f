import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { AppDatabase, UsersTable } from './schema.ts';

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
  /** null: no password (an account made by social sign-in, until one is set through forgot password). */
  passwordHash: string | null;
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
      password_changed_at: user.passwordHash === null ? null : now,
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

export type UserRow = Selectable<UsersTable>;

/** The account with this username, case-insensitively (so Ann and ann cannot both exist). */
export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
    .executeTakeFirst();
}

/** The account with this id. */
export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Changes some columns of an account (and its updated_at). */
export async function updateUser(
  db: Db,
  id: number,
  changes: Updateable<UsersTable>,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Counts a failed password or code: at `limit` failures in a row the account locks until `lockUntil`; true when
 * this failure locked it. */
export async function countLoginFailure(
  db: Db,
  id: number,
  limit: number,
  lockUntil: string,
): Promise<boolean> {
  await db
    .updateTable('users')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const locked = await db
    .updateTable('users')
    .set({ locked_until: lockUntil, failed_logins: 0 })
    .where('id', '=', id)
    .where('failed_logins', '>=', limit)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) === 1;
}

/** Clears the failure count and any lock after a complete sign-in. */
export async function clearLoginFailures(db: Db, id: number): Promise<void> {
  await db.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('id', '=', id).execute();
}

/** Deletes an account; its roles, images, sessions, codes and recovery codes go with it (foreign keys cascade). */
export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** The account's profile image (the first one), if any. */
export async function findUserImage(db: Db, userId: number) {
  return db
    .selectFrom('user_images')
    .select(['image', 'file_name', 'file_type'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .executeTakeFirst();
}

/** Replaces the account's profile image; null removes it. */
export async function replaceUserImage(
  db: Db,
  userId: number,
  image: { image: string; fileName: string; fileType: string } | null,
): Promise<void> {
  await db.deleteFrom('user_images').where('user_id', '=', userId).execute();
  if (image) {
    await db
      .insertInto('user_images')
      .values({ user_id: userId, image: image.image, file_name: image.fileName, file_type: image.fileType })
      .execute();
  }
}

/** How many accounts hold an administrator role. */
export async function countAdministrators(db: Db): Promise<number> {
  const row = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .where('roles.is_admin', '=', 1)
    .select((eb) => eb.fn.count<string | number>('user_roles.user_id').distinct().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The roles of an account with their links. */
export async function rolesOfUser(db: Db, userId: number) {
  const roles = await db
    .selectFrom('roles')
    .innerJoin('user_roles', 'user_roles.role_id', 'roles.id')
    .where('user_roles.user_id', '=', userId)
    .select(['roles.id', 'roles.name'])
    .orderBy('roles.id')
    .execute();
  const links = roles.length
    ? await db
        .selectFrom('role_links')
        .select(['id', 'role_id', 'link'])
        .where(
          'role_id',
          'in',
          roles.map((r) => r.id),
        )
        .orderBy('id')
        .execute()
    : [];
  return roles.map((role) => ({ ...role, links: links.filter((l) => l.role_id === role.id) }));
}
