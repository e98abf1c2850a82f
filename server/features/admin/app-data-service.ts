import type { Kysely } from 'kysely';
import { z } from 'zod';
import { firstNameField, lastNameField } from '#common/contract/account.ts';
import {
  linkField,
  roleMessages,
  roleName,
  tableIdField,
  type AppRow,
  type Role,
} from '#common/contract/admin.ts';
import { BUILT_IN_ROLE_MAX_ID } from '#common/limits.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { findRole } from '#server/store/roles.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { checkRoleRules, roleOf, storedLink, storedTableId } from './roles-service.ts';
import { endSessionsIfLocked } from './users-service.ts';

/*
 * The spec's generic admin data calls (000 §7 "Admin data") on the app store: {db} is `app`, {schema} is `main`,
 * and the tables are a fixed allow-list, each with the columns it answers and the ones it lets an administrator
 * write. Secrets (password and token hashes, TOTP secrets, codes) are in no list, and sessions, codes, recovery
 * codes and settings are no table here. Role rows follow the same rules as a whole role saved by roles-service;
 * every change is audited (`admin.data.insert`/`update`/`delete`, detail {key, before, after}).
 */

export const appDataMessages = {
  notEditable: 'That table cannot be edited here.',
  rowNotFound: 'That row was not found.',
  notAdded: (table: string) => `Rows of ${table} cannot be added here.`,
  notChanged: (table: string) => `Rows of ${table} cannot be changed here: delete the row and add it again.`,
  notDeleted: (table: string) => `Rows of ${table} cannot be deleted here.`,
  notAColumn: (table: string, column: string) =>
    `${column} is not a column of ${table} that can be edited here.`,
  readOnly: (column: string) => `${column} cannot be changed here.`,
  unknownRole: (roleId: number) => `There is no role with Id ${roleId}.`,
  idRequired: 'To delete a row, send its id.',
} as const;

/** The app store's name and schema in these calls' paths. */
export const APP_DATABASE = 'app';
export const APP_SCHEMA = 'main';

const flagValue = z
  .union([z.boolean(), z.literal(0), z.literal(1)])
  .transform((v) => (v === true || v === 1 ? 1 : 0));
const positiveId = (what: string) =>
  z
    .number({ error: `${what} must be an Id.` })
    .int()
    .min(1, `${what} must be an Id.`);
const optionalInstant = z.iso
  .datetime({ offset: true, error: 'locked_until must be an ISO instant or null.' })
  .transform((v) => new Date(v).toISOString())
  .nullable();

/** Which rows of a role's whole a row of this table is (for the role rules). */
type RolePart = 'Role_Links' | 'Role_Permissions' | 'User_Roles';

interface AppTable {
  /** The columns answered, id first. */
  read: readonly string[];
  /** 0/1 columns, answered and accepted as booleans. */
  flags: readonly string[];
  /** The columns a new row takes; null: no rows are added here. */
  insert: z.ZodObject | null;
  /** The columns a change may set (any subset); null: rows are not changed here. */
  update: z.ZodObject | null;
  delete: boolean;
  /** Rows that are part of a role: the role's rules are checked with the change applied. */
  rolePart?: RolePart;
}

const permissionFlags = { can_insert: flagValue, can_update: flagValue, can_delete: flagValue };
// Links and TableIds are written in their stored form, as a whole role saved by roles-service writes them.
const linkColumn = linkField.transform(storedLink);
const tableIdColumn = tableIdField.transform(storedTableId);

const appTables: Record<string, AppTable> = {
  roles: {
    read: ['id', 'name', 'is_admin', 'built_in'],
    flags: ['is_admin', 'built_in'],
    insert: z.object({ name: roleName }),
    update: z.object({ name: roleName }),
    delete: true,
  },
  role_links: {
    read: ['id', 'role_id', 'link'],
    flags: [],
    insert: z.object({ role_id: positiveId('role_id'), link: linkColumn }),
    update: z.object({ link: linkColumn }),
    delete: true,
    rolePart: 'Role_Links',
  },
  role_permissions: {
    read: ['id', 'role_id', 'table_id', 'can_insert', 'can_update', 'can_delete'],
    flags: ['can_insert', 'can_update', 'can_delete'],
    insert: z.object({
      role_id: positiveId('role_id'),
      table_id: tableIdColumn,
      can_insert: flagValue.default(0),
      can_update: flagValue.default(0),
      can_delete: flagValue.default(0),
    }),
    update: z.object({ table_id: tableIdColumn, ...permissionFlags }),
    delete: true,
    rolePart: 'Role_Permissions',
  },
  user_roles: {
    read: ['id', 'user_id', 'role_id'],
    flags: [],
    insert: z.object({ user_id: positiveId('user_id'), role_id: positiveId('role_id') }),
    update: null,
    delete: true,
    rolePart: 'User_Roles',
  },
  users: {
    read: [
      'id',
      'username',
      'email',
      'first_name',
      'last_name',
      'created_at',
      'password_expired',
      'locked_until',
    ],
    flags: ['password_expired'],
    insert: null,
    // An administrator may correct a name, force a password change, or unlock an account.
    update: z.object({
      first_name: firstNameField.nullable(),
      last_name: lastNameField.nullable(),
      password_expired: flagValue,
      locked_until: optionalInstant,
    }),
    delete: false,
  },
};

/** A table of these calls by its path, or the one 404 every other table gets. */
export function appTableNamed(ref: { db: string; schema: string; table: string }): {
  name: string;
  spec: AppTable;
} {
  const spec = Object.hasOwn(appTables, ref.table) ? appTables[ref.table] : undefined;
  if (ref.db !== APP_DATABASE || ref.schema !== APP_SCHEMA || !spec) {
    throw new ApiError(404, appDataMessages.notEditable);
  }
  return { name: ref.table, spec };
}

/** The allow-listed tables seen without their types: names come from the list above, never from input. */
type Untyped = Kysely<Record<string, Record<string, unknown>>>;
type StoreDb = Kysely<AppDatabase>;
const untyped = (db: StoreDb): Untyped => db as unknown as Untyped;

type StoredValue = string | number | boolean | null;
const storedValue = (value: unknown): StoredValue =>
  value === null || value === undefined
    ? null
    : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : typeof value === 'bigint'
        ? Number(value)
        : String(value);

/** A stored row as answered: only the listed columns, flags as booleans. */
function answered(spec: AppTable, stored: Record<string, unknown>): AppRow {
  return Object.fromEntries(
    spec.read.map((name) => {
      const value = storedValue(stored[name]);
      return [name, spec.flags.includes(name) && value !== null ? Number(value) === 1 : value];
    }),
  );
}

async function selectRow(db: StoreDb, name: string, spec: AppTable, id: number): Promise<AppRow | null> {
  const found = await untyped(db)
    .selectFrom(name)
    .select([...spec.read])
    .where('id', '=', id)
    .executeTakeFirst();
  return found ? answered(spec, found) : null;
}

/** The row's id from a body: a whole number from 1, or absent (0 and null count as absent: a new row). */
function idOf(body: AppRow): number | null {
  const id = body.id;
  if (id === undefined || id === null || id === 0) return null;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1)
    throw new ApiError(400, 'id must be a row Id.');
  return id;
}

/** The values a body sets, checked by the table's rules; a column that is not writable is refused by name unless
 * it only repeats the row's current value (clients send whole rows back). */
function valuesOf(
  name: string,
  spec: AppTable,
  schema: z.ZodObject,
  body: AppRow,
  current: AppRow | null,
): Record<string, unknown> {
  const writable = Object.keys(schema.shape);
  const given: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(body)) {
    if (column === 'id') continue;
    if (writable.includes(column)) {
      given[column] = value;
      continue;
    }
    if (!spec.read.includes(column)) throw new ApiError(400, appDataMessages.notAColumn(name, column));
    if (!current || JSON.stringify(current[column] ?? null) !== JSON.stringify(value)) {
      throw new ApiError(400, appDataMessages.readOnly(column));
    }
  }
  const parsed = (current ? schema.partial() : schema).safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.');
    throw new ApiError(400, `${field ? `${field}: ` : ''}${issue?.message ?? 'The row is not valid.'}`);
  }
  return parsed.data;
}

/** A row of role_links, role_permissions or user_roles as the item of a whole role it is. */
function rolePartItem(part: RolePart, row: AppRow) {
  const id = Number(row.id ?? 0);
  const roleId = Number(row.role_id);
  if (part === 'Role_Links') return { Id: id, RoleId: roleId, Link: String(row.link ?? '') };
  if (part === 'Role_Permissions') {
    return {
      Id: id,
      RoleId: roleId,
      TableId: String(row.table_id ?? ''),
      CanInsert: row.can_insert === true || row.can_insert === 1,
      CanUpdate: row.can_update === true || row.can_update === 1,
      CanDelete: row.can_delete === true || row.can_delete === 1,
    };
  }
  return { Id: id, UserId: Number(row.user_id), RoleId: roleId };
}

/** Checks the role rules (roles-service) on the role as it would be with the change applied: before is removed,
 * after is added. Throws the rule's 400, or a 400 for a role or user that does not exist. */
async function checkRoleChange(
  db: StoreDb,
  part: RolePart,
  before: AppRow | null,
  after: AppRow | null,
): Promise<void> {
  const roleId = Number((after ?? before)?.role_id);
  const stored = await findRole(db, roleId);
  if (!stored) throw new ApiError(400, appDataMessages.unknownRole(roleId));
  if (part === 'User_Roles' && after) {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', Number(after.user_id))
      .executeTakeFirst();
    if (!user) throw new ApiError(400, roleMessages.unknownUser(Number(after.user_id)));
  }
  const role: Role = roleOf(stored);
  const beforeId = before ? Number(before.id) : null;
  const kept = <T extends { Id: number }>(items: T[]) => items.filter((item) => item.Id !== beforeId);
  const added = after ? [rolePartItem(part, after)] : [];
  const changed: Role =
    part === 'Role_Links'
      ? { ...role, Role_Links: [...kept(role.Role_Links), ...(added as Role['Role_Links'])] }
      : part === 'Role_Permissions'
        ? {
            ...role,
            Role_Permissions: [...kept(role.Role_Permissions), ...(added as Role['Role_Permissions'])],
          }
        : { ...role, User_Roles: [...kept(role.User_Roles), ...(added as Role['User_Roles'])] };
  checkRoleRules(changed);
}

/** The rules of the roles table itself: unique names, built-in roles keep theirs and stay. */
async function checkRolesRow(
  db: StoreDb,
  before: AppRow | null,
  values: Record<string, unknown>,
): Promise<void> {
  if (typeof values.name !== 'string') return;
  if (before?.built_in === true && before.name !== values.name) {
    throw new ApiError(400, 'Built-in roles keep their names.');
  }
  const sameName = await db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', values.name)
    .where('id', '!=', Number(before?.id ?? 0))
    .executeTakeFirst();
  if (sameName) throw new ApiError(409, roleMessages.nameTaken);
}

/** Who changed what, for the audit trail. */
export interface AppDataCaller {
  userId: number;
  address: string | null;
}

async function audit(
  db: StoreDb,
  caller: AppDataCaller,
  name: string,
  change: 'insert' | 'update' | 'delete',
  id: number,
  before: AppRow | null,
  after: AppRow | null,
): Promise<void> {
  await writeAudit(db, {
    userId: caller.userId,
    action: `admin.data.${change}`,
    target: `/admin/${APP_DATABASE}/${APP_SCHEMA}/${name}`,
    detail: { key: { id }, before, after },
    address: caller.address,
  });
}

/** GET api/admin/app/main/{table}/{id}: one row, its listed columns only. */
export async function getAppRow(
  store: AppStore,
  ref: { db: string; schema: string; table: string },
  id: number,
): Promise<AppRow> {
  const { name, spec } = appTableNamed(ref);
  const found = await selectRow(store.db, name, spec, id);
  if (!found) throw new ApiError(404, appDataMessages.rowNotFound);
  return found;
}

/** POST api/admin/app/main/{table}: adds a row (no id) or changes one (its id), in one transaction with its rules
 * and its audit entry; answers the row as saved. */
export async function upsertAppRow(
  store: AppStore,
  ref: { db: string; schema: string; table: string },
  body: AppRow,
  caller: AppDataCaller,
  now: Date,
): Promise<AppRow> {
  const { name, spec } = appTableNamed(ref);
  const id = idOf(body);
  return store.db.transaction().execute(async (trx) => {
    const db: StoreDb = trx;
    if (id === null) {
      if (!spec.insert) throw new ApiError(400, appDataMessages.notAdded(name));
      const values = valuesOf(name, spec, spec.insert, body, null);
      if (name === 'roles') await checkRolesRow(db, null, values);
      if (spec.rolePart) await checkRoleChange(db, spec.rolePart, null, { id: 0, ...(values as AppRow) });
      const inserted = await untyped(db)
        .insertInto(name)
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      const newId = Number(inserted.id);
      const after = await selectRow(db, name, spec, newId);
      await audit(db, caller, name, 'insert', newId, null, after);
      if (!after) throw new ApiError(404, appDataMessages.rowNotFound);
      return after;
    }
    if (!spec.update) throw new ApiError(400, appDataMessages.notChanged(name));
    const before = await selectRow(db, name, spec, id);
    if (!before) throw new ApiError(404, appDataMessages.rowNotFound);
    const values = valuesOf(name, spec, spec.update, body, before);
    if (name === 'roles') await checkRolesRow(db, before, values);
    if (spec.rolePart) await checkRoleChange(db, spec.rolePart, before, { ...before, ...(values as AppRow) });
    if (name === 'users') {
      values.updated_at = now.toISOString();
      // Unlocking starts the count of failed sign-ins afresh.
      if (values.locked_until === null) values.failed_logins = 0;
    }
    if (Object.keys(values).length > 0) {
      await untyped(db).updateTable(name).set(values).where('id', '=', id).execute();
    }
    if (name === 'users') await endSessionsIfLocked(db, id, values.locked_until, caller, now);
    const after = await selectRow(db, name, spec, id);
    await audit(db, caller, name, 'update', id, before, after);
    if (!after) throw new ApiError(404, appDataMessages.rowNotFound);
    return after;
  });
}

/** POST api/admin/app/main/{table}/delete: deletes the row with the body's id, with its rules and audit entry;
 * answers the row as it was. */
export async function deleteAppRow(
  store: AppStore,
  ref: { db: string; schema: string; table: string },
  body: AppRow,
  caller: AppDataCaller,
): Promise<AppRow> {
  const { name, spec } = appTableNamed(ref);
  if (!spec.delete) throw new ApiError(400, appDataMessages.notDeleted(name));
  const id = idOf(body);
  if (id === null) throw new ApiError(400, appDataMessages.idRequired);
  if (name === 'roles' && id <= BUILT_IN_ROLE_MAX_ID)
    throw new ApiError(400, roleMessages.builtInNotDeletable);
  return store.db.transaction().execute(async (trx) => {
    const db: StoreDb = trx;
    const before = await selectRow(db, name, spec, id);
    if (!before) throw new ApiError(404, appDataMessages.rowNotFound);
    if (spec.rolePart) await checkRoleChange(db, spec.rolePart, before, null);
    await untyped(db).deleteFrom(name).where('id', '=', id).execute();
    await audit(db, caller, name, 'delete', id, before, null);
    return before;
  });
}
