import { filterProblems } from '#common/contract/filter.ts';
import type { Column, Table } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import {
  VIEWS_PER_TABLE_MAX,
  viewMessages,
  type SavedView,
  type ViewBody,
  type ViewSharing,
} from '#common/contract/views.ts';
import { openTable, type Caller, type TableAccessContext } from '#server/access/table-access.ts';
import type { TableRef } from '#server/access/policy.ts';
import { refuseFilterProblems } from '#server/engines/filter-predicates.ts';
import { isSortable } from '#common/sorting.ts';
import { sortColumnOf } from '#server/engines/row-pages.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { writeAudit } from '#server/store/audit.ts';
import {
  deleteView as deleteStoredView,
  existingRoleIds,
  insertView,
  isUniqueViolation,
  roleIdsOfUser,
  updateView,
  viewCountOf,
  viewNamed,
  viewOpenTo,
  viewsOpenTo,
  type StoredView,
  type ViewDefinition,
  type ViewToSave,
} from '#server/store/views.ts';

/*
 * Saved views (issue 36, docs/decisions/0062-views.md). Every call opens the table as the page call does (signed in →
 * the access policy → the catalog): a caller who may not read the table learns nothing of its views. A view holds no
 * rights: each answer is the view as this viewer may see it against the table as it is now (asViewer).
 */

/** What the views calls need: the app store and the databases (to open the table), and the app's clock. */
export interface ViewsContext extends TableAccessContext {
  now: () => Date;
}

/** The columns a viewer may read: the catalog's, without those it marks hidden (until row and column rights, issue
 * 40, add the viewer's own). */
function readableColumns(table: Table): Column[] {
  return table.columns.filter((column) => !column.isHidden);
}

/** The sharing as the contract writes it: a 'roles' view whose roles have all been deleted is its author's alone. */
function sharingOf(view: StoredView): ViewSharing {
  if (view.sharing !== 'roles') return view.sharing;
  return view.roleIds.length ? { roleIds: view.roleIds } : 'private';
}

/**
 * A view as this viewer sees it, against the table as it is now: columns the table no longer has left out and named
 * in `dropped`; columns the viewer may not read left out silently (their names are not the viewer's to know); a
 * filter that no longer fits the readable columns and a sort on a column gone, unreadable or unsortable dropped, each
 * with its sentence. Nothing of the author's rights plays a part.
 */
export function asViewer(
  view: StoredView,
  table: Table,
  viewer: { userId: number; isAdmin: boolean },
): SavedView {
  const readable = readableColumns(table);
  const readableNames = new Set(readable.map((column) => column.name));
  const existing = new Set(table.columns.map((column) => column.name));
  const { definition } = view;
  const problems: string[] = [];
  const dropped = definition.columns
    .filter((column) => !existing.has(column.name))
    .map((column) => column.name);
  if (dropped.length) problems.push(viewMessages.columnsDropped(dropped));
  let where = definition.where;
  if (where && filterProblems(where, readable).length) {
    where = null;
    problems.push(viewMessages.whereDropped);
  }
  let orderBy = definition.orderBy;
  if (orderBy) {
    const column = readable.find((c) => c.name === sortColumnOf(orderBy ?? ''));
    if (!column || !isSortable(column)) {
      orderBy = null;
      problems.push(viewMessages.sortDropped);
    }
  }
  return {
    Id: view.id,
    name: view.name,
    columns: definition.columns.filter((column) => readableNames.has(column.name)),
    orderBy,
    where,
    pageSize: definition.pageSize,
    shared: sharingOf(view),
    author: view.author,
    mine: view.ownerId === viewer.userId || viewer.isAdmin,
    updatedAt: view.updatedAt,
    dropped,
    problems,
  };
}

/** GET …/views: the views of the table this caller may open, each as they see it. */
export async function listViews(context: ViewsContext, caller: Caller, ref: TableRef): Promise<SavedView[]> {
  const { table } = await openTable(context, caller, ref, 'read');
  const views = await viewsOpenTo(context.store.db, ref, caller.account.userId);
  return views.map((view) => asViewer(view, table, caller.account));
}

/** The body's grid state checked against the columns the caller may read now: 400 naming what to fix. */
function checkedDefinition(table: Table, body: ViewBody): ViewDefinition {
  const readable = readableColumns(table);
  const byName = new Map(readable.map((column) => [column.name, column]));
  const seen = new Set<string>();
  for (const { name } of body.columns) {
    if (!byName.has(name)) throw new ApiError(400, viewMessages.unknownColumn(name));
    if (seen.has(name)) throw new ApiError(400, viewMessages.duplicateColumn(name));
    seen.add(name);
  }
  if (body.orderBy) {
    const name = sortColumnOf(body.orderBy);
    const column = byName.get(name);
    if (!column) throw new ApiError(400, viewMessages.unknownColumn(name));
    if (!isSortable(column)) throw new ApiError(400, viewMessages.unsortableColumn(name));
  }
  if (body.where) {
    const problems = filterProblems(body.where, readable);
    if (problems.length) refuseFilterProblems(problems);
  }
  return {
    columns: body.columns,
    orderBy: body.orderBy || null,
    where: body.where,
    pageSize: body.pageSize,
  };
}

/** The roles named in `shared` must exist; a non-administrator may name only roles they are a member of (or roles
 * the view is already shared with: keeping them widens nothing). A non-administrator is told only that they are not
 * a member, whether the role exists or not. */
async function checkRoles(
  db: ViewsContext['store']['db'],
  caller: Caller,
  roleIds: readonly number[],
  before: StoredView | undefined,
): Promise<void> {
  if (!roleIds.length) return;
  const kept = new Set(before?.sharing === 'roles' ? before.roleIds : []);
  const existing = await existingRoleIds(db, roleIds);
  const own = caller.account.isAdmin ? null : await roleIdsOfUser(db, caller.account.userId);
  for (const roleId of roleIds) {
    if (own && !own.has(roleId) && !kept.has(roleId))
      throw new ApiError(400, viewMessages.notMemberOfRole(roleId));
    if (!existing.has(roleId)) throw new ApiError(400, viewMessages.unknownRole(roleId));
  }
}

/** What the audit trail keeps of a view: everything it stores, and its owner. */
function audited(view: StoredView | undefined) {
  if (!view) return null;
  return { name: view.name, ownerId: view.ownerId, ...view.definition, shared: sharingOf(view) };
}

/**
 * POST …/views: Id 0 creates a view of the caller's; another Id changes that view when the caller may open it and is
 * its author or an administrator (it stays its author's). Audited in the same transaction, with the view before and
 * after. Answers the view as the caller sees it.
 */
export async function saveView(
  context: ViewsContext,
  caller: Caller,
  ref: TableRef,
  body: ViewBody,
): Promise<SavedView> {
  const { table } = await openTable(context, caller, ref, 'read');
  const definition = checkedDefinition(table, body);
  const { account } = caller;
  const shared = body.shared;
  const roleIds = typeof shared === 'object' ? [...new Set(shared.roleIds)] : [];
  const toSave: ViewToSave = {
    name: body.name,
    definition,
    sharing: typeof shared === 'object' ? 'roles' : shared,
    roleIds,
  };
  const now = context.now().toISOString();
  try {
    const saved = await context.store.db.transaction().execute(async (trx) => {
      const before = body.Id === 0 ? undefined : await viewOpenTo(trx, ref, body.Id, account.userId);
      if (body.Id !== 0 && !before) throw new ApiError(404, viewMessages.notFound);
      if (before && before.ownerId !== account.userId && !account.isAdmin)
        throw new ApiError(403, viewMessages.notYours);
      const ownerId = before?.ownerId ?? account.userId;
      await checkRoles(trx, caller, roleIds, before);
      if ((await viewNamed(trx, ref, ownerId, toSave.name, body.Id)) !== undefined)
        throw new ApiError(409, viewMessages.nameTaken);
      if (!before && (await viewCountOf(trx, ref, ownerId)) >= VIEWS_PER_TABLE_MAX)
        throw new ApiError(400, viewMessages.tooManyViews);
      let viewId: number;
      if (before) {
        await updateView(trx, before.id, toSave, now);
        viewId = before.id;
      } else {
        viewId = await insertView(trx, ref, ownerId, toSave, now);
      }
      // Read as its owner, who may always open it: an administrator who made it private still gets the answer.
      const after = await viewOpenTo(trx, ref, viewId, ownerId);
      if (!after) throw new Error(`the view ${viewId} just saved cannot be read back`);
      await writeAudit(trx, {
        userId: account.userId,
        action: before ? 'view.updated' : 'view.created',
        target: tablePath(ref.database, ref.schema, ref.table),
        detail: { view: viewId, before: audited(before), after: audited(after) },
        address: caller.address,
      });
      return after;
    });
    return asViewer(saved, table, account);
  } catch (error) {
    // Two saves of the same name at once: the unique key decides, and the loser hears why.
    if (isUniqueViolation(error)) throw new ApiError(409, viewMessages.nameTaken);
    throw error;
  }
}

/** POST …/views/delete: the view's author or an administrator who may open it deletes it; audited with the view. */
export async function deleteView(
  context: ViewsContext,
  caller: Caller,
  ref: TableRef,
  viewId: number,
): Promise<void> {
  await openTable(context, caller, ref, 'read');
  const { account } = caller;
  await context.store.db.transaction().execute(async (trx) => {
    const before = await viewOpenTo(trx, ref, viewId, account.userId);
    if (!before) throw new ApiError(404, viewMessages.notFound);
    if (before.ownerId !== account.userId && !account.isAdmin) throw new ApiError(403, viewMessages.notYours);
    await deleteStoredView(trx, before.id);
    await writeAudit(trx, {
      userId: account.userId,
      action: 'view.deleted',
      target: tablePath(ref.database, ref.schema, ref.table),
      detail: { view: before.id, before: audited(before) },
      address: caller.address,
    });
  });
}
