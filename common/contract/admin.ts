import { z } from 'zod';
import { adminMessages } from '#common/messages.ts';
import { ADMIN_PAGE_SIZE, LINK_MAX_LENGTH, LINK_MAX_SEGMENTS, ROLE_MAX_LINKS } from '#common/limits.ts';
import { healthResponse } from './health.ts';
import { canonicalLink, canonicalTableId, type LinkProblem, type TableIdProblem } from '#common/links.ts';

/*
 * The administration API (issue 5): roles with their links, per-table permissions and users, exactly as the spec's
 * entities name them (new items carry Id 0), and the paged user and role lists.
 */

const id = z.number().int().min(0);

/** An instant in a query or body: ISO-8601 with Z or an offset. */
const instantOf = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO instant such as 2026-11-21T10:00:00Z.` });

/** Messages of the role rules (the spec's where it has one); the web form shows the same words. */
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
  tooManyLinks: `A role can have at most ${ROLE_MAX_LINKS} links.`,
  /** Why a link cannot be saved (common/links.ts canonicalLink). */
  link: {
    start: 'A link is * or a path that starts with /, such as /db/shop/*.',
    star: 'A * can only stand alone at the end of a link, such as /db/shop/*. For a name that contains *, write %2A.',
    percent:
      'A link has a % that does not start a valid escape such as %2F. For a name that contains %, write %25.',
    length: `A link can be at most ${LINK_MAX_LENGTH.toLocaleString('en')} characters, names written percent-encoded.`,
    segments: `A link can have at most ${LINK_MAX_SEGMENTS} parts between slashes, such as /db/shop/public/orders.`,
  } satisfies Record<LinkProblem, string>,
  /** Why a permission's table cannot be saved (common/links.ts canonicalTableId). */
  tableId: {
    tableId:
      'A table is a TableId {db}/{schema}/{table} from the table list, with a / inside a name written %2F.',
    percent:
      'A table has a % that does not start a valid escape such as %2F. For a name that contains %, write %25.',
    length: `A table can be at most ${LINK_MAX_LENGTH.toLocaleString('en')} characters, names written percent-encoded.`,
  } satisfies Record<TableIdProblem, string>,
} as const;

/** A link as an administrator writes it: `*`, or a path whose last segment may be `*`. The server stores it
 * canonical (each segment percent-encoded once; docs/decisions/0015-link-segments.md). */
export const linkField = z
  .string()
  .trim()
  .min(1, 'Link is required.')
  .superRefine((link, context) => {
    const checked = canonicalLink(link);
    if ('problem' in checked)
      context.addIssue({ code: 'custom', message: roleMessages.link[checked.problem] });
  })
  .describe('* or /path with names percent-encoded, its last segment * for "and everything below"');

/** A permission's table as an administrator picks it: a TableId of GET /api/admin/tables. */
export const tableIdField = z
  .string()
  .trim()
  .min(1, 'Table is required.')
  .superRefine((tableId, context) => {
    const checked = canonicalTableId(tableId);
    if ('problem' in checked)
      context.addIssue({ code: 'custom', message: roleMessages.tableId[checked.problem] });
  })
  .describe('"{db}/{schema}/{table}", each name percent-encoded (GET /api/admin/tables)');

/** A role link as answered (stored links of an older version may break today's rules, so no rule here). */
export const roleLink = z.object({ Id: id, RoleId: id, Link: z.string() });
export type RoleLink = z.infer<typeof roleLink>;

export const rolePermission = z.object({
  Id: id,
  RoleId: id.optional(),
  TableId: z.string().describe('"{db}/{schema}/{table}", each name percent-encoded (GET /api/admin/tables)'),
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

/** A role as saved (POST /api/admin/roles): the same shape, with the rules of links and tables applied. */
export const roleInput = role.extend({
  Role_Links: z.array(roleLink.extend({ Link: linkField })).max(ROLE_MAX_LINKS, roleMessages.tooManyLinks),
  Role_Permissions: z.array(rolePermission.extend({ TableId: tableIdField })),
});

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
  isLocked: z.boolean().describe('lockedUntil is in the future: every sign-in is refused until then'),
  lastSignInAt: z.string().nullable().describe('The last completed sign-in (audit), null when never'),
  twoFactor: z
    .array(z.enum(['Email', 'Phone', 'Totp', 'Passkey']))
    .describe('The verified second factors, in the spec order, Passkey when the account has one'),
});
export type AdminUser = z.infer<typeof adminUser>;

/** One user as their administration page shows them: the list's fields and what the actions change. */
export const adminUserDetail = adminUser.extend({
  preferred2fa: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.number().int(),
  activeSessions: z.number().int().describe('Sessions not ended and not expired'),
  failedChecks: z.number().int().describe('Failed password or code checks in a row (5 lock the account)'),
});
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

export const userIdParams = z.object({ id: z.coerce.number().int().min(1, 'id must be a user Id.') });

/** POST /api/admin/users/{id}/roles: the user's roles, as a whole (added and removed to match). */
export const userRolesInput = z.object({
  roleIds: z
    .array(z.number().int().min(1, 'A role is a role Id.'))
    .max(ROLE_MAX_LINKS, `A user can have at most ${ROLE_MAX_LINKS} roles.`),
});
export type UserRolesInput = z.infer<typeof userRolesInput>;

/** POST /api/admin/users/{id}/lock: until an instant, or without one until unlocked. */
export const lockInput = z.object({
  until: instantOf('until')
    .nullable()
    .optional()
    .describe('Absent or null: locked until an administrator unlocks'),
});
export type LockInput = z.infer<typeof lockInput>;

/** The sentences of the user actions (their toasts). */
export const userMessages = {
  notFound: 'That user was not found.',
  rolesSaved: 'Successfully updated user roles.',
  locked: 'The user is locked: their sessions have ended and every sign-in is refused.',
  unlocked: 'The user is unlocked and can sign in again.',
  secondFactorReset:
    'Their second factors are reset: app, phone and passkeys removed, recovery codes cleared; they sign in with an emailed code.',
  sessionsEnded: (count: number) => `Ended ${count} session${count === 1 ? '' : 's'}.`,
  notYourself: 'You cannot lock yourself or end your own sessions here: use My Account or Logout.',
  lockInPast: 'until must be in the future.',
  unknownRole: (roleId: number) => `There is no role with Id ${roleId}.`,
} as const;

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
    from: instantOf('from').optional().describe('Entries at or after this instant'),
    to: instantOf('to').optional().describe('Entries before this instant'),
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
  state: z
    .enum(['done', 'pending', 'uncertain'])
    .describe(
      'done: the change happened. pending: a data change still being made, or not yet checked against its row after ' +
        'a crash (it is not known to have happened). uncertain: the check could not tell; `detail.unresolved` says why',
    ),
});
export type AuditEntryView = z.infer<typeof auditEntry>;
export const pagedAudit = z.object({ results: z.array(auditEntry), count: z.number().int() });

export const auditEntryId = z.object({
  id: z.coerce.number().int().min(1, 'id must be an audit entry Id.'),
});

/** Rows of a bulk change a page of its row list holds at most (GET /api/admin/audit/{id}/rows). */
export const AUDIT_ROWS_MAX_LIMIT = 500;

/** GET /api/admin/audit/{id}/rows: where the page starts and how many rows it holds. */
export const auditRowsQuery = z.object({
  offset: z.coerce
    .number()
    .int()
    .min(0, 'offset must be a whole number from 0.')
    .default(0)
    .describe('Rows to skip, in key order'),
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be a whole number from 1.')
    .max(AUDIT_ROWS_MAX_LIMIT, `limit can be at most ${AUDIT_ROWS_MAX_LIMIT}.`)
    .default(100)
    .describe(`Rows in the page, at most ${AUDIT_ROWS_MAX_LIMIT}`),
});
export type AuditRowsQuery = z.infer<typeof auditRowsQuery>;

/** A row as the audit stored it: hidden columns left out, binary values shortened to their length and SHA-256. */
const auditedRow = z.record(z.string(), z.unknown());

export const auditRowChange = z.object({
  key: auditedRow.describe('The row’s key (identity, guid or primary key)'),
  before: auditedRow.nullable().describe('The row before the change (null: it did not exist)'),
  after: auditedRow.nullable().describe('The row after the change (null: deleted)'),
});
export type AuditRowChange = z.infer<typeof auditRowChange>;

/** The rows a bulk change (data.bulk) or its undo changed, a page at a time. */
export const auditRows = z.object({
  rows: z.array(auditRowChange).describe('In key order (the order the change took them)'),
  total: z.number().int().describe('Rows the entry holds (its finished batches)'),
  nextOffset: z.number().int().nullable().describe('The offset of the next page; null on the last'),
});
export type AuditRows = z.infer<typeof auditRows>;

export const auditRowsMessages = {
  noRowList: (id: number, action: string) =>
    `Entry ${id} (${action}) is not a bulk change, so it has no row list: its detail holds what it changed.`,
};

/** What an undo did (shared with the data API's row history undo: contract/sql.ts). */
export { undoResult, type UndoResult } from './sql.ts';

/** The app store's tables the generic admin data calls edit (GET/POST api/admin/app/main/{table}…). */
export const appTableParams = z.object({ db: z.string(), schema: z.string(), table: z.string() });
export const appRowParams = appTableParams.extend({
  id: z.coerce.number().int().min(1, 'id must be a row Id.'),
});
export const appRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type AppRow = z.infer<typeof appRow>;

/** GET /api/admin/overview: the administrator's start page (/admin/home). */
export const adminOverview = z.object({
  users: z.number().int(),
  administrators: z.number().int(),
  lockedUsers: z.number().int(),
  activeSessions: z.number().int(),
  roles: z.number().int(),
  health: healthResponse,
  signInFailures24h: z
    .number()
    .int()
    .describe('Failed password, code and passkey checks in the last 24 hours'),
  lockouts24h: z.number().int(),
  changes24h: z.number().int().describe('Data changes (insert, update, delete, undo) in the last 24 hours'),
  recentFailures: z.array(auditEntry).describe('The newest 10 failed checks, refusals and lockouts'),
  recentChanges: z.array(auditEntry).describe('The newest 10 data changes'),
});
export type AdminOverview = z.infer<typeof adminOverview>;
