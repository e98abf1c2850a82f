import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { AdminUser } from '#common/contract/admin.ts';
import { adminMessages } from '#common/messages.ts';
import { shortInstant } from './user-format.ts';
import { UsersPage } from './users-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

// A page with a router and a table is slow to render in jsdom on a shared machine.

const api = fakeApi();
const fetchMock = api.fetch;

function user(id: number, username: string, extra: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    username,
    email: `${username}@example.com`,
    firstName: null,
    lastName: null,
    isAdmin: false,
    emailVerified: true,
    passwordExpired: false,
    lockedUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    roles: [{ Id: 3, Name: 'User' }],
    isLocked: false,
    lastSignInAt: null,
    twoFactor: ['Email'],
    ...extra,
  };
}

const admin = user(1, 'admin', {
  isAdmin: true,
  roles: [
    { Id: 1, Name: 'Administrator' },
    { Id: 3, Name: 'User' },
  ],
  lastSignInAt: '2026-11-24T10:15:00.000Z',
  twoFactor: ['Email', 'Totp', 'Passkey'],
});
const grace = user(2, 'grace', {
  lockedUntil: '2030-01-01T12:00:00.000Z',
  isLocked: true,
  twoFactor: [],
  roles: [],
});

/** The user list calls made, as "page {n} size {s} username {u}". */
function listCalls(): string[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/users')
    .map(
      (url) =>
        `page ${url.searchParams.get('page')} size ${url.searchParams.get('pageSize')} username ${url.searchParams.get('username') ?? ''}`,
    );
}

const renderUsers = (at = '/admin/users') =>
  renderPage(<UsersPage />, {
    at,
    path: '/admin/users',
    routes: { '/admin/users/:id': <h1>User page</h1> },
  }).router;

const address = (router: ReturnType<typeof renderUsers>) =>
  `${router.state.location.pathname}${router.state.location.search}`;
const table = () => screen.getByRole('table', { name: 'Users' });
const pages = () => screen.getByRole('navigation', { name: 'Pages' });

beforeEach(() => {
  notifications.clean();
  api.on('GET', '/api/admin/users', ok({ results: [admin, grace], count: 2 }));
});

describe('the user list', () => {
  it('shows each user: a link to their page, email, roles, last sign-in, second factors and status', async () => {
    renderUsers();
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
    const link = await within(table()).findByRole('link', { name: 'admin' });
    expect(link.getAttribute('href')).toBe('/admin/users/1');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Id', 'Username', 'Email', 'Roles', 'Last sign-in', 'Second factors', 'Status']);

    const [, adminRow, graceRow] = within(table()).getAllByRole('row');
    const adminCells = within(adminRow!);
    expect(adminCells.getByText('admin@example.com')).toBeTruthy();
    expect(adminCells.getByText('Administrator')).toBeTruthy();
    expect(adminCells.getByText(shortInstant('2026-11-24T10:15:00.000Z'))).toBeTruthy();
    // Totp is the authenticator App.
    expect(['Email', 'App', 'Passkey'].every((factor) => adminCells.queryByText(factor))).toBe(true);
    expect(adminCells.queryByText('Totp')).toBeNull();
    expect(adminCells.getByText('Active')).toBeTruthy();

    const graceCells = within(graceRow!);
    expect(graceCells.getByText('Never')).toBeTruthy();
    expect(graceCells.getByText('Locked')).toBeTruthy();
    expect(graceCells.getByText(`until ${shortInstant('2030-01-01T12:00:00.000Z')}`)).toBeTruthy();
    expect(graceCells.getAllByText('None')).toHaveLength(2);
    expect(listCalls()).toEqual(['page 1 size 20 username ']);
  });

  it('has the same users as cards for phones (CSS shows one or the other)', async () => {
    renderUsers();
    const cards = await screen.findByRole('list', { name: 'Users' });
    const items = within(cards).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('link', { name: 'admin' }).getAttribute('href')).toBe(
      '/admin/users/1',
    );
    expect(within(items[1]!).getByText('Locked')).toBeTruthy();
    expect(within(items[1]!).getByText('Never')).toBeTruthy();
  });

  it('says when nobody matches a search', async () => {
    api.on('GET', '/api/admin/users', ok({ results: [], count: 0 }));
    renderUsers('/admin/users?username=zz');
    expect(await within(table()).findByText('No username starts with “zz”.')).toBeTruthy();
    expect((screen.getByLabelText('Search users') as HTMLInputElement).value).toBe('zz');
  });

  it('counts pages as ceil(count / 20): 41 users are 3 pages, none is 1', async () => {
    api.on('GET', '/api/admin/users', ok({ results: [admin, grace], count: 41 }));
    renderUsers();
    await within(pages()).findByText('41 users');
    expect(within(pages()).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(within(pages()).queryByRole('button', { name: 'Page 4' })).toBeNull();
    expect(within(pages()).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
  });

  it('an empty list is one page', async () => {
    api.on('GET', '/api/admin/users', ok({ results: [], count: 0 }));
    renderUsers();
    expect(await within(table()).findByText('There are no users yet.')).toBeTruthy();
    expect(within(pages()).getByText('0 users')).toBeTruthy();
    expect(within(pages()).getByRole('button', { name: 'Page 1' })).toBeTruthy();
    expect(within(pages()).queryByRole('button', { name: 'Page 2' })).toBeNull();
  });

  it('moves between pages with the page in the address', async () => {
    api.on('GET', '/api/admin/users', ok({ results: [admin, grace], count: 41 }));
    const router = renderUsers();
    fireEvent.click(await within(pages()).findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(address(router)).toBe('/admin/users?page=2'));
    await waitFor(() => expect(listCalls()).toContain('page 2 size 20 username '));
    fireEvent.click(within(pages()).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(address(router)).toBe('/admin/users?page=3'));
  });

  it('searches 250 ms after the typing stops, from page 1, the search in the address', async () => {
    api.on('GET', '/api/admin/users', ok({ results: [admin, grace], count: 41 }));
    const router = renderUsers('/admin/users?page=3');
    await waitFor(() => expect(listCalls()).toEqual(['page 3 size 20 username ']));
    const search = screen.getByRole('textbox', { name: 'Search users' });
    fireEvent.change(search, { target: { value: 'a' } });
    fireEvent.change(search, { target: { value: 'ad ' } });
    // Not at once: the list waits for the typing to pause.
    expect(address(router)).toBe('/admin/users?page=3');
    await waitFor(() => expect(address(router)).toBe('/admin/users?username=ad'));
    await waitFor(() => expect(listCalls()).toContain('page 1 size 20 username ad'));
    // One search for the two keys, and the box keeps what was typed.
    expect(listCalls().filter((call) => call.endsWith('username a'))).toEqual([]);
    expect((search as HTMLInputElement).value).toBe('ad ');

    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    await waitFor(() => expect(address(router)).toBe('/admin/users'));
    expect((search as HTMLInputElement).value).toBe('');
  });

  it("toasts 'Failed to get users.' with the server's reason when the list cannot be read", async () => {
    api.on('GET', '/api/admin/users', fail(503, 'The app store is not answering.'));
    renderUsers();
    expect(
      await screen.findByText(adminMessages.usersFailed, { selector: '.mantine-Notification-title' }),
    ).toBeTruthy();
    expect(screen.getByText('The app store is not answering.')).toBeTruthy();
  });
});
