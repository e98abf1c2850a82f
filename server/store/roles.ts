import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { TableRights } from '#common/contract/sql.ts';
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

/** What every call needs to know of a user's rights: administrator or not, the union of the links of their roles,
 * and the write permissions their roles grant, by TableId. */
export interface UserAccess {
  isAdmin: boolean;
  links: string[];
  permissions: ReadonlyMap<string, TableRights>;
}

/** A user's rights, read whole (calls then need no app store read for them: access/access-cache.ts). */
export async function accessOfUser(db: Db, userId: number): Promise<UserAccess> {
  const [isAdmin, links, rows] = await Promise.all([
    userIsAdmin(db, userId),
    linksOfUser(db, userId),
    db
      .selectFrom('role_permissions')
      .innerJoin('user_roles', 'user_roles.role_id', 'role_permissions.role_id')
      .where('user_roles.user_id', '=', userId)
      .select(['table_id', 'can_insert', 'can_update', 'can_delete'])
      .execute(),
  ]);
  const permissions = new Map<string, TableRights>();
  for (const row of rows) {
    const rights = permissions.get(row.table_id);
    permissions.set(row.table_id, {
      canInsert: (rights?.canInsert ?? false) || row.can_insert === 1,
      canUpdate: (rights?.canUpdate ?? false) || row.can_update === 1,
      canDelete: (rights?.canDelete ?? false) || row.can_delete === 1,
    });
  }
  return { isAdmin, links, permissions };
}

/** The settings row whose value changes whenever anyone's rights may have changed (docs/decisions/0034). */
export const ACCESS_VERSION_SETTING = 'access.version';

/** Says that rights may have changed (roles, links, permissions, a user's roles, a lock, a deleted account): every
 * instance reads a user's rights again at their next call. Call it after the change is committed (or inside its
 * transaction): a call that saw the new version then reads the new rights. */
export async function markAccessChanged(db: Db): Promise<void> {
  const value = randomUUID();
  await db
    .insertInto('settings')
    .values({ name: ACCESS_VERSION_SETTING, value })
    .onConflict((c) => c.column('name').doUpdateSet({ value }))
    .execute();
}

/** The built-in Administrator role (`*`, isAdmin; docs/decisions/0003-app-store.md). */
export const ADMINISTRATOR_ROLE_ID = 1;

/** The built-in User role every new account gets. */
export const USER_ROLE_ID = 2;

export interface StoredRole {
  id: number;
  name: string;
  isAdmin: boolean;
  isBuiltIn: boolean;
  links: { id: number; link: string }[];
  permissions: { id: number; tableId: string; canInsert: boolean; canUpdate: boolean; canDelete: boolean }[];
  users: { id: number; userId: number; username: string }[];
}

/** One role with its links, permissions and users, or undefined. */
export async function findRole(db: Db, roleId: number): Promise<StoredRole | undefined> {
  const role = await db.selectFrom('roles').selectAll().where('id', '=', roleId).executeTakeFirst();
  if (!role) return undefined;
  const [links, permissions, users] = await Promise.all([
    db.selectFrom('role_links').select(['id', 'link']).where('role_id', '=', roleId).orderBy('id').execute(),
    db.selectFrom('role_permissions').selectAll().where('role_id', '=', roleId).orderBy('id').execute(),
    db
      .selectFrom('user_roles')
      .innerJoin('users', 'users.id', 'user_roles.user_id')
      .select(['user_roles.id', 'user_roles.user_id', 'users.username'])
      .where('user_roles.role_id', '=', roleId)
      .orderBy('users.username')
      .execute(),
  ]);
  return {
    id: role.id,
    name: role.name,
    isAdmin: role.is_admin === 1,
    isBuiltIn: role.built_in === 1,
    links,
    permissions: permissions.map((p) => ({
      id: p.id,
      tableId: p.table_id,
      canInsert: p.can_insert === 1,
      canUpdate: p.can_update === 1,
      canDelete: p.can_delete === 1,
    })),
    users: users.map((u) => ({ id: u.id, userId: u.user_id, username: u.username })),
  };
}

/** `column` starts with `prefix`, ignoring case, with LIKE's wildcards in the prefix taken literally. */
export function startsWithIgnoringCase(column: string, prefix: string): RawBuilder<boolean> {
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Roles by name prefix (case-insensitive), ordered by Id, with link and user counts. */
export async function listRoles(db: Db, query: { name?: string; offset: number; limit: number }) {
  const name = query.name;
  const base = name
    ? db.selectFrom('roles').where(startsWithIgnoringCase('roles.name', name))
    : db.selectFrom('roles');
  const [rows, total] = await Promise.all([
    base
      .select((eb) => [
        'roles.id',
        'roles.name',
        'roles.is_admin',
        'roles.built_in',
        eb
          .selectFrom('role_links')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('role_links.role_id', '=', 'roles.id')
          .as('links'),
        eb
          .selectFrom('user_roles')
          .select(eb.fn.countAll<number | string>().as('n'))
          .whereRef('user_roles.role_id', '=', 'roles.id')
          .as('users'),
      ])
      .orderBy('roles.id')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}
