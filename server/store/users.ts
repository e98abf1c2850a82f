import type { ExpressionBuilder, Kysely, Selectable, Transaction, Updateable } from 'kysely';
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

/** Whether an account is open at `now`: no lock, or one that has run out. */
const openAt = (now: string) => (eb: ExpressionBuilder<AppDatabase, 'users'>) =>
  eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]);

/**
 * Reserves a slot to check a password or code of the account (docs/decisions/0013-lockout-and-sessions.md): taken
 * only while the account is open and its failures plus the checks under way stay below `limit`, in one conditional
 * update, so no number of parallel calls on any number of instances checks more. Slots reserved before
 * `staleBefore` were never given back (a crashed check) and no longer count. False: nothing may be checked.
 */
export async function reserveCheck(
  db: Db,
  id: number,
  rules: { limit: number; now: string; staleBefore: string },
): Promise<boolean> {
  const stale = (eb: ExpressionBuilder<AppDatabase, 'users'>) =>
    eb.or([eb('checks_started_at', 'is', null), eb('checks_started_at', '<=', rules.staleBefore)]);
  const reserved = await db
    .updateTable('users')
    .set((eb) => ({
      checks_under_way: eb
        .case()
        .when(stale(eb))
        .then(1)
        .else(eb('checks_under_way', '+', 1))
        .end(),
      checks_started_at: rules.now,
    }))
    .where('id', '=', id)
    .where(openAt(rules.now))
    .where((eb) =>
      eb(
        eb('failed_logins', '+', eb.case().when(stale(eb)).then(0).else(eb.ref('checks_under_way')).end()),
        '<',
        rules.limit,
      ),
    )
    .executeTakeFirst();
  return Number(reserved.numUpdatedRows) === 1;
}

/**
 * A reserved check failed: its slot becomes a failure, and the failure that reaches `limit` locks the account until
 * `lockUntil` (the count starts again after it), in the same statement. A failure while the account is already
 * locked (by an administrator during the check) is not counted. True when this failure locked the account.
 */
export async function checkFailed(
  db: Db,
  id: number,
  rules: { limit: number; now: string; lockUntil: string },
): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set((eb) => {
      const open = openAt(rules.now)(eb);
      const reaches = eb.and([open, eb(eb('failed_logins', '+', 1), '>=', rules.limit)]);
      return {
        checks_under_way: eb
          .case()
          .when('checks_under_way', '>', 0)
          .then(eb('checks_under_way', '-', 1))
          .else(0)
          .end(),
        failed_logins: eb
          .case()
          .when(reaches)
          .then(0)
          .when(open)
          .then(eb('failed_logins', '+', 1))
          .else(eb.ref('failed_logins'))
          .end(),
        locked_until: eb.case().when(reaches).then(rules.lockUntil).else(eb.ref('locked_until')).end(),
      };
    })
    .where('id', '=', id)
    .returning('locked_until')
    .executeTakeFirst();
  return row?.locked_until === rules.lockUntil;
}

/** Gives a reserved slot back without counting a failure (a right password or code, or no guess at all). True when
 * the account is open at `now`, so the check may still succeed. */
export async function releaseCheck(db: Db, id: number, now: string): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({
      checks_under_way: eb
        .case()
        .when('checks_under_way', '>', 0)
        .then(eb('checks_under_way', '-', 1))
        .else(0)
        .end(),
    }))
    .where('id', '=', id)
    .returning('locked_until')
    .executeTakeFirst();
  return row !== undefined && (row.locked_until === null || row.locked_until <= now);
}

/** A complete sign-in clears the failure count, unless the account is locked at `now` (false: refuse it). One
 * statement, so a lock that lands during the sign-in is never cleared by it. */
export async function clearFailuresUnlessLocked(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null })
    .where('id', '=', id)
    .where(openAt(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
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
