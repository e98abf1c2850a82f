import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import type { Role, RoleSummary } from '#common/contract/admin.ts';
import { adminMessages } from '#common/messages.ts';
import { RolesPage } from './roles-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

// A page with a router, lists and forms is slow to render in jsdom on a shared machine.

// The admin frame (menu and title) has its own tests; here it only has to hold the page.
vi.mock('#web/features/admin/admin-frame.tsx', () => ({
  AdminFrame: ({ title, children }: { title: string; children: ReactNode }) => (
    <main>
      <h1>{title}</h1>
      {children}
    </main>
  ),
}));

const api = fakeApi();
const fetchMock = api.fetch;
let roles: Record<number, Role>;

const role = (Id: number, Name: string, links: string[], users: [number, string][] = []): Role => ({
  Id,
  Name,
  IsAdmin: Id === 1,
  IsBuiltIn: Id <= 3,
  Role_Links: links.map((Link, i) => ({ Id: Id * 10 + i, RoleId: Id, Link })),
  Role_Permissions: [],
  User_Roles: users.map(([UserId, Username], i) => ({ Id: Id * 100 + i, RoleId: Id, UserId, Username })),
});

const summary = (r: Role): RoleSummary => ({
  Id: r.Id,
  Name: r.Name,
  IsAdmin: r.IsAdmin ?? false,
  IsBuiltIn: r.IsBuiltIn ?? false,
  Links: r.Role_Links.length,
  Users: r.User_Roles.length,
});

/** The calls made, as "METHOD /path". */
const calls = () =>
  fetchMock.mock.calls.map(
    ([url, init]) => `${init.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}`,
  );
const bodyOf = (call: string): unknown => {
  const found = fetchMock.mock.calls.find(
    ([url, init]) => `${init.method ?? 'GET'} ${new URL(url, 'http://localhost').pathname}` === call,
  );
  return found && typeof found[1].body === 'string' ? JSON.parse(found[1].body) : undefined;
};

function renderRoles(at = '/admin/roles') {
  window.history.replaceState(null, '', at);
  return renderPage(<RolesPage />, { at, path: '/admin/roles' }).router;
}

const roleList = () => screen.getByRole('list', { name: 'Roles' });
const roleButton = (name: string) =>
  within(roleList()).getByRole('button', { name: new RegExp(`^${name}\\b`) });
const card = () => screen.getByRole('region', { name: 'Role details' });
const nameBox = () => within(card()).getByRole('textbox', { name: /Role name/ });
const toast = (message: string) => screen.findByText(message);

async function openRole(router: ReturnType<typeof renderRoles>, name: string) {
  fireEvent.click(
    await within(await screen.findByRole('list', { name: 'Roles' })).findByRole('button', {
      name: new RegExp(`^${name}\\b`),
    }),
  );
  await waitFor(() => expect((nameBox() as HTMLInputElement).value).toBe(name));
  return router;
}

beforeEach(() => {
  notifications.clean();
  roles = {
    1: role(1, 'Administrator', ['*'], [[1, 'admin']]),
    2: role(2, 'Everyone', ['/account']),
    3: role(3, 'Readers', ['/db/*']),
    4: role(4, 'Shop', ['/db/shop/*', '/account'], [[7, 'ada']]),
    5: role(5, 'Auditors', ['/db/chinook/*']),
  };
  api.on('GET', '/api/admin/roles', () => {
    const results = Object.values(roles).map(summary);
    return ok({ results, count: results.length });
  });
  api.on('GET', '/api/admin/roles/:id', (request) => {
    const found = roles[Number(request.params.id)];
    return found ? ok(found) : fail(404, 'That role was not found.');
  });
  api.on(
    'GET',
    '/api/admin/tables',
    ok([
      { TableId: 'shop/public/orders', database: 'shop', schema: 'public', name: 'orders', isView: false },
      { TableId: 'shop/public/items', database: 'shop', schema: 'public', name: 'items', isView: false },
      { TableId: 'chinook/main/Album', database: 'chinook', schema: 'main', name: 'Album', isView: false },
    ]),
  );
  api.on('POST', '/api/admin/roles', (request) => {
    const sent = request.body as Role;
    const savedRole: Role = {
      ...sent,
      Id: sent.Id || 6,
      Role_Links: sent.Role_Links.map((link, i) => ({ ...link, Id: link.Id || 900 + i })),
    };
    roles[savedRole.Id] = savedRole;
    return ok(savedRole, 'Successfully updated role.');
  });
  api.on('DELETE', '/api/admin/roles/:id', (request) => {
    const gone = Number(request.params.id);
    roles = Object.fromEntries(Object.entries(roles).filter(([id]) => Number(id) !== gone));
    return ok(null, 'Successfully deleted role.');
  });
  api.on('POST', '/api/admin/app/main/role_links/delete', (request) => {
    const { id } = request.body as { id: number };
    for (const r of Object.values(roles)) r.Role_Links = r.Role_Links.filter((link) => link.Id !== id);
    return ok({ id }, 'Successfully deleted row.');
  });
  api.on('POST', '/api/admin/app/main/user_roles/delete', (request) =>
    ok(request.body, 'Successfully deleted row.'),
  );
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('the roles page', () => {
  it('lists the roles with their badges and keeps the selected role in the address', async () => {
    const router = renderRoles();
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(within(list).getByRole('button', { name: 'Shop 2 links 1 user' })).toBeTruthy();
    expect(
      within(list).getByRole('button', { name: 'Administrator Built-in Admin 1 link 1 user' }),
    ).toBeTruthy();
    expect(within(card()).getByText(/Choose a role from the list/)).toBeTruthy();

    await openRole(router, 'Shop');
    expect(window.location.search).toBe('?id=4');
    expect(roleButton('Shop').getAttribute('aria-current')).toBe('true');
    const links = within(card()).getByRole('list', { name: 'Links' });
    expect(within(links).getByText('/db/shop/*')).toBeTruthy();
    expect(await within(links).findByText('covers 2 tables')).toBeTruthy();
    expect(within(links).getByText('covers no table')).toBeTruthy();
    fireEvent.click(within(links).getByRole('button', { name: 'Show tables for /db/shop/*' }));
    expect(await within(links).findByText('shop · public.orders')).toBeTruthy();
    expect(within(within(card()).getByRole('list', { name: 'Users' })).getByText('ada')).toBeTruthy();
  });

  it('opens the role named in the address (a reload keeps it)', async () => {
    renderRoles('/admin/roles?id=5');
    await waitFor(() => expect((nameBox() as HTMLInputElement).value).toBe('Auditors'));
    expect(roleButton('Auditors').getAttribute('aria-current')).toBe('true');
  });

  it('shows Delete only for roles above Id 3', async () => {
    const router = renderRoles();
    await openRole(router, 'Readers');
    expect(within(card()).queryByRole('button', { name: 'Delete' })).toBeNull();
    await openRole(router, 'Shop');
    expect(within(card()).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('with pending changes refuses another role, Add Role and Delete; Discard restores the saved role', async () => {
    await openRole(renderRoles(), 'Shop');
    expect(within(card()).queryByRole('status')).toBeNull();
    fireEvent.change(nameBox(), { target: { value: 'Shop staff' } });
    expect(within(card()).getByRole('status').textContent).toBe('You have pending changes... ');

    fireEvent.click(roleButton('Auditors'));
    expect(await toast(adminMessages.cannotHavePendingChanges)).toBeTruthy();
    expect(window.location.search).toBe('?id=4');
    expect((nameBox() as HTMLInputElement).value).toBe('Shop staff');

    notifications.clean();
    fireEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(await toast(adminMessages.cannotHavePendingChanges)).toBeTruthy();
    expect((nameBox() as HTMLInputElement).value).toBe('Shop staff');

    notifications.clean();
    fireEvent.click(within(card()).getByRole('button', { name: 'Delete' }));
    expect(await toast(adminMessages.cannotHavePendingChanges)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Delete Role Confirmation' })).toBeNull();

    fireEvent.click(within(card()).getByRole('button', { name: 'Discard' }));
    expect((nameBox() as HTMLInputElement).value).toBe('Shop');
    expect(within(card()).queryByRole('status')).toBeNull();
    fireEvent.click(roleButton('Auditors'));
    await waitFor(() => expect((nameBox() as HTMLInputElement).value).toBe('Auditors'));
    expect(window.location.search).toBe('?id=5');
  });

  it('a new role is pending until saved; Discard drops it', async () => {
    renderRoles();
    fireEvent.click(await screen.findByRole('button', { name: 'Add Role' }));
    expect(within(card()).getByText('New role')).toBeTruthy();
    expect(within(card()).getByRole('status')).toBeTruthy();
    fireEvent.click(roleButton('Shop'));
    expect(await toast(adminMessages.cannotHavePendingChanges)).toBeTruthy();
    fireEvent.click(within(card()).getByRole('button', { name: 'Discard' }));
    expect(within(card()).getByText(/Choose a role from the list/)).toBeTruthy();
    expect(window.location.search).toBe('');
  });

  it('checks links before adding them: required, the link rule, duplicates', async () => {
    await openRole(renderRoles(), 'Shop');
    const newLink = within(card()).getByRole('textbox', { name: /New link/ });
    const addLink = within(card()).getByRole('button', { name: 'Add link' });
    fireEvent.click(addLink);
    expect(await within(card()).findByText('Link is required.')).toBeTruthy();
    fireEvent.change(newLink, { target: { value: '/db/shop/*/' } });
    fireEvent.click(addLink);
    expect(await within(card()).findByText(adminMessages.duplicateLinks)).toBeTruthy();
    fireEvent.change(newLink, { target: { value: '/db/chinook/*' } });
    fireEvent.click(addLink);
    const links = within(card()).getByRole('list', { name: 'Links' });
    expect(await within(links).findByText('/db/chinook/*')).toBeTruthy();
    expect(within(card()).getByRole('status')).toBeTruthy();
  });

  it('saves the whole role and toasts the server’s message; a refusal toasts it in red and keeps the draft', async () => {
    await openRole(renderRoles(), 'Shop');
    fireEvent.change(nameBox(), { target: { value: 'Shop staff' } });
    fireEvent.click(within(card()).getByRole('button', { name: 'Save' }));
    expect(await toast('Successfully updated role.')).toBeTruthy();
    expect(bodyOf('POST /api/admin/roles')).toMatchObject({
      Id: 4,
      Name: 'Shop staff',
      Role_Links: [{ Id: 40, Link: '/db/shop/*' }, { Id: 41 }],
      User_Roles: [{ Id: 400, UserId: 7 }],
    });
    await waitFor(() => expect(within(card()).queryByRole('status')).toBeNull());

    api.on(
      'POST',
      '/api/admin/roles',
      fail(400, 'The Administrator role must keep its * link and at least one user.'),
    );
    fireEvent.change(nameBox(), { target: { value: 'Shop people' } });
    fireEvent.click(within(card()).getByRole('button', { name: 'Save' }));
    expect(await toast('The Administrator role must keep its * link and at least one user.')).toBeTruthy();
    expect((nameBox() as HTMLInputElement).value).toBe('Shop people');
    expect(within(card()).getByRole('status')).toBeTruthy();
  });

  it('refuses to save a role whose name breaks the rule, saying why', async () => {
    await openRole(renderRoles(), 'Shop');
    fireEvent.change(nameBox(), { target: { value: 'Shop!' } });
    expect(
      await within(card()).findAllByText('Role name may use only letters, digits, spaces, _ and -.'),
    ).not.toHaveLength(0);
    fireEvent.click(within(card()).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        screen.getAllByText('Role name may use only letters, digits, spaces, _ and -.').length,
      ).toBeGreaterThan(1),
    );
    expect(calls()).not.toContain('POST /api/admin/roles');
  });

  it('removes a saved link on the server at once; an unsaved one only from the draft; none while changes are pending', async () => {
    await openRole(renderRoles(), 'Shop');
    const links = () => within(card()).getByRole('list', { name: 'Links' });
    fireEvent.click(within(links()).getByRole('button', { name: 'Remove link /account' }));
    expect(await toast(adminMessages.linkRemoved)).toBeTruthy();
    expect(bodyOf('POST /api/admin/app/main/role_links/delete')).toEqual({ id: 41 });
    await waitFor(() => expect(within(links()).queryByText('/account')).toBeNull());
    expect(within(card()).queryByRole('status')).toBeNull();

    // An unsaved link goes from the draft without a call.
    fireEvent.change(within(card()).getByRole('textbox', { name: /New link/ }), {
      target: { value: '/db/x/*' },
    });
    fireEvent.click(within(card()).getByRole('button', { name: 'Add link' }));
    fireEvent.click(await within(links()).findByRole('button', { name: 'Remove link /db/x/*' }));
    expect(within(links()).queryByText('/db/x/*')).toBeNull();
    expect(calls().filter((call) => call.endsWith('/delete'))).toHaveLength(1);

    // A saved one while something else is pending is refused.
    notifications.clean();
    fireEvent.change(nameBox(), { target: { value: 'Shop staff' } });
    fireEvent.click(within(links()).getByRole('button', { name: 'Remove link /db/shop/*' }));
    expect(await toast(adminMessages.cannotHavePendingChanges)).toBeTruthy();
    expect(calls().filter((call) => call.endsWith('/delete'))).toHaveLength(1);
  });

  it('removes a saved user with the user-role toast', async () => {
    await openRole(renderRoles(), 'Shop');
    fireEvent.click(within(card()).getByRole('button', { name: 'Remove user ada' }));
    expect(await toast(adminMessages.userRoleRemoved)).toBeTruthy();
    expect(bodyOf('POST /api/admin/app/main/user_roles/delete')).toEqual({ id: 400 });
    expect(within(card()).queryByRole('list', { name: 'Users' })).toBeNull();
  });

  it('deletes a role after the confirmation and selects nothing', async () => {
    await openRole(renderRoles(), 'Auditors');
    fireEvent.click(within(card()).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Role Confirmation' });
    expect(
      within(dialog).getByText('Are you sure you want to delete the role Auditors? This can NOT be undone.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await toast('Successfully deleted role.')).toBeTruthy();
    expect(calls()).toContain('DELETE /api/admin/roles/5');
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(await within(card()).findByText(/Choose a role from the list/)).toBeTruthy();
    expect(screen.queryByText('That role was not found.')).toBeNull();
    await waitFor(() => expect(within(roleList()).queryByRole('button', { name: /^Auditors/ })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() => expect((nameBox() as HTMLInputElement).value).toBe(''));
  });

  it('toasts a failed role list', async () => {
    api.on('GET', '/api/admin/roles', fail(500, 'Database is down.'));
    renderRoles();
    expect(await toast(adminMessages.rolesFailed)).toBeTruthy();
  });
});
