import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { Link } from 'react-router';
import { adminMessages } from '#common/messages.ts';
import { usePendingChanges } from '#web/forms/pending-changes.ts';
import { renderPage } from '#web/test/render-page.tsx';

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

describe('the navigation guard', () => {
  it('holds an in-app navigation while changes are pending, with the warning, and lets it go after', async () => {
    const { router } = renderPage(<EditPage />, { path: '/edit', routes: { '/other': <h1>Other</h1> } });
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
