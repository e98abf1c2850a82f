import { z } from 'zod';
import type { Kysely, Transaction } from 'kysely';
import { filterDocument } from '#common/contract/filter.ts';
import { viewColumn } from '#common/contract/views.ts';
import type { AppDatabase } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/*
 * Saved views (issue 36, docs/decisions/0062-views.md): one row per view in saved_views, the roles of a view shared
 * with roles in saved_view_roles. Who may open a view is decided here, in one query (its author; everyone, when it is
 * shared with everyone; the members of its roles); what of it the viewer sees is the service's work
 * (features/views/views-service.ts), against the table as it is now.
 */

/** The table a view belongs to. */
export interface ViewTableRef {
  database: string;
  schema: string;
  table: string;
}

/** What a view stores of the grid, as its author saved it (never with anything of the author's rights). */
export const viewDefinition = z.object({
  columns: z.array(viewColumn),
  orderBy: z.string().nullable(),
  where: filterDocument.nullable(),
  pageSize: z.number().int(),
});
export type ViewDefinition = z.infer<typeof viewDefinition>;

/** Who may open a view besides its author. */
export type StoredSharing = 'private' | 'everyone' | 'roles';

/** A view as stored, with its author's user name and the roles it is shared with (when `sharing` is 'roles'). */
export interface StoredView {
  id: number;
  ref: ViewTableRef;
  ownerId: number;
  author: string;
  name: string;
  definition: ViewDefinition;
  sharing: StoredSharing;
  roleIds: number[];
  createdAt: string;
  updatedAt: string;
}

const sharings: readonly StoredSharing[] = ['private', 'everyone', 'roles'];

function sharingOf(value: string): StoredSharing {
  return (sharings as readonly string[]).includes(value) ? (value as StoredSharing) : 'private';
}

/** The views of `ref` that `userId` may open, each with its roles, by name. */
async function openableViews(
  db: Db,
  ref: ViewTableRef,
  userId: number,
  viewId?: number,
): Promise<StoredView[]> {
  let query = db
    .selectFrom('saved_views as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select([
      'v.id',
      'v.user_id',
      'u.username',
      'v.name',
      'v.definition',
      'v.sharing',
      'v.created_at',
      'v.updated_at',
    ])
    .where('v.database_name', '=', ref.database)
    .where('v.schema_name', '=', ref.schema)
    .where('v.table_name', '=', ref.table)
    .where((eb) =>
      eb.or([
        eb('v.user_id', '=', userId),
        eb('v.sharing', '=', 'everyone'),
        eb.and([
          eb('v.sharing', '=', 'roles'),
          eb.exists(
            eb
              .selectFrom('saved_view_roles as vr')
              .innerJoin('user_roles as ur', 'ur.role_id', 'vr.role_id')
              .select('vr.view_id')
              .whereRef('vr.view_id', '=', 'v.id')
              .where('ur.user_id', '=', userId),
          ),
        ]),
      ]),
    );
  if (viewId !== undefined) query = query.where('v.id', '=', viewId);
  const rows = await query.execute();
  const ids = rows.map((row) => row.id);
  const roles = ids.length
    ? await db
        .selectFrom('saved_view_roles')
        .select(['view_id', 'role_id'])
        .where('view_id', 'in', ids)
        .orderBy('role_id')
        .execute()
    : [];
  const rolesOf = new Map<number, number[]>();
  for (const role of roles) rolesOf.set(role.view_id, [...(rolesOf.get(role.view_id) ?? []), role.role_id]);
  return rows
    .map((row): StoredView => ({
      id: row.id,
      ref,
      ownerId: row.user_id,
      author: row.username,
      name: row.name,
      definition: viewDefinition.parse(JSON.parse(row.definition)),
      sharing: sharingOf(row.sharing),
      roleIds: rolesOf.get(row.id) ?? [],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id);
}

/** The views of a table the user may open: their own, those shared with everyone, those shared with a role they
 * are a member of. Administrators are no exception: another person's private view is never theirs to open. */
export function viewsOpenTo(db: Db, ref: ViewTableRef, userId: number): Promise<StoredView[]> {
  return openableViews(db, ref, userId);
}

/** One view of the table, when the user may open it. */
export async function viewOpenTo(
  db: Db,
  ref: ViewTableRef,
  viewId: number,
  userId: number,
): Promise<StoredView | undefined> {
  return (await openableViews(db, ref, userId, viewId))[0];
}

/** The Id of the owner's view of the table with this name (other than `exceptId`), if any. */
export async function viewNamed(
  db: Db,
  ref: ViewTableRef,
  ownerId: number,
  name: string,
  exceptId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('saved_views')
    .select('id')
    .where('database_name', '=', ref.database)
    .where('schema_name', '=', ref.schema)
    .where('table_name', '=', ref.table)
    .where('user_id', '=', ownerId)
    .where('name', '=', name)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row?.id;
}

/** How many views of the table the owner keeps. */
export async function viewCountOf(db: Db, ref: ViewTableRef, ownerId: number): Promise<number> {
  const row = await db
    .selectFrom('saved_views')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('database_name', '=', ref.database)
    .where('schema_name', '=', ref.schema)
    .where('table_name', '=', ref.table)
    .where('user_id', '=', ownerId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** What a save writes of a view. */
export interface ViewToSave {
  name: string;
  definition: ViewDefinition;
  sharing: StoredSharing;
  roleIds: number[];
}

async function replaceRoles(db: Db, viewId: number, view: ViewToSave): Promise<void> {
  await db.deleteFrom('saved_view_roles').where('view_id', '=', viewId).execute();
  const roleIds = view.sharing === 'roles' ? [...new Set(view.roleIds)] : [];
  if (roleIds.length)
    await db
      .insertInto('saved_view_roles')
      .values(roleIds.map((roleId) => ({ view_id: viewId, role_id: roleId })))
      .execute();
}

/** Records a new view of the owner; answers its Id. */
export async function insertView(
  db: Db,
  ref: ViewTableRef,
  ownerId: number,
  view: ViewToSave,
  now: string,
): Promise<number> {
  const { id } = await db
    .insertInto('saved_views')
    .values({
      database_name: ref.database,
      schema_name: ref.schema,
      table_name: ref.table,
      user_id: ownerId,
      name: view.name,
      definition: JSON.stringify(view.definition),
      sharing: view.sharing,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await replaceRoles(db, id, view);
  return id;
}

/** Replaces a view's name, definition and sharing (its owner and table stay). */
export async function updateView(db: Db, viewId: number, view: ViewToSave, now: string): Promise<void> {
  await db
    .updateTable('saved_views')
    .set({
      name: view.name,
      definition: JSON.stringify(view.definition),
      sharing: view.sharing,
      updated_at: now,
    })
    .where('id', '=', viewId)
    .execute();
  await replaceRoles(db, viewId, view);
}

/** Deletes a view (its roles go with it). */
export async function deleteView(db: Db, viewId: number): Promise<void> {
  await db.deleteFrom('saved_views').where('id', '=', viewId).execute();
}

/** The Ids of the roles the user is a member of. */
export async function roleIdsOfUser(db: Db, userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('user_roles').select('role_id').where('user_id', '=', userId).execute();
  return new Set(rows.map((row) => row.role_id));
}

/** Which of these role Ids exist. */
export async function existingRoleIds(db: Db, roleIds: readonly number[]): Promise<Set<number>> {
  if (!roleIds.length) return new Set();
  const rows = await db
    .selectFrom('roles')
    .select('id')
    .where('id', 'in', [...roleIds])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** True for a unique key's refusal on either store (PostgreSQL 23505, SQLite's constraint code). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
