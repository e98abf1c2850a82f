import { z } from 'zod';
import { adminMessages } from '#common/messages.ts';
import { ADMIN_PAGE_SIZE } from '#common/limits.ts';
import { row } from './sql.ts';

/*
 * The administration API (issue 5): roles with their links, per-table permissions and users, exactly as the spec's
 * entities name them (new items carry Id 0), and the paged user and role lists.
 */

const id = z.number().int().min(0);

export const roleLink = z.object({
  Id: id,
  RoleId: id,
  Link: z.string().trim().min(1, 'Link is required.').max(500, 'Link cannot be more than 500 characters.'),
});
export type RoleLink = z.infer<typeof roleLink>;

export const rolePermission = z.object({
  Id: id,
  RoleId: id.optional(),
  TableId: z
    .string()
    .trim()
    .min(1, 'Table is required.')
    .describe('"{db}/{schema}/{table}" (GET /api/admin/tables)'),
  CanInsert: z.boolean(),
  CanUpdate: z.boolean(),
  CanDelete: z.boolean(),
});
export type RolePermission = z.infer<typeof rolePermission>;

export const userRole = z.object({
  Id: id,
  UserId: z.number().int().min(1, 'User is required.'),
  RoleId: id,
  Username: z.string().optional().describe('Answered for display; ignored when saving'),
});
export type UserRole = z.infer<typeof userRole>;

export const roleName = z
  .string({ error: 'Role name is required.' })
  .trim()
  .min(1, 'Role name is required.')
  .max(100, 'Role name cannot be more than 100 characters.')
  .regex(/^[A-Za-z0-9 _-]+$/, 'Role name may use only letters, digits, spaces, _ and -.');

export const role = z.object({
  Id: id,
  Name: roleName,
  IsAdmin: z
    .boolean()
    .optional()
    .describe('Answered; only the built-in Administrator role makes administrators'),
  IsBuiltIn: z.boolean().optional().describe('Answered; built-in roles (Id 1 to 3) cannot be deleted'),
  Role_Links: z.array(roleLink),
  Role_Permissions: z.array(rolePermission),
  User_Roles: z.array(userRole),
});
export type Role = z.infer<typeof role>;

/** A role as the list shows it. */
export const roleSummary = z.object({
  Id: id,
  Name: z.string(),
  IsAdmin: z.boolean(),
  IsBuiltIn: z.boolean(),
  Links: z.number().int(),
  Users: z.number().int(),
});
export type RoleSummary = z.infer<typeof roleSummary>;

export const adminUser = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  isAdmin: z.boolean(),
  emailVerified: z.boolean(),
  passwordExpired: z.boolean(),
  lockedUntil: z.string().nullable(),
  createdAt: z.string(),
  roles: z.array(z.object({ Id: z.number().int(), Name: z.string() })),
});
export type AdminUser = z.infer<typeof adminUser>;

const page = z.coerce.number().int().min(1, 'page must be a whole number from 1.').default(1);
const pageSize = z.coerce
  .number()
  .int()
  .min(1)
  .max(100, 'pageSize can be at most 100.')
  .default(ADMIN_PAGE_SIZE);

export const usersQuery = z.object({ page, pageSize, username: z.string().trim().max(50).optional() });
export const rolesQuery = z.object({ page, pageSize, name: z.string().trim().max(100).optional() });

export const pagedUsers = z.object({ results: z.array(adminUser), count: z.number().int() });
export const pagedRoles = z.object({ results: z.array(roleSummary), count: z.number().int() });

export const adminTable = z.object({
  TableId: z.string(),
  database: z.string(),
  schema: z.string(),
  name: z.string(),
  isView: z.boolean(),
});
export const adminTables = z.array(adminTable);

/** An instant in a query: ISO-8601 with Z or an offset. */
const instant = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO instant such as 2026-11-21T10:00:00Z.` });

export const auditQuery = z
  .object({
    page,
    pageSize,
    userId: z.coerce.number().int().min(1, 'userId must be a user Id.').optional(),
    table: z
      .string()
      .trim()
      .regex(/^$|^[^/]+\/[^/]+\/.+$/, 'table must be a TableId: {db}/{schema}/{table}.')
      .optional()
      .describe('A TableId: the entries whose target is /db/{db}/{schema}/{table}'),
    action: z
      .string()
      .trim()
      .max(500)
      .optional()
      .describe('An action (data.update) or several, comma-separated'),
    from: instant('from').optional().describe('Entries at or after this instant'),
    to: instant('to').optional().describe('Entries before this instant'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to.',
    path: ['from'],
  });
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  username: z.string().nullable().describe('null when the account no longer exists'),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.unknown().describe('The entry’s detail as JSON (data changes: {key, before, after})'),
  address: z.string().nullable(),
  undoneBy: z.number().int().nullable().describe('The data.undo entry that undid this change, if any'),
});
export type AuditEntryView = z.infer<typeof auditEntry>;
export const pagedAudit = z.object({ results: z.array(auditEntry), count: z.number().int() });

export const auditEntryId = z.object({
  id: z.coerce.number().int().min(1, 'id must be an audit entry Id.'),
});

/** What an undo did: the change it made (an update back, a delete of an inserted row, an insert of a deleted
 * one), the row's key (new when a restored row got a new identity) and the row as it is now (null when deleted). */
export const undoResult = z.object({
  undoEntryId: z.number().int().describe('The data.undo audit entry recording this undo'),
  change: z.enum(['insert', 'update', 'delete']),
  key: row,
  row: row.nullable(),
  keptKey: z.boolean().describe('false when a restored row got a new identity'),
});
export type UndoResult = z.infer<typeof undoResult>;

/** The app store's tables the generic admin data calls edit (GET/POST api/admin/app/main/{table}…). */
export const appTableParams = z.object({ db: z.string(), schema: z.string(), table: z.string() });
export const appRowParams = appTableParams.extend({
  id: z.coerce.number().int().min(1, 'id must be a row Id.'),
});
export const appRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type AppRow = z.infer<typeof appRow>;

/** Messages of the role rules (the spec's where it has one). */
export const roleMessages = {
  duplicateLinks: adminMessages.duplicateLinks,
  userTwice: 'A user can be added to a role only once.',
  builtInNotDeletable: 'Built-in roles (Id 1 to 3) cannot be deleted.',
  notFound: 'That role was not found.',
  nameTaken: 'Another role already has that name.',
  unknownUser: (userId: number) => `There is no user with Id ${userId}.`,
  tableNotCovered: (tableId: string) => `The table ${tableId} is not covered by this role's links.`,
  duplicatePermission: (tableId: string) => `The table ${tableId} has more than one permission in this role.`,
  lastAdministrator: 'The Administrator role must keep its * link and at least one user.',
} as const;
