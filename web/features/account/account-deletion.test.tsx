import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { accountPageMessages as pm } from '#common/messages.ts';
import { AppProviders } from '#web/app-providers.tsx';
import { NavigationGuardProvider } from '#web/forms/navigation-guard.tsx';
import { AppRoutes } from '#web/routes.tsx';
import { encodeVerification } from '#web/session/storage.ts';
import { sampleVerification } from '#web/session/test-session.ts';

// The whole app (session, guard, routes) renders here; slow in jsdom on a shared machine.

/*
 * Deleting the account in the whole app: the account page leaves through /account/logout, which signs out on a public
 * page and lands on /home (signing out while still on /account would have the access guard show the 401 page).
 */
function envelope(data: unknown, message: string | null = null, status = 200): Response {
  return new Response(JSON.stringify({ isSuccess: status < 400, data, message }), { status });
}
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('after the account is deleted', () => {
  it('the person is signed out and lands on /home, never on the 401 page', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, encodeVerification(sampleVerification));
    const log: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        log.push(`${init.method ?? 'GET'} ${url}`);
        if (url === '/api/account/verify') return Promise.resolve(envelope(sampleVerification));
        if (url === '/api/account') return Promise.resolve(envelope(sampleVerification.user));
        if (url === '/api/account/roles') return Promise.resolve(envelope([]));
        if (url === '/api/account/providers')
          return Promise.resolve(envelope({ configured: [], linked: [], hasPassword: true }));
        if (url === '/api/account/delete') return Promise.resolve(envelope(null, 'gone'));
        if (url === '/api/account/logout') return Promise.resolve(envelope(null, 'You are signed out.'));
        return Promise.resolve(envelope([], null));
      }),
    );
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <NavigationGuardProvider>
              <AppRoutes />
            </NavigationGuardProvider>
          ),
        },
      ],
      { initialEntries: ['/account'] },
    );
    const seen: string[] = [];
    router.subscribe((s) => seen.push(s.location.pathname));
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    fireEvent.click(await screen.findByRole('button', { name: pm.deleteButton }));
    const dialog = await screen.findByRole('dialog', { name: pm.deleteConfirmTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: pm.deleteConfirm }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(seen).not.toContain('/error/unauthorized');
    expect(log).toContain('GET /api/account/logout');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(await screen.findByText('gone')).toBeTruthy();
  });
});
