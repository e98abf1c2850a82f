import { canonicalLink, canonicalTableId, linkMatcher, tableOfId } from '#common/links.ts';
import { roleMessages, type Role, type RoleSummary } from '#common/contract/admin.ts';
import { BUILT_IN_ROLE_MAX_ID, ROLE_MAX_LINKS } from '#common/limits.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { ADMINISTRATOR_ROLE_ID, findRole, listRoles, type StoredRole } from '#server/store/roles.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';

/** The built-in Administrator role: the one role that makes administrators. */

/** A stored role in the spec's shape. */
export function roleOf(stored: StoredRole): Role {
  return {
    Id: stored.id,
    Name: stored.name,
    IsAdmin: stored.isAdmin,
    IsBuiltIn: stored.isBuiltIn,
    Role_Links: stored.links.map((l) => ({ Id: l.id, RoleId: stored.id, Link: l.link })),
    Role_Permissions: stored.permissions.map((p) => ({
      Id: p.id,
      RoleId: stored.id,
      TableId: p.tableId,
      CanInsert: p.canInsert,
      CanUpdate: p.canUpdate,
      CanDelete: p.canDelete,
    })),
    User_Roles: stored.users.map((u) => ({
      Id: u.id,
      UserId: u.userId,
      RoleId: stored.id,
      Username: u.username,
    })),
  };
}

/** A page of roles, filtered by name prefix. */
export async function pageOfRoles(
  store: AppStore,
  query: { page: number; pageSize: number; name?: string | undefined },
): Promise<{ results: RoleSummary[]; count: number }> {
  const { rows, count } = await listRoles(store.db, {
    name: query.name || undefined,
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return {
    count,
    results: rows.map((r) => ({
      Id: r.id,
      Name: r.name,
      IsAdmin: r.is_admin === 1,
      IsBuiltIn: r.built_in === 1,
      Links: Number(r.links ?? 0),
      Users: Number(r.users ?? 0),
    })),
  };
}

/** One role, or a 404. */
export async function getRole(store: AppStore, roleId: number): Promise<Role> {
  const stored = await findRole(store.db, roleId);
  if (!stored) throw new ApiError(404, roleMessages.notFound);
  return roleOf(stored);
}

/** A link in its stored form (docs/decisions/0015-link-segments.md), or a 400 saying what to fix. */
export function storedLink(link: string): string {
  const checked = canonicalLink(link);
  if ('problem' in checked) throw new ApiError(400, roleMessages.link[checked.problem]);
  return checked.link;
}

/** A permission's TableId in its stored form, or a 400 saying what to fix. */
export function storedTableId(tableId: string): string {
  const checked = canonicalTableId(tableId);
  if ('problem' in checked) throw new ApiError(400, roleMessages.tableId[checked.problem]);
  return checked.tableId;
}

/** Checks the role rules that need no database: how many links, each link and TableId, duplicates (compared in
 * their stored form, so `/a/` and `/a`, or `%2f` and `%2F`, are the same) and table coverage. Throws a 400 naming the
 * rule; answers the role with its links and TableIds as they are stored. */
export function checkRoleRules(role: Role): Role {
  if (role.Role_Links.length > ROLE_MAX_LINKS) throw new ApiError(400, roleMessages.tooManyLinks);
  const Role_Links = role.Role_Links.map((l) => ({ ...l, Link: storedLink(l.Link) }));
  const links = Role_Links.map((l) => l.Link);
  if (new Set(links).size !== links.length) throw new ApiError(400, roleMessages.duplicateLinks);
  const users = role.User_Roles.map((u) => u.UserId);
  if (new Set(users).size !== users.length) throw new ApiError(400, roleMessages.userTwice);
  const allows = linkMatcher(links);
  const tables = new Set<string>();
  const Role_Permissions = role.Role_Permissions.map((permission) => {
    const tableId = storedTableId(permission.TableId);
    if (tables.has(tableId)) throw new ApiError(400, roleMessages.duplicatePermission(tableId));
    tables.add(tableId);
    const names = tableOfId(tableId);
    if (!names || !allows.table(names.database, names.schema, names.table))
      throw new ApiError(400, roleMessages.tableNotCovered(tableId));
    return { ...permission, TableId: tableId };
  });
  if (role.Id === ADMINISTRATOR_ROLE_ID && (!links.includes('*') || users.length === 0)) {
    throw new ApiError(400, roleMessages.lastAdministrator);
  }
  return { ...role, Role_Links, Role_Permissions };
}

/** Creates (Id 0) or replaces a whole role, its links, permissions and users, in one transaction; answers it as
 * saved. Built-in roles keep their names. The change is audited with the role before and after. */
export async function saveRole(store: AppStore, given: Role, actorId: number): Promise<Role> {
  const role = checkRoleRules(given);
  const savedId = await store.db.transaction().execute(async (trx) => {
    const before = role.Id === 0 ? undefined : await findRole(trx, role.Id);
    if (role.Id !== 0 && !before) throw new ApiError(404, roleMessages.notFound);
    if (before?.isBuiltIn && before.name !== role.Name)
      throw new ApiError(400, 'Built-in roles keep their names.');
    const sameName = await trx
      .selectFrom('roles')
      .select('id')
      .where('name', '=', role.Name)
      .where('id', '!=', role.Id)
      .executeTakeFirst();
    if (sameName) throw new ApiError(409, roleMessages.nameTaken);
    const userIds = role.User_Roles.map((u) => u.UserId);
    if (userIds.length) {
      const known = new Set(
        (await trx.selectFrom('users').select('id').where('id', 'in', userIds).execute()).map((u) => u.id),
      );
      const unknown = userIds.find((id) => !known.has(id));
      if (unknown !== undefined) throw new ApiError(400, roleMessages.unknownUser(unknown));
    }

    let roleId = role.Id;
    if (roleId === 0) {
      roleId = (
        await trx.insertInto('roles').values({ name: role.Name }).returning('id').executeTakeFirstOrThrow()
      ).id;
    } else {
      await trx.updateTable('roles').set({ name: role.Name }).where('id', '=', roleId).execute();
      await trx.deleteFrom('role_links').where('role_id', '=', roleId).execute();
      await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
      await trx.deleteFrom('user_roles').where('role_id', '=', roleId).execute();
    }
    if (role.Role_Links.length) {
      await trx
        .insertInto('role_links')
        .values(role.Role_Links.map((l) => ({ role_id: roleId, link: l.Link })))
        .execute();
    }
    if (role.Role_Permissions.length) {
      await trx
        .insertInto('role_permissions')
        .values(
          role.Role_Permissions.map((p) => ({
            role_id: roleId,
            table_id: p.TableId,
            can_insert: p.CanInsert ? 1 : 0,
            can_update: p.CanUpdate ? 1 : 0,
            can_delete: p.CanDelete ? 1 : 0,
          })),
        )
        .execute();
    }
    if (userIds.length) {
      await trx
        .insertInto('user_roles')
        .values(userIds.map((userId) => ({ user_id: userId, role_id: roleId })))
        .execute();
    }
    const after = await findRole(trx, roleId);
    await writeAudit(trx, {
      userId: actorId,
      action: role.Id === 0 ? 'admin.role.created' : 'admin.role.updated',
      target: `role:${roleId}`,
      detail: { before: before ? roleOf(before) : null, after: after ? roleOf(after) : null },
    });
    return roleId;
  });
  return getRole(store, savedId);
}

/** Deletes a role that is not built in; its users lose its rights at their next call. */
export async function deleteRole(store: AppStore, roleId: number, actorId: number): Promise<void> {
  if (roleId <= BUILT_IN_ROLE_MAX_ID) throw new ApiError(400, roleMessages.builtInNotDeletable);
  await store.db.transaction().execute(async (trx) => {
    const before = await findRole(trx, roleId);
    if (!before) throw new ApiError(404, roleMessages.notFound);
    await trx.deleteFrom('roles').where('id', '=', roleId).execute();
    await writeAudit(trx, {
      userId: actorId,
      action: 'admin.role.deleted',
      target: `role:${roleId}`,
      detail: { before: roleOf(before) },
    });
  });
}
