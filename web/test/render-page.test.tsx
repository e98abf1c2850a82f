import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, useMantineTheme } from '@mantine/core';
import { Link, useLocation, useParams } from 'react-router';
import { adminMessages } from '#common/messages.ts';
import { usePendingChanges } from '#web/forms/pending-changes.ts';
import { useSession } from '#web/session/session-context.ts';
import { sampleVerification } from '#web/session/test-session.ts';
import { fakeSession, renderPage, renderPageHook } from '#web/test/render-page.tsx';

function Probe({ label = 'probe' }: { label?: string }) {
  const { pathname, search } = useLocation();
  const { id } = useParams();
  const theme = useMantineTheme();
  const queries = useQueryClient();
  return (
    <>
      <p>{label}</p>
      <p>{`at ${pathname}${search}`}</p>
      <p>{`id ${id ?? '-'}`}</p>
      <p>{`theme ${theme.primaryColor}`}</p>
      <p>{`queries ${queries ? 'yes' : 'no'}`}</p>
      <Button component={Link} to="/elsewhere">
        Go
      </Button>
    </>
  );
}

function SessionProbe() {
  const session = useSession();
  return <p>{`${session.status} ${session.verification?.user.username ?? '-'}`}</p>;
}

/** A page whose changes are pending from the start. */
function Editor() {
  usePendingChanges(true);
  return <Link to="/elsewhere">Leave</Link>;
}

describe('renderPage', () => {
  it("renders the page in the app's providers, at the address and route given", async () => {
    const { router } = renderPage(<Probe />, {
      at: '/admin/users/7?tab=roles',
      path: '/admin/users/:id',
      routes: { '/elsewhere': <p>elsewhere</p> },
    });
    expect(screen.getByText('at /admin/users/7?tab=roles')).toBeTruthy();
    expect(screen.getByText('id 7')).toBeTruthy();
    expect(screen.getByText(/^theme \w+/)).toBeTruthy();
    expect(screen.getByText('queries yes')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Go' }));
    expect(await screen.findByText('elsewhere')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('keeps the router where it is when the page is rendered again', async () => {
    const { rerender, router } = renderPage(<Probe label="first" />, { at: '/one' });
    await act(() => router.navigate('/two'));
    rerender(<Probe label="second" />);
    expect(screen.getByText('second')).toBeTruthy();
    expect(screen.getByText('at /two')).toBeTruthy();
  });

  it("hands out the app's query client, the one the page uses", () => {
    const { queryClient } = renderPage(<Probe />);
    queryClient.setQueryData(['probe'], 'filled');
    const { result } = renderPageHook(() => useQueryClient());
    expect(result.current.getQueryData(['probe'])).toBeUndefined();
    expect(queryClient.getQueryData(['probe'])).toBe('filled');
    const hook = renderPageHook(() => useQueryClient());
    expect(hook.queryClient).toBe(hook.result.current);
  });

  it('gives the page the session asked for', () => {
    renderPage(<SessionProbe />, { session: sampleVerification });
    expect(screen.getByText('signedIn ada')).toBeTruthy();
    renderPage(<SessionProbe />, { session: null });
    expect(screen.getByText('signedOut -')).toBeTruthy();
    const session = fakeSession(sampleVerification, { status: 'starting' });
    renderPage(<SessionProbe />, { session });
    expect(screen.getByText('starting ada')).toBeTruthy();
  });

  it("has the app's navigation guard: pending changes hold a navigation", async () => {
    const { router } = renderPage(<Editor />, { path: '/edit', routes: { '/elsewhere': <p>elsewhere</p> } });
    expect(router.state.location.pathname).toBe('/edit');
    fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
    expect(await screen.findByText(adminMessages.cannotSwitchPages)).toBeTruthy();
    expect(screen.queryByText('elsewhere')).toBeNull();
  });
});
