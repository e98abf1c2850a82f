import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminOverview } from '#common/contract/admin.ts';
import { AdminHomePage } from '#web/features/admin/home/admin-home-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

const overview: AdminOverview = {
  users: 12,
  administrators: 2,
  lockedUsers: 1,
  activeSessions: 5,
  roles: 4,
  health: {
    status: 'down',
    appStore: { engine: 'sqlite', status: 'up', writable: true },
    databases: [
      { name: 'chinook', engine: 'postgres', status: 'up' },
      { name: 'sales', engine: 'mysql', status: 'down', error: 'The database does not answer.' },
    ],
  },
  signInFailures24h: 3,
  lockouts24h: 1,
  changes24h: 7,
  recentFailures: [
    {
      id: 41,
      at: '2026-11-24T10:00:00.000Z',
      userId: 3,
      username: 'ada',
      action: 'sign-in.password-failed',
      target: null,
      detail: null,
      address: '127.0.0.1',
      undoneBy: null,
      state: 'done',
    },
  ],
  recentChanges: [
    {
      id: 42,
      at: '2026-11-24T11:00:00.000Z',
      userId: 1,
      username: 'admin',
      action: 'data.update',
      target: '/db/chinook/public/Album',
      detail: { key: { AlbumId: 1 } },
      address: null,
      undoneBy: null,
      state: 'done',
    },
  ],
};

const api = fakeApi();
const fetchMock = api.fetch;

describe('the admin start page', () => {
  it('shows the overview', async () => {
    api.on('GET', '/api/admin/overview', ok(overview));
    renderPage(<AdminHomePage />, { at: '/admin/home' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Admin');

    const users = await screen.findByRole('region', { name: 'Users and roles' });
    expect(within(users).getByRole('link', { name: '12 Users' }).getAttribute('href')).toBe('/admin/users');
    expect(within(users).getByRole('link', { name: '2 Administrators' })).toBeTruthy();
    expect(within(users).getByRole('link', { name: '1 Locked' })).toBeTruthy();
    expect(within(users).getByRole('link', { name: '5 Active sessions' })).toBeTruthy();
    expect(within(users).getByRole('link', { name: '4 Roles' }).getAttribute('href')).toBe('/admin/roles');

    const databases = screen.getByRole('region', { name: 'Databases' });
    const rows = within(databases).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'App storesqliteUp',
      'chinookpostgresUp',
      'salesmysqlThe database does not answer.Down',
    ]);

    const failures = screen.getByRole('region', { name: 'Sign-in failures' });
    // Each count sits in the card of its label.
    for (const [label, count] of [
      ['Failures in 24 h', '3'],
      ['Lockouts in 24 h', '1'],
    ]) {
      const card = within(failures).getByText(label!).parentElement!;
      expect(within(card).getByText(count!)).toBeTruthy();
    }
    const failure = within(failures).getByRole('listitem');
    expect(within(failure).getByText('ada')).toBeTruthy();
    expect(within(failure).getByText('Wrong password')).toBeTruthy();
    expect(failure.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-24T10:00:00.000Z');

    const changes = screen.getByRole('region', { name: 'Recent changes' });
    expect(within(changes).getByText('7 data changes in the last 24 hours.')).toBeTruthy();
    expect(within(changes).getByText('Row changed')).toBeTruthy();
    expect(within(changes).getByText('chinook.public.Album')).toBeTruthy();
    expect(within(changes).getByRole('link', { name: 'Open the audit trail' }).getAttribute('href')).toBe(
      '/admin/audit',
    );

    // The style sheet comes after, from its own chunk (the fallback is a region of the same name).
    const toast = await screen.findByRole('button', { name: 'Show a toast' });
    const pieces = screen.getByRole('region', { name: 'Interface pieces' });
    expect(pieces.contains(toast)).toBe(true);
    expect(within(pieces).getByRole('button', { name: 'Open a modal' })).toBeTruthy();
    expect(within(pieces).getByRole('grid', { name: 'Rows' })).toBeTruthy();
  });

  it('says the overview failed to load and retries', async () => {
    api.on('GET', '/api/admin/overview', fail(404, 'Route GET:/api/admin/overview not found'));
    renderPage(<AdminHomePage />, { at: '/admin/home' });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to load the overview.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Users and roles' })).toBeNull();
    const calls = fetchMock.mock.calls.length;

    api.on('GET', '/api/admin/overview', ok(overview));
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Users and roles' })).toBeTruthy();
    expect(fetchMock.mock.calls.length).toBeGreaterThan(calls);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
