import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminTables,
  appRow,
  appRowParams,
  appTableParams,
  auditEntryId,
  auditQuery,
  pagedAudit,
  pagedRoles,
  pagedUsers,
  role,
  roleInput,
  rolesQuery,
  undoResult,
  usersQuery,
} from '#common/contract/admin.ts';
import { envelope } from '#common/contract/envelope.ts';
import { accountApiMessages, browserMessages } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { Caller } from '#server/features/sql/table-access.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { requireAdmin, requireSignedIn } from '#server/plugins/session.ts';
import { deleteAppRow, getAppRow, upsertAppRow } from './app-data-service.ts';
import { pageOfAudit } from './audit-service.ts';
import { deleteRole, getRole, pageOfRoles, saveRole } from './roles-service.ts';
import { allTables } from './tables-service.ts';
import { undoChange } from './undo-service.ts';
import { pageOfUsers } from './users-service.ts';

const roleId = z.object({ id: z.coerce.number().int().min(1, 'id must be a role Id.') });

/** What the administration API works on: the app store, the registered databases, the app's clock. */
export interface AdminContext {
  store: AppStore;
  databases: DatabaseRegistry;
  now: () => Date;
}

function callerOf(request: FastifyRequest): Caller {
  if (!request.account) throw new ApiError(401, accountApiMessages.signInRequired);
  return { account: request.account, address: request.ip };
}

/**
 * The administration API: users, roles with links, permissions and users, the table list, the audit trail and the
 * generic admin data calls on the app store, for administrators only; and the undo of a data change, which the
 * change's author may call too (its service decides who may).
 */
export function adminRoutes(context: AdminContext): FastifyPluginAsyncZod {
  const { store, databases } = context;
  return async (root) => {
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
          { store, databases, log: request.log },
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
      async (request) => success(await pageOfUsers(store, request.query)),
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
        success(
          await saveRole(store, request.body, request.account?.userId ?? 0),
          'Successfully updated role.',
        ),
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
        return success(null, 'Successfully deleted role.');
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
