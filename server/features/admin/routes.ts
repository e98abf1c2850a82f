import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminOverview,
  adminTables,
  adminUserDetail,
  appRow,
  appRowParams,
  appTableParams,
  auditEntryId,
  auditQuery,
  auditRows,
  auditRowsQuery,
  lockInput,
  pagedAudit,
  pagedRoles,
  pagedUsers,
  role,
  roleInput,
  rolesQuery,
  undoResult,
  userIdParams,
  userMessages,
  userRolesInput,
  usersQuery,
} from '#common/contract/admin.ts';
import { envelope } from '#common/contract/envelope.ts';
import { adminMessages, browserMessages } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { callerOf } from '#server/access/table-access.ts';
import { pageOfAudit } from '#server/features/audit/audit-service.ts';
import { undoChange, type BulkUndoStarter } from '#server/features/audit/undo-service.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { markAccessChanged } from '#server/store/roles.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireAdmin, requireSignedIn } from '#server/plugins/session.ts';
import { deleteAppRow, getAppRow, upsertAppRow } from './app-data-service.ts';
import { adminOverview as overviewOf } from './overview-service.ts';
import { deleteRole, getRole, pageOfRoles, saveRole } from './roles-service.ts';
import { pageOfAuditRows } from './audit-rows-service.ts';
import { allTables } from './tables-service.ts';
import {
  endUserSessions,
  lockUser,
  resetSecondFactor,
  setUserRoles,
  unlockUser,
  type ActingAdministrator,
} from './user-actions-service.ts';
import { pageOfUsers, userDetail } from './users-service.ts';

const roleId = z.object({ id: z.coerce.number().int().min(1, 'id must be a role Id.') });

/** What the administration API works on: the app store, the registered databases, the app's clock. */
export interface AdminContext {
  store: AppStore;
  databases: DatabaseRegistry;
  now: () => Date;
  /** The undo of a bulk change, as a job (features/bulk, handed in by the app). */
  bulkUndo?: BulkUndoStarter;
}

/** The administrator behind a request, for the user actions. */
function actorOf(request: FastifyRequest, now: Date): ActingAdministrator {
  return { userId: callerOf(request).account.userId, address: request.ip, now };
}

/**
 * The administration API: users, roles with links, permissions and users, the table list, the audit trail and the
 * generic admin data calls on the app store, for administrators only; and the undo of a data change, which the
 * change's author may call too (its service decides who may).
 */
export function adminRoutes(context: AdminContext): FastifyPluginAsyncZod {
  const { store, databases } = context;
  return async (root) => {
    // Any change an administrator makes may change someone's rights (roles, links, permissions, a user's roles, a
    // lock, the app data tables, an undo of one): once it is committed, and before the answer says so, every
    // instance's cached rights are made stale (0034). Refused and failed calls changed nothing.
    root.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400)
        await markAccessChanged(store.db);
      return payload;
    });
    root.post(
      '/api/admin/audit/:id/undo',
      {
        // Signed in before validation; whether this caller may undo this change is the service's to decide.
        preValidation: requireSignedIn,
        schema: {
          tags: ['admin'],
          summary:
            'Undo a data change of the audit trail (administrators, or its author with the right still held)',
          params: auditEntryId,
          response: { 200: envelope(undoResult) },
        },
      },
      async (request) => {
        const { result, message } = await undoChange(
          { store, databases, log: request.log, bulkUndo: context.bulkUndo },
          callerOf(request),
          request.params.id,
        );
        return success(result, message);
      },
    );
    await root.register(administratorRoutes(context));
  };
}

/** The routes only administrators may call. */
function administratorRoutes(context: AdminContext): FastifyPluginAsyncZod {
  const { store, databases } = context;
  return async (app) => {
    // Before validation: a caller who may not call at all learns nothing from validation messages.
    app.addHook('preValidation', requireAdmin);
    const tags = ['admin'];

    app.get(
      '/api/admin/users',
      {
        schema: {
          tags,
          summary: 'Users sorted by id, 20 a page, searchable by username',
          querystring: usersQuery,
          response: { 200: envelope(pagedUsers) },
        },
      },
      async (request) => success(await pageOfUsers(store, request.query, context.now())),
    );
    app.get(
      '/api/admin/users/:id',
      {
        schema: {
          tags,
          summary: 'One user: the list fields, second factors, sessions and failed checks',
          params: userIdParams,
          response: { 200: envelope(adminUserDetail) },
        },
      },
      async (request) => success(await userDetail(store.db, request.params.id, context.now())),
    );
    app.post(
      '/api/admin/users/:id/roles',
      {
        schema: {
          tags,
          summary: "Set a user's roles to exactly these, in one transaction (audited admin.user.roles)",
          params: userIdParams,
          body: userRolesInput,
          response: { 200: envelope(adminUserDetail) },
        },
      },
      async (request) =>
        success(
          await setUserRoles(store, request.params.id, request.body.roleIds, actorOf(request, context.now())),
          userMessages.rolesSaved,
        ),
    );
    app.post(
      '/api/admin/users/:id/lock',
      {
        schema: {
          tags,
          summary:
            'Lock another user until an instant (none: until unlocked) and end their sessions (admin.user.locked)',
          params: userIdParams,
          body: lockInput,
          response: { 200: envelope(adminUserDetail) },
        },
      },
      async (request) =>
        success(
          await lockUser(store, request.params.id, request.body, actorOf(request, context.now())),
          userMessages.locked,
        ),
    );
    app.post(
      '/api/admin/users/:id/unlock',
      {
        schema: {
          tags,
          summary: 'Unlock a user and clear their failed checks (admin.user.unlocked)',
          params: userIdParams,
          response: { 200: envelope(adminUserDetail) },
        },
      },
      async (request) =>
        success(
          await unlockUser(store, request.params.id, actorOf(request, context.now())),
          userMessages.unlocked,
        ),
    );
    app.post(
      '/api/admin/users/:id/reset-2fa',
      {
        schema: {
          tags,
          summary:
            "Reset a user's second factors: app, phone verification, passkeys, recovery codes (admin.user.2fa-reset)",
          params: userIdParams,
          response: { 200: envelope(adminUserDetail) },
        },
      },
      async (request) =>
        success(
          await resetSecondFactor(store, request.params.id, actorOf(request, context.now())),
          userMessages.secondFactorReset,
        ),
    );
    app.post(
      '/api/admin/users/:id/end-sessions',
      {
        schema: {
          tags,
          summary: 'End every session of another user (admin.user.sessions-ended); the message says how many',
          params: userIdParams,
          response: { 200: envelope(adminUserDetail) },
        },
      },
      async (request) => {
        const { ended, user } = await endUserSessions(
          store,
          request.params.id,
          actorOf(request, context.now()),
        );
        return success(user, userMessages.sessionsEnded(ended));
      },
    );
    app.get(
      '/api/admin/overview',
      {
        schema: {
          tags,
          summary: 'The start page: counts, health, the last 24 hours of failures, lockouts and data changes',
          response: { 200: envelope(adminOverview) },
        },
      },
      async (request) => success(await overviewOf(store, databases, request.log, context.now())),
    );
    app.get(
      '/api/admin/roles',
      {
        schema: {
          tags,
          summary: 'Roles sorted by Id, searchable by Name',
          querystring: rolesQuery,
          response: { 200: envelope(pagedRoles) },
        },
      },
      async (request) => success(await pageOfRoles(store, request.query)),
    );
    app.get(
      '/api/admin/roles/:id',
      {
        schema: {
          tags,
          summary: 'A whole role: links, permissions and users',
          params: roleId,
          response: { 200: envelope(role) },
        },
      },
      async (request) => success(await getRole(store, request.params.id)),
    );
    app.post(
      '/api/admin/roles',
      {
        schema: {
          tags,
          summary: 'Create (Id 0) or replace a whole role in one transaction',
          body: roleInput,
          response: { 200: envelope(role) },
        },
      },
      async (request) =>
        success(await saveRole(store, request.body, request.account?.userId ?? 0), adminMessages.roleUpdated),
    );
    app.delete(
      '/api/admin/roles/:id',
      {
        schema: {
          tags,
          summary: 'Delete a role that is not built in (Id above 3)',
          params: roleId,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        await deleteRole(store, request.params.id, request.account?.userId ?? 0);
        return success(null, adminMessages.roleDeleted);
      },
    );
    app.get(
      '/api/admin/tables',
      {
        schema: {
          tags,
          summary: 'Every table of every registered database with its TableId',
          response: { 200: envelope(adminTables) },
        },
      },
      async (request) => success(await allTables(databases, request.log)),
    );
    app.get(
      '/api/admin/audit',
      {
        schema: {
          tags,
          summary:
            'The audit trail, newest first (pageSize up to 100), by user, table (TableId), actions and time',
          querystring: auditQuery,
          response: { 200: envelope(pagedAudit) },
        },
      },
      async (request) => success(await pageOfAudit(store, request.query)),
    );
    app.get(
      '/api/admin/audit/:id/rows',
      {
        schema: {
          tags,
          summary:
            'The rows of a bulk change (data.bulk) or of its undo, in key order, a page at a time (limit up to 500)',
          description:
            'Each row { key, before, after } as the audit stored it (hidden columns left out, binary values as ' +
            'their length and SHA-256); only the batches that committed are listed and counted. An entry that is ' +
            'not a bulk change nor the undo of one is a 409 saying it has no row list; an unknown id a 404.',
          params: auditEntryId,
          querystring: auditRowsQuery,
          response: { 200: envelope(auditRows) },
        },
      },
      async (request) => success(await pageOfAuditRows(store, request.params.id, request.query)),
    );

    // The spec's generic admin data calls, on the app store's editable tables: /api/admin/app/main/{table}…
    // The fixed routes above (roles/:id, users, audit…) have fewer segments or static ones, which the router prefers.
    app.get(
      '/api/admin/:db/:schema/:table/:id',
      {
        schema: {
          tags,
          summary:
            'One row of an app store table (db app, schema main: roles, role_links, role_permissions, …)',
          params: appRowParams,
          response: { 200: envelope(appRow) },
        },
      },
      async (request) => success(await getAppRow(store, request.params, request.params.id)),
    );
    app.post(
      '/api/admin/:db/:schema/:table',
      {
        schema: {
          tags,
          summary: 'Add (no id) or change (its id) one row of an app store table; answers it as saved',
          params: appTableParams,
          body: appRow,
          response: { 200: envelope(appRow) },
        },
      },
      async (request) =>
        success(
          await upsertAppRow(
            store,
            request.params,
            request.body,
            { userId: request.account?.userId ?? 0, address: request.ip },
            context.now(),
          ),
          browserMessages.rowUpdated,
        ),
    );
    app.post(
      '/api/admin/:db/:schema/:table/delete',
      {
        schema: {
          tags,
          summary: 'Delete one row (by its id) of an app store table; answers it as it was',
          params: appTableParams,
          body: appRow,
          response: { 200: envelope(appRow) },
        },
      },
      async (request) =>
        success(
          await deleteAppRow(store, request.params, request.body, {
            userId: request.account?.userId ?? 0,
            address: request.ip,
          }),
          browserMessages.rowDeleted,
        ),
    );
  };
}
