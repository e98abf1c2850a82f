import { describe, expect, it } from 'vitest';
import { roleMessages, type Role } from '#common/contract/admin.ts';
import { adminMessages } from '#common/messages.ts';
import {
  addLink,
  addUser,
  applyPermission,
  coverageText,
  coveredTables,
  draftOf,
  hasDuplicateLinks,
  isDeletable,
  isPending,
  linksCoverTable,
  nameError,
  newLinkError,
  newRoleDraft,
  permissionError,
  removePart,
  roleProblems,
  roleToSave,
  updateLink,
  withoutSavedPart,
} from './role-draft.ts';

const saved: Role = {
  Id: 4,
  Name: 'Readers',
  Role_Links: [
    { Id: 10, RoleId: 4, Link: '/db/chinook/*' },
    { Id: 11, RoleId: 4, Link: '/account' },
  ],
  Role_Permissions: [
    { Id: 20, RoleId: 4, TableId: 'chinook/main/Album', CanInsert: true, CanUpdate: false, CanDelete: false },
  ],
  User_Roles: [{ Id: 30, RoleId: 4, UserId: 7, Username: 'ada' }],
};

const tables = [
  { TableId: 'chinook/main/Album' },
  { TableId: 'chinook/main/Artist' },
  { TableId: 'shop/public/orders' },
  { TableId: 'shop/public/order%20lines' },
];

const changed = (result: { draft: Role } | { error: string }): Role => {
  if ('error' in result) throw new Error(`refused: ${result.error}`);
  return result.draft;
};
const refusal = (result: { draft: Role } | { error: string }): string =>
  'error' in result ? result.error : 'accepted';

describe('pending changes', () => {
  it('a draft started from the saved role has none, and a copy never touches the saved role', () => {
    const draft = draftOf(saved);
    expect(isPending(draft, saved)).toBe(false);
    draft.Role_Links[0]!.Link = '/db/other/*';
    expect(saved.Role_Links[0]!.Link).toBe('/db/chinook/*');
  });

  it('any change to the name, a link, a permission or the users is pending; undoing it is not', () => {
    const draft = draftOf(saved);
    expect(isPending({ ...draft, Name: 'Readers 2' }, saved)).toBe(true);
    expect(isPending(changed(addLink(draft, '/db/shop/*')), saved)).toBe(true);
    expect(isPending(removePart(draft, 'User_Roles', 0), saved)).toBe(true);
    const flipped = changed(
      applyPermission(
        draft,
        { TableId: 'chinook/main/Album', CanInsert: true, CanUpdate: true, CanDelete: false },
        0,
      ),
    );
    expect(isPending(flipped, saved)).toBe(true);
    expect(isPending({ ...draft, Name: 'Readers' }, saved)).toBe(false);
  });

  it('a new role (Id 0) is pending from the start; no draft is not', () => {
    expect(isPending(newRoleDraft(), null)).toBe(true);
    expect(isPending(null, null)).toBe(false);
    expect(isPending(null, saved)).toBe(false);
  });

  it('answered-only fields (usernames, IsAdmin) do not make a change', () => {
    const draft = draftOf({ ...saved, IsAdmin: false });
    draft.User_Roles[0] = { ...draft.User_Roles[0]!, Username: undefined };
    expect(isPending(draft, saved)).toBe(false);
  });
});

describe('links', () => {
  it('requires a link and checks it with the shared linkField rule', () => {
    const draft = draftOf(saved);
    expect(refusal(addLink(draft, '   '))).toBe('Link is required.');
    expect(refusal(addLink(draft, 'db/shop'))).toBe(roleMessages.link.start);
    expect(refusal(addLink(draft, '/db/sh*p'))).toBe(roleMessages.link.star);
    expect(refusal(addLink(draft, '/db/%zz'))).toBe(roleMessages.link.percent);
  });

  it('refuses a duplicate, compared canonical: a trailing slash, a space and %20 are the same link', () => {
    const draft = changed(addLink(draftOf(saved), '/db/shop/order lines'));
    expect(refusal(addLink(draft, '/db/chinook/*'))).toBe(adminMessages.duplicateLinks);
    expect(refusal(addLink(draft, ' /account/ '))).toBe(adminMessages.duplicateLinks);
    expect(refusal(addLink(draft, '/db/shop/order%20lines'))).toBe(adminMessages.duplicateLinks);
    expect(newLinkError(draft, '/db/shop/*')).toBeNull();
    expect(hasDuplicateLinks([{ Link: '/a/b' }, { Link: '/a/b/' }])).toBe(true);
    expect(hasDuplicateLinks([{ Link: '/a/b' }, { Link: '/a/B' }])).toBe(false);
  });

  it('adds a new link with Id 0, trimmed; updating one compares it with the others only', () => {
    const draft = changed(addLink(draftOf(saved), '  /db/shop/*  '));
    expect(draft.Role_Links.at(-1)).toEqual({ Id: 0, RoleId: 4, Link: '/db/shop/*' });
    expect(changed(updateLink(draft, 0, '/db/chinook/*')).Role_Links[0]!.Link).toBe('/db/chinook/*');
    expect(refusal(updateLink(draft, 0, '/account'))).toBe(adminMessages.duplicateLinks);
    expect(refusal(updateLink(draft, 0, ''))).toBe('Link is required.');
  });

  it('removes by position, and a saved item by its Id', () => {
    expect(removePart(draftOf(saved), 'Role_Links', 0).Role_Links.map((l) => l.Link)).toEqual(['/account']);
    expect(withoutSavedPart(saved, 'Role_Permissions', 20).Role_Permissions).toEqual([]);
    expect(withoutSavedPart(saved, 'User_Roles', 999)).toBe(saved);
  });
});

describe('coverage', () => {
  it('a link covers the tables whose browser path /db/{TableId} it allows', () => {
    expect(coveredTables(['/db/chinook/*'], tables).map((t) => t.TableId)).toEqual([
      'chinook/main/Album',
      'chinook/main/Artist',
    ]);
    expect(coveredTables(['*'], tables)).toHaveLength(4);
    expect(coveredTables(['/db/shop/public/orders'], tables).map((t) => t.TableId)).toEqual([
      'shop/public/orders',
    ]);
    expect(coveredTables(['/account', '/db/nothing/*'], tables)).toEqual([]);
    expect(coveredTables([], tables)).toEqual([]);
  });

  it('compares names canonically: a space in a link covers a %20 in a TableId', () => {
    expect(coveredTables(['/db/shop/public/order lines'], tables).map((t) => t.TableId)).toEqual([
      'shop/public/order%20lines',
    ]);
    expect(linksCoverTable(['/db/shop/public/*'], 'shop/public/order%20lines')).toBe(true);
    expect(linksCoverTable(['/db/shop/private/*'], 'shop/public/orders')).toBe(false);
  });

  it('says how many: covers no table, 1 table, N tables', () => {
    expect(coverageText(0)).toBe('covers no table');
    expect(coverageText(1)).toBe('covers 1 table');
    expect(coverageText(12)).toBe('covers 12 tables');
  });
});

describe('permissions', () => {
  const permission = { TableId: 'chinook/main/Artist', CanInsert: false, CanUpdate: true, CanDelete: true };

  it('requires a table (tableIdField) covered by the links, once per role', () => {
    const draft = draftOf(saved);
    expect(refusal(applyPermission(draft, { ...permission, TableId: '' }, null))).toBe('Table is required.');
    expect(refusal(applyPermission(draft, { ...permission, TableId: 'chinook/Artist' }, null))).toBe(
      roleMessages.tableId.tableId,
    );
    expect(refusal(applyPermission(draft, { ...permission, TableId: 'shop/public/orders' }, null))).toBe(
      roleMessages.tableNotCovered('shop/public/orders'),
    );
    expect(refusal(applyPermission(draft, { ...permission, TableId: 'chinook/main/Album' }, null))).toBe(
      roleMessages.duplicatePermission('chinook/main/Album'),
    );
  });

  it('adds a new one with Id 0 and changes one in place, keeping its Id', () => {
    const added = changed(applyPermission(draftOf(saved), permission, null));
    expect(added.Role_Permissions.at(-1)).toEqual({ ...permission, Id: 0, RoleId: 4 });
    const edited = changed(
      applyPermission(added, { ...permission, TableId: 'chinook/main/Album', CanDelete: false }, 0),
    );
    expect(edited.Role_Permissions[0]).toMatchObject({
      Id: 20,
      TableId: 'chinook/main/Album',
      CanUpdate: true,
    });
    expect(permissionError(edited, edited.Role_Permissions[0]!, 0)).toBeNull();
  });
});

describe('users', () => {
  it('requires a user and takes each one once', () => {
    const draft = draftOf(saved);
    expect(refusal(addUser(draft, null))).toBe('User is required.');
    expect(refusal(addUser(draft, { UserId: 7, Username: 'ada' }))).toBe(roleMessages.userTwice);
    expect(changed(addUser(draft, { UserId: 8, Username: 'grace' })).User_Roles.at(-1)).toEqual({
      Id: 0,
      RoleId: 4,
      UserId: 8,
      Username: 'grace',
    });
  });
});

describe('the name and the whole role', () => {
  it('the name rule of the shared roleName schema', () => {
    expect(nameError('')).toBe('Role name is required.');
    expect(nameError('   ')).toBe('Role name is required.');
    expect(nameError('Readers!')).toBe('Role name may use only letters, digits, spaces, _ and -.');
    expect(nameError('x'.repeat(101))).toBe('Role name cannot be more than 100 characters.');
    expect(nameError('Data readers_2-b')).toBeNull();
  });

  it('a save finds every broken rule, each where it is shown', () => {
    const broken: Role = {
      ...draftOf(saved),
      Name: '',
      Role_Links: [
        { Id: 0, RoleId: 4, Link: '/db/shop/*' },
        { Id: 0, RoleId: 4, Link: '/db/shop/*/' },
      ],
      User_Roles: [
        { Id: 0, RoleId: 4, UserId: 7 },
        { Id: 0, RoleId: 4, UserId: 7 },
      ],
    };
    expect(roleProblems(broken)).toEqual({
      name: 'Role name is required.',
      links: adminMessages.duplicateLinks,
      permissions: roleMessages.tableNotCovered('chinook/main/Album'),
      users: roleMessages.userTwice,
    });
    expect(roleToSave(broken)).toBeNull();
    expect(roleProblems({ ...broken, Role_Links: [{ Id: 0, RoleId: 4, Link: 'x' }] }).links).toBe(
      roleMessages.link.start,
    );
  });

  it('a sound role saves whole, trimmed', () => {
    const draft = { ...changed(addLink(draftOf(saved), '/db/shop/*')), Name: ' Readers ' };
    expect(roleProblems(draft)).toEqual({});
    expect(roleToSave(draft)).toMatchObject({ Id: 4, Name: 'Readers', Role_Links: draft.Role_Links });
  });

  it('only roles above Id 3 can be deleted', () => {
    expect([1, 2, 3, 4, 0].map((Id) => isDeletable({ Id }))).toEqual([false, false, false, true, false]);
  });
});
