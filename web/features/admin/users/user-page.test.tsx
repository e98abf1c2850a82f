import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import {
  roleMessages,
  userMessages,
  type AdminUserDetail,
  type AuditEntryView,
  type RoleSummary,
} from '#common/contract/admin.ts';
import { adminVerification } from '#web/session/test-session.ts';
import { UserPage } from './user-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, type FakeAnswer } from '#web/test/fake-api.ts';

// A page with modals, a multiselect and a router is slow to render in jsdom on a shared machine.

const api = fakeApi();
const fetchMock = api.fetch;
/** The user as the server has them: GET answers it, and an action's answer becomes it (as on the server). */
let current: AdminUserDetail;

/** An action's answer: the user as changed, and the server's message. */
function changed(user: AdminUserDetail, message: string): FakeAnswer {
  current = user;
  return ok(user, message);
}

const grace: AdminUserDetail = {
  id: 5,
  username: 'grace',
  email: 'grace@example.com',
  firstName: 'Grace',
  lastName: 'Hopper',
  isAdmin: false,
  emailVerified: true,
  passwordExpired: false,
  lockedUntil: null,
  createdAt: '2026-01-02T08:00:00.000Z',
  roles: [{ Id: 3, Name: 'User' }],
  isLocked: false,
  lastSignInAt: '2026-11-24T09:30:00.000Z',
  twoFactor: ['Email', 'Totp'],
  preferred2fa: 'Totp',
  recoveryCodesLeft: 7,
  passkeys: 0,
  activeSessions: 2,
  failedChecks: 1,
};

const role = (Id: number, Name: string): RoleSummary => ({
  Id,
  Name,
  IsAdmin: Id === 1,
  IsBuiltIn: Id <= 3,
  Links: 1,
  Users: 1,
});
const roles = [role(1, 'Administrator'), role(2, 'Readers'), role(3, 'User')];

const entry = (id: number, action: string, target: string | null): AuditEntryView => ({
  id,
  at: '2026-11-24T09:30:00.000Z',
  userId: 5,
  username: 'grace',
  action,
  target,
  detail: null,
  address: null,
  undoneBy: null,
  state: 'done',
});

/** The POST bodies sent to a path. */
function posts(path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => init.method === 'POST' && new URL(input, 'http://localhost').pathname === path)
    .map(([, init]) => (init.body ? JSON.parse(String(init.body)) : undefined));
}

const renderUser = (at = '/admin/users/5', signedInAs = adminVerification) =>
  renderPage(<UserPage />, {
    at,
    path: '/admin/users/:id',
    routes: { '/admin/users': <h1>Users page</h1>, '/admin/audit': <h1>Audit page</h1> },
    session: signedInAs,
  }).router;

const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
const dialog = (name: string) => screen.findByRole('dialog', { name });

beforeEach(() => {
  notifications.clean();
  current = grace;
  api.on('GET', '/api/admin/users/5', () => ok(current));
  api.on('GET', '/api/admin/roles', ok({ results: roles, count: roles.length }));
  api.on(
    'GET',
    '/api/admin/audit',
    ok({
      results: [entry(12, 'sign-in', null), entry(11, 'data.update', '/db/chinook/main/Album')],
      count: 2,
    }),
  );
});

describe("a user's page", () => {
  it('shows the username as the h1, the profile, the roles and the recent activity', async () => {
    renderUser();
    expect(await screen.findByRole('heading', { level: 1, name: 'grace' })).toBeTruthy();
    const profile = screen.getByRole('region', { name: 'Profile' });
    expect(within(profile).getByText('Grace Hopper')).toBeTruthy();
    expect(within(profile).getByText('grace@example.com')).toBeTruthy();
    expect(within(profile).getByText('Verified')).toBeTruthy();
    expect(within(profile).getByText('7')).toBeTruthy();
    expect(within(profile).getAllByText('App').length).toBeGreaterThanOrEqual(2); // a factor, and the preferred one
    expect(within(profile).getByText('Active')).toBeTruthy();

    expect(screen.getByRole('combobox', { name: 'Roles' })).toBeTruthy();
    expect(button('Save roles').disabled).toBe(true);

    const activity = screen.getByRole('region', { name: 'Recent activity' });
    expect(await within(activity).findByText('Signed in')).toBeTruthy();
    expect(within(activity).getByText('Row changed')).toBeTruthy();
    expect(
      within(activity).getByRole('link', { name: 'See all in the audit trail' }).getAttribute('href'),
    ).toBe('/admin/audit?userId=5');
    const auditCall = fetchMock.mock.calls
      .map(([input]) => new URL(input, 'http://localhost'))
      .find((url) => url.pathname === '/api/admin/audit');
    expect(auditCall?.search).toBe('?page=1&pageSize=10&userId=5');
  });

  it('saves the roles and toasts the server message', async () => {
    api.on('POST', '/api/admin/users/5/roles', () =>
      changed(
        {
          ...grace,
          roles: [
            { Id: 2, Name: 'Readers' },
            { Id: 3, Name: 'User' },
          ],
        },
        userMessages.rolesSaved,
      ),
    );
    renderUser();
    const select = await screen.findByRole('combobox', { name: 'Roles' });
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Readers', hidden: true }));
    fireEvent.click(button('Save roles'));
    expect(await screen.findByText(userMessages.rolesSaved)).toBeTruthy();
    expect(posts('/api/admin/users/5/roles')).toEqual([{ roleIds: [3, 2] }]);
    await waitFor(() => expect(button('Save roles').disabled).toBe(true));
  });

  it('toasts a refusal in red and puts the saved roles back', async () => {
    api.on('POST', '/api/admin/users/5/roles', () => fail(409, roleMessages.lastAdministrator));
    renderUser();
    const select = await screen.findByRole('combobox', { name: 'Roles' });
    const form = select.closest('form')!;
    fireEvent.click(select);
    fireEvent.click(await screen.findByRole('option', { name: 'Readers', hidden: true }));
    expect(within(form).getByText('Readers')).toBeTruthy();
    fireEvent.click(button('Save roles'));
    expect(await screen.findByText(roleMessages.lastAdministrator)).toBeTruthy();
    await waitFor(() => expect(within(form).queryByText('Readers')).toBeNull());
    expect(within(form).getByText('User')).toBeTruthy();
  });

  it('locks for 1 day, or until unlocked, and toasts the server message', async () => {
    const locked = { ...grace, isLocked: true, lockedUntil: '9999-12-31T23:59:59.999Z', activeSessions: 0 };
    api.on('POST', '/api/admin/users/5/lock', () => changed(locked, userMessages.locked));
    renderUser();
    fireEvent.click(await screen.findByRole('button', { name: 'Lock' }));
    let modal = await dialog('Lock user');
    const group = within(modal).getByRole('radiogroup', { name: 'Lock for' });
    expect(within(group).getByRole('radio', { name: '1 hour' })).toHaveProperty('checked', true);
    fireEvent.click(within(group).getByRole('radio', { name: '1 day' }));
    const before = Date.now();
    fireEvent.click(within(modal).getByRole('button', { name: 'Lock' }));
    expect(await screen.findByText(userMessages.locked)).toBeTruthy();
    const [body] = posts('/api/admin/users/5/lock') as { until: string }[];
    const day = Date.parse(body!.until) - before;
    expect(day).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(day).toBeLessThan(24 * 3600_000 + 5000);

    // Now locked: the page says so, and offers Unlock beside Lock.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const profile = screen.getByRole('region', { name: 'Profile' });
    expect(await within(profile).findByText('Locked')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Unlock' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Lock' }));
    modal = await dialog('Lock user');
    fireEvent.click(within(modal).getByRole('radio', { name: 'Until unlocked' }));
    fireEvent.click(within(modal).getByRole('button', { name: 'Lock' }));
    await waitFor(() => expect(posts('/api/admin/users/5/lock')).toHaveLength(2));
    expect(posts('/api/admin/users/5/lock')[1]).toEqual({ until: null });
  });

  it('unlocks a locked user', async () => {
    const locked = { ...grace, isLocked: true, lockedUntil: '2030-01-01T00:00:00.000Z' };
    current = locked;
    api.on('POST', '/api/admin/users/5/unlock', () => changed(grace, userMessages.unlocked));
    renderUser();
    fireEvent.click(await screen.findByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText(userMessages.unlocked)).toBeTruthy();
    expect(posts('/api/admin/users/5/unlock')).toEqual([undefined]);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Unlock' })).toBeNull());
  });

  it('resets the second factor after the confirmation', async () => {
    api.on('POST', '/api/admin/users/5/reset-2fa', () =>
      changed({ ...grace, twoFactor: ['Email'], preferred2fa: 'Email' }, userMessages.secondFactorReset),
    );
    renderUser();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset second factor' }));
    const modal = await dialog('Reset Second Factor');
    expect(
      within(modal).getByText(/removes grace's authenticator app, phone number and passkeys/),
    ).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts('/api/admin/users/5/reset-2fa')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    fireEvent.click(within(await dialog('Reset Second Factor')).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(userMessages.secondFactorReset)).toBeTruthy();
    expect(posts('/api/admin/users/5/reset-2fa')).toEqual([undefined]);
  });

  it('ends the sessions after the confirmation, and toasts a refusal in red', async () => {
    api.on('POST', '/api/admin/users/5/end-sessions', () =>
      changed({ ...grace, activeSessions: 0 }, userMessages.sessionsEnded(2)),
    );
    renderUser();
    fireEvent.click(await screen.findByRole('button', { name: 'End sessions' }));
    let modal = await dialog('End Sessions');
    expect(within(modal).getByText(/2 active sessions/)).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'End sessions' }));
    expect(await screen.findByText('Ended 2 sessions.')).toBeTruthy();
    expect(posts('/api/admin/users/5/end-sessions')).toEqual([undefined]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    api.on('POST', '/api/admin/users/5/end-sessions', () => fail(503, 'The app store is not answering.'));
    fireEvent.click(screen.getByRole('button', { name: 'End sessions' }));
    modal = await dialog('End Sessions');
    fireEvent.click(within(modal).getByRole('button', { name: 'End sessions' }));
    const toast = await screen.findByText('The app store is not answering.');
    expect(toast.closest('.mantine-Notification-root')?.getAttribute('style')).toMatch(/red/);
  });

  it("keeps Lock and End sessions off the signed-in administrator's own account, and says why", async () => {
    api.on('GET', '/api/admin/users/1', () =>
      ok({
        ...grace,
        id: 1,
        username: 'admin',
        isAdmin: true,
        roles: [{ Id: 1, Name: 'Administrator' }],
      }),
    );
    renderUser('/admin/users/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'admin' })).toBeTruthy();
    expect(button('Lock').disabled).toBe(true);
    expect(button('End sessions').disabled).toBe(true);
    expect(button('Reset second factor').disabled).toBe(false);
    const hint = screen.getByText(userMessages.notYourself);
    const described = document.getElementById(button('Lock').getAttribute('aria-describedby') ?? '');
    expect(described?.contains(hint)).toBe(true);
  });

  it('says honestly when the user does not exist, with a way back to Users', async () => {
    api.on('GET', '/api/admin/users/5', () => fail(404, userMessages.notFound));
    renderUser();
    expect(await screen.findByText('That user was not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Users' }).getAttribute('href')).toBe('/admin/users');
    expect(screen.queryByRole('region', { name: 'Profile' })).toBeNull();
  });

  it('an address that is no user Id is not found without asking the server', async () => {
    renderUser('/admin/users/abc');
    expect(await screen.findByText('That user was not found.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
