import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { accountPageMessages as pm } from '#common/messages.ts';
import { AppRoutes } from '#web/routes.tsx';
import { encodeVerification } from '#web/session/storage.ts';
import { sampleVerification } from '#web/session/test-session.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fakeApi, ok } from '#web/test/fake-api.ts';

// The whole app (session, guard, routes) renders here; slow in jsdom on a shared machine.

/*
 * Deleting the account in the whole app: the account page leaves through /account/logout, which signs out on a public
 * page and lands on /home (signing out while still on /account would have the access guard show the 401 page).
 */
const api = fakeApi();
afterEach(() => {
  localStorage.clear();
});

describe('after the account is deleted', () => {
  it('the person is signed out and lands on /home, never on the 401 page', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, encodeVerification(sampleVerification));
    api.on('GET', '/api/account/verify', ok(sampleVerification));
    api.on('GET', '/api/account', ok(sampleVerification.user));
    api.on('GET', '/api/account/roles', ok([]));
    api.on('GET', '/api/account/passkeys', ok([]));
    api.on('GET', '/api/account/providers', ok({ configured: [], linked: [], hasPassword: true }));
    api.on('DELETE', '/api/account/delete', ok(null, 'gone'));
    api.on('GET', '/api/account/logout', ok(null, 'You are signed out.'));
    const log = () => api.requests().map((request) => `${request.method} ${request.url}`);
    const { router, visited: seen } = renderPage(<AppRoutes />, { at: '/account' });
    fireEvent.click(await screen.findByRole('button', { name: pm.deleteButton }));
    const dialog = await screen.findByRole('dialog', { name: pm.deleteConfirmTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: pm.deleteConfirm }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(seen).not.toContain('/error/unauthorized');
    expect(log()).toContain('GET /api/account/logout');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(await screen.findByText('gone')).toBeTruthy();
  });
});
