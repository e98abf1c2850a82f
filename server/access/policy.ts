import type { TableRights } from '#common/contract/sql.ts';
import { encodeSegment, linkMatcher, tableId, tablePath } from '#common/links.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';

/*
 * Who may do what with a table, decided on the server for every data call (docs/decisions/0006-access-control.md):
 * reading needs a link that allows /db/{db}/{schema}/{table} (compared segment by segment, each name one
 * percent-encoded segment: common/links.ts); inserting, updating and deleting need the matching
 * permission on one of the user's roles for that table's TableId; administrators may do everything.
 */

export type TableAction = 'read' | 'insert' | 'update' | 'delete';

/** The refusal every denied table call gets: the same whether the table exists or not. */
export const ACCESS_DENIED = 'You do not have access to that table.';
const ACTION_DENIED: Record<Exclude<TableAction, 'read'>, string> = {
  insert: 'You do not have permission to add rows to that table.',
  update: 'You do not have permission to change rows of that table.',
  delete: 'You do not have permission to delete rows of that table.',
};

/** Who the policy decides for: what it reads of an account. A signed-in request's account (plugins/session.ts) is
 * one; an export's download builds one for the job's owner from the app store. */
export interface AccessCaller {
  userId: number;
  isAdmin: boolean;
  links: string[];
  /** The write permissions of the user's roles by TableId, when known (the access cache); else the policy reads
   * them. */
  permissions?: ReadonlyMap<string, TableRights>;
}

export interface TableRef {
  database: string;
  schema: string;
  table: string;
}

/** Compiled matchers by links list: a cached account's list is the same array on every call (access-cache.ts). */
const matchers = new WeakMap<readonly string[], ReturnType<typeof linkMatcher>>();
function matcherOf(links: string[]): ReturnType<typeof linkMatcher> {
  let matcher = matchers.get(links);
  if (!matcher) {
    matcher = linkMatcher(links);
    matchers.set(links, matcher);
  }
  return matcher;
}

/** A table's TableId, each name one encoded segment, as permissions store it (common/links.ts). */
const tableIdOf = (ref: TableRef) => tableId(ref.database, ref.schema, ref.table);

const ALL_RIGHTS: TableRights = { canInsert: true, canUpdate: true, canDelete: true };
export const NO_RIGHTS: TableRights = { canInsert: false, canUpdate: false, canDelete: false };

/** The write permissions the account's roles grant on one table. */
export async function tablePermissions(
  store: AppStore,
  account: AccessCaller,
  ref: TableRef,
): Promise<TableRights> {
  if (account.isAdmin) return ALL_RIGHTS;
  return (await permissionsOfTables(store, account, [tableIdOf(ref)]))(ref);
}

/** The write permissions on each of many tables of a database (the table list), in one query whatever their
 * number. */
export async function databasePermissions(
  store: AppStore,
  account: AccessCaller,
  database: string,
  tables: { schema: string; table: string }[],
): Promise<(table: { schema: string; table: string }) => TableRights> {
  if (account.isAdmin) return () => ALL_RIGHTS;
  const ids = tables.map((t) => tableIdOf({ database, ...t }));
  const rightsOf = await permissionsOfTables(store, account, ids);
  return (table) => rightsOf({ database, ...table });
}

/** Reads the account's role permissions on the given TableIds (all its permission rows when there are many ids:
 * a user's roles name far fewer tables than a big database has) and answers a lookup by table. */
async function permissionsOfTables(
  store: AppStore,
  account: AccessCaller,
  tableIds: string[],
): Promise<(ref: TableRef) => TableRights> {
  // Known from the access cache (a signed-in call): no read at all.
  const known = account.permissions;
  if (known) return (ref) => known.get(tableIdOf(ref)) ?? NO_RIGHTS;
  let query = store.db
    .selectFrom('role_permissions')
    .innerJoin('user_roles', 'user_roles.role_id', 'role_permissions.role_id')
    .where('user_roles.user_id', '=', account.userId)
    .select(['table_id', 'can_insert', 'can_update', 'can_delete']);
  if (tableIds.length <= 100) query = query.where('role_permissions.table_id', 'in', tableIds);
  const granted = new Map<string, TableRights>();
  for (const row of tableIds.length > 0 ? await query.execute() : []) {
    const rights = granted.get(row.table_id) ?? NO_RIGHTS;
    granted.set(row.table_id, {
      canInsert: rights.canInsert || row.can_insert === 1,
      canUpdate: rights.canUpdate || row.can_update === 1,
      canDelete: rights.canDelete || row.can_delete === 1,
    });
  }
  return (ref) => granted.get(tableIdOf(ref)) ?? NO_RIGHTS;
}

/** Whether the account may do `action` on the table. */
export async function mayAccessTable(
  store: AppStore,
  account: AccessCaller,
  ref: TableRef,
  action: TableAction,
) {
  if (account.isAdmin) return true;
  if (!matcherOf(account.links).table(ref.database, ref.schema, ref.table)) return false;
  if (action === 'read') return true;
  const permissions = await tablePermissions(store, account, ref);
  return action === 'insert'
    ? permissions.canInsert
    : action === 'update'
      ? permissions.canUpdate
      : permissions.canDelete;
}

/** Throws a 403 (and audits it) unless the account may do `action` on the table. Call it before looking the table
 * up, so a refusal never tells whether the table exists. */
export async function requireTableAccess(
  store: AppStore,
  account: AccessCaller,
  ref: TableRef,
  action: TableAction,
  address: string | null = null,
): Promise<void> {
  if (await mayAccessTable(store, account, ref, action)) return;
  // A reader refused a write is told which right is missing; anyone else learns nothing about the table.
  const message =
    action !== 'read' && (await mayAccessTable(store, account, ref, 'read'))
      ? ACTION_DENIED[action]
      : ACCESS_DENIED;
  await writeAudit(store.db, {
    userId: account.userId,
    action: 'access.denied',
    target: tablePath(ref.database, ref.schema, ref.table),
    detail: { action },
    address,
  });
  throw new ApiError(403, message);
}

/** Throws a 403 (and audits it) unless the account's links show the database. */
export async function requireDatabaseAccess(
  store: AppStore,
  account: AccessCaller,
  database: string,
  address: string | null = null,
): Promise<void> {
  if (account.isAdmin || matcherOf(account.links).database(database)) return;
  await writeAudit(store.db, {
    userId: account.userId,
    action: 'access.denied',
    target: `/db/${encodeSegment(database)}`,
    address,
  });
  throw new ApiError(403, 'You do not have access to that database.');
}

/** The databases the account's links show, in registration order. */
export function visibleDatabases(account: AccessCaller, names: string[]): string[] {
  if (account.isAdmin) return names;
  const allows = matcherOf(account.links);
  return names.filter((name) => allows.database(name));
}

/** The tables of a database the account's links allow. */
export function visibleTables<T extends { schema: string; name: string }>(
  account: AccessCaller,
  database: string,
  tables: T[],
): T[] {
  if (account.isAdmin) return tables;
  // Compiled once for the whole list: each table then costs the length of its own path.
  const allows = matcherOf(account.links);
  return tables.filter((t) => allows.table(database, t.schema, t.name));
}
