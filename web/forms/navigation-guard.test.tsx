import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { adminMessages } from '#common/messages.ts';
import { AppProviders } from '#web/app-providers.tsx';
import { NavigationGuardProvider } from '#web/forms/navigation-guard.tsx';
import { usePendingChanges } from '#web/forms/pending-changes.ts';

function EditPage() {
  const [pending, setPending] = useState(false);
  usePendingChanges(pending);
  return (
    <>
      <h1>Edit</h1>
      <button type="button" onClick={() => setPending((p) => !p)}>
        {pending ? 'Save' : 'Change'}
      </button>
      <Link to="/other">Other page</Link>
    </>
  );
}

function renderApp() {
  const router = createMemoryRouter(
    [
      {
        element: (
          <NavigationGuardProvider>
            <EditPage />
          </NavigationGuardProvider>
        ),
        path: '/edit',
      },
      { path: '/other', element: <h1>Other</h1> },
    ],
    { initialEntries: ['/edit'] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('the navigation guard', () => {
  it('holds an in-app navigation while changes are pending, with the warning, and lets it go after', async () => {
    const router = renderApp();
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
    expect(await screen.findByText(adminMessages.cannotSwitchPages)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/edit');
    expect(screen.getByRole('heading', { name: 'Edit' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('link', { name: 'Other page' }));
      await Promise.resolve();
    });
    expect(await screen.findByRole('heading', { name: 'Other' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/other');
  });
});
