import {
  linkField,
  roleInput,
  roleMessages,
  roleName,
  tableIdField,
  type Role,
  type RoleLink,
  type RolePermission,
  type UserRole,
} from '#common/contract/admin.ts';
import { BUILT_IN_ROLE_MAX_ID } from '#common/limits.ts';
import { canonicalLink, canonicalTableId, linkMatcher } from '#common/links.ts';
import { adminMessages } from '#common/messages.ts';

/*
 * The role page's rules (spec 000 §4 "role pending changes", §5 Roles, §6), pure: a draft is a whole Role as the
 * server answers and takes it (new items carry Id 0); every change returns a new draft or the sentence why not, in
 * the words of the shared schemas (common/contract/admin.ts), so the page and the server say the same thing.
 */

/** A draft's parts that hold items, by the app store table a saved one is removed from. */
export type RolePartList = 'Role_Links' | 'Role_Permissions' | 'User_Roles';

/** A change, or why it was refused. */
export type DraftChange = { draft: Role } | { error: string };

/** A table as the coverage preview needs it (GET /api/admin/tables). */
export interface CoverableTable {
  TableId: string;
}

/** A new role (Add Role): Id 0, nothing in it yet. */
export const newRoleDraft = (): Role => ({
  Id: 0,
  Name: '',
  Role_Links: [],
  Role_Permissions: [],
  User_Roles: [],
});

/** A draft started from a saved role: a copy, so editing it never touches the cached role. */
export const draftOf = (role: Role): Role => ({
  ...role,
  Role_Links: role.Role_Links.map((link) => ({ ...link })),
  Role_Permissions: role.Role_Permissions.map((permission) => ({ ...permission })),
  User_Roles: role.User_Roles.map((user) => ({ ...user })),
});

/** Whether the Delete button shows (spec 000 §6, §9: built-in roles have Ids 1 to 3). */
export const isDeletable = (role: Pick<Role, 'Id'>) => role.Id > BUILT_IN_ROLE_MAX_ID;

/** What of a role is saved: the fields a save sends, in a form two drafts can be compared by. */
function savedShape(role: Role) {
  return {
    Id: role.Id,
    Name: role.Name,
    Role_Links: role.Role_Links.map((link) => [link.Id, link.Link]),
    Role_Permissions: role.Role_Permissions.map((p) => [
      p.Id,
      p.TableId,
      p.CanInsert,
      p.CanUpdate,
      p.CanDelete,
    ]),
    User_Roles: role.User_Roles.map((user) => [user.Id, user.UserId]),
  };
}

/** Whether the draft has pending changes (spec 000 §4): a new role (Id 0) always has, an existing one while it
 * differs from the role as saved. No draft has none. */
export function isPending(draft: Role | null, saved: Role | null): boolean {
  if (draft === null) return false;
  if (draft.Id === 0 || saved === null) return true;
  return JSON.stringify(savedShape(draft)) !== JSON.stringify(savedShape(saved));
}

/** The first message of a failed check. */
function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return result.error?.issues[0]?.message ?? adminMessages.somethingWentWrongTryAgain;
}

/** Why the name cannot be saved (roleName: required; letters, digits, spaces, _ and -), or null. */
export function nameError(name: string): string | null {
  const checked = roleName.safeParse(name);
  return checked.success ? null : firstMessage(checked);
}

/** A link as the duplicate rule compares it: canonical (so `/db/a b` and `/db/a%20b` are one), else as written. */
function comparableLink(link: string): string {
  const canonical = canonicalLink(link);
  return 'link' in canonical ? canonical.link : link.trim();
}

/** Whether two or more links are the same link (spec 000 §5: 'Some links are duplicates.'). */
export function hasDuplicateLinks(links: readonly Pick<RoleLink, 'Link'>[]): boolean {
  const seen = new Set<string>();
  for (const { Link } of links) {
    const comparable = comparableLink(Link);
    if (seen.has(comparable)) return true;
    seen.add(comparable);
  }
  return false;
}

/** Why a link cannot be added (linkField: 'Link is required.' and the link rules; duplicates), or null. */
export function newLinkError(draft: Role, text: string): string | null {
  const checked = linkField.safeParse(text);
  if (!checked.success) return firstMessage(checked);
  return hasDuplicateLinks([...draft.Role_Links, { Link: checked.data }])
    ? adminMessages.duplicateLinks
    : null;
}

/** Adds a link (as written, trimmed; the server stores it canonical). */
export function addLink(draft: Role, text: string): DraftChange {
  const error = newLinkError(draft, text);
  if (error !== null) return { error };
  const link: RoleLink = { Id: 0, RoleId: draft.Id, Link: text.trim() };
  return { draft: { ...draft, Role_Links: [...draft.Role_Links, link] } };
}

/** Changes the link at `index`, with the same rules as adding one (the others are compared with it). */
export function updateLink(draft: Role, index: number, text: string): DraftChange {
  const others = { ...draft, Role_Links: draft.Role_Links.filter((_, i) => i !== index) };
  const error = newLinkError(others, text);
  if (error !== null) return { error };
  return {
    draft: {
      ...draft,
      Role_Links: draft.Role_Links.map((link, i) => (i === index ? { ...link, Link: text.trim() } : link)),
    },
  };
}

/** The draft without the item at `index` of one of its lists. */
export function removePart(draft: Role, list: RolePartList, index: number): Role {
  switch (list) {
    case 'Role_Links':
      return { ...draft, Role_Links: draft.Role_Links.filter((_, i) => i !== index) };
    case 'Role_Permissions':
      return { ...draft, Role_Permissions: draft.Role_Permissions.filter((_, i) => i !== index) };
    case 'User_Roles':
      return { ...draft, User_Roles: draft.User_Roles.filter((_, i) => i !== index) };
  }
}

/** The role without the saved item `id` of one of its lists (after the server removed it). */
export function withoutSavedPart(role: Role, list: RolePartList, id: number): Role {
  const index = role[list].findIndex((item) => item.Id === id);
  return index < 0 ? role : removePart(role, list, index);
}

/** A TableId as permissions compare it: canonical, else as written. */
function comparableTableId(tableId: string): string {
  const canonical = canonicalTableId(tableId);
  return 'tableId' in canonical ? canonical.tableId : tableId.trim();
}

/** Whether the links allow the table's browser path /db/{TableId} (spec 000 §6: a permission's tables are those
 * its role's links cover). */
export function linksCoverTable(links: readonly string[], tableId: string): boolean {
  return coverageOf(links)(tableId);
}

/** Whether a TableId is covered by the links, the links compiled once (canonical, as the server stores them). */
export function coverageOf(links: readonly string[]): (tableId: string) => boolean {
  const matcher = linkMatcher(links.map(comparableLink));
  return (tableId) => matcher.path(`/db/${tableId}`);
}

/** The tables the links cover, in the list's order (the matcher is compiled once for all of them). */
export function coveredTables<T extends CoverableTable>(links: readonly string[], tables: readonly T[]): T[] {
  if (links.length === 0) return [];
  const covers = coverageOf(links);
  return tables.filter((table) => covers(table.TableId));
}

/** The preview of one link: "covers N tables" (spec text of the contract). */
export function coverageText(count: number): string {
  return count === 0 ? 'covers no table' : `covers ${count} table${count === 1 ? '' : 's'}`;
}

/** Why a permission cannot be applied (tableIdField: 'Table is required.'; not covered; twice), or null. `index`
 * is the permission being changed (null for a new one). */
export function permissionError(
  draft: Role,
  permission: RolePermission,
  index: number | null,
): string | null {
  const checked = tableIdField.safeParse(permission.TableId);
  if (!checked.success) return firstMessage(checked);
  const tableId = comparableTableId(checked.data);
  if (!linksCoverTable(draftLinks(draft), tableId)) return roleMessages.tableNotCovered(tableId);
  const twice = draft.Role_Permissions.some(
    (other, i) => i !== index && comparableTableId(other.TableId) === tableId,
  );
  return twice ? roleMessages.duplicatePermission(tableId) : null;
}

/** Adds a permission (index null) or changes the one at `index`. */
export function applyPermission(
  draft: Role,
  permission: Omit<RolePermission, 'Id' | 'RoleId'>,
  index: number | null,
): DraftChange {
  const current = index === null ? undefined : draft.Role_Permissions[index];
  const next: RolePermission = {
    ...permission,
    TableId: permission.TableId.trim(),
    Id: current?.Id ?? 0,
    RoleId: draft.Id,
  };
  const error = permissionError(draft, next, index);
  if (error !== null) return { error };
  const permissions =
    index === null
      ? [...draft.Role_Permissions, next]
      : draft.Role_Permissions.map((p, i) => (i === index ? next : p));
  return { draft: { ...draft, Role_Permissions: permissions } };
}

/** A user who can be added: their Id and username (the list shows the name). */
export interface UserChoice {
  UserId: number;
  Username: string;
}

/** Adds a user ('User is required.'; a user only once: roleMessages.userTwice). */
export function addUser(draft: Role, user: UserChoice | null): DraftChange {
  if (user === null || user.UserId < 1) return { error: 'User is required.' };
  if (draft.User_Roles.some((existing) => existing.UserId === user.UserId))
    return { error: roleMessages.userTwice };
  const added: UserRole = { Id: 0, RoleId: draft.Id, UserId: user.UserId, Username: user.Username };
  return { draft: { ...draft, User_Roles: [...draft.User_Roles, added] } };
}

/** The draft's link texts. */
export const draftLinks = (draft: Role): string[] => draft.Role_Links.map((link) => link.Link);

/** Where a role's problem is shown. */
export interface RoleProblems {
  name?: string;
  links?: string;
  permissions?: string;
  users?: string;
}

/** Every rule a save checks first (the server checks them again): the name, the links (linkField, duplicates, at
 * most ROLE_MAX_LINKS), the permissions' tables (tableIdField, covered by the links, once each), the users once
 * each. No problem: an empty object. */
export function roleProblems(draft: Role): RoleProblems {
  const problems: RoleProblems = {};
  const name = nameError(draft.Name);
  if (name !== null) problems.name = name;

  const checked = roleInput.safeParse(draft);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const list = issue.path[0];
      if (list === 'Role_Links') problems.links ??= issue.message;
      else if (list === 'Role_Permissions') problems.permissions ??= issue.message;
      else if (list === 'User_Roles') problems.users ??= issue.message;
    }
  }
  if (problems.links === undefined && hasDuplicateLinks(draft.Role_Links))
    problems.links = adminMessages.duplicateLinks;

  if (problems.permissions === undefined) {
    const covers = coverageOf(draftLinks(draft));
    const seen = new Set<string>();
    for (const permission of draft.Role_Permissions) {
      const tableId = comparableTableId(permission.TableId);
      if (!covers(tableId)) {
        problems.permissions = roleMessages.tableNotCovered(tableId);
        break;
      }
      if (seen.has(tableId)) {
        problems.permissions = roleMessages.duplicatePermission(tableId);
        break;
      }
      seen.add(tableId);
    }
  }
  if (problems.users === undefined) {
    const ids = draft.User_Roles.map((user) => user.UserId);
    if (new Set(ids).size !== ids.length) problems.users = roleMessages.userTwice;
  }
  return problems;
}

/** The body of a save (POST /api/admin/roles, roleInput): the whole role, links and TableIds trimmed, the name
 * trimmed; null when a rule refuses it (roleProblems says which). */
export function roleToSave(draft: Role): Role | null {
  if (Object.keys(roleProblems(draft)).length > 0) return null;
  const checked = roleInput.safeParse(draft);
  return checked.success ? checked.data : null;
}
