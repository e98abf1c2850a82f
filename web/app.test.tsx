import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { shellMessages } from '#common/messages.ts';
import { AppProviders } from '#web/app-providers.tsx';
import { AppRoutes } from '#web/routes.tsx';

function renderAt(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('the shell', () => {
  it('shows the 404 page at an unknown path, inside the header and footer', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: shellMessages.notFound })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByText(shellMessages.underDevelopment)).toBeTruthy();
  });

  it('shows the 401 page with Go Back and Login', async () => {
    renderAt('/error/unauthorized');
    expect(await screen.findByRole('heading', { name: shellMessages.unauthorized })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
    const main = screen.getByRole('main');
    const login = main.querySelector('a[href="/account/login"]');
    expect(login?.textContent).toBe('Login');
  });

  it('redirects the empty path to the home page', async () => {
    renderAt('/');
    expect(await screen.findByRole('link', { name: /Discover the Solution/ })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  });
});
