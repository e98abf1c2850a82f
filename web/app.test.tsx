import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { shellMessages } from '#common/messages.ts';
import { AppRoutes } from '#web/routes.tsx';
import { renderPage } from '#web/test/render-page.tsx';

describe('the shell', () => {
  it('shows the 404 page at an unknown path, inside the header and footer', async () => {
    renderPage(<AppRoutes />, { at: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: shellMessages.notFound })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByText(shellMessages.underDevelopment)).toBeTruthy();
  });

  it('shows the 401 page with Go Back and Login', async () => {
    renderPage(<AppRoutes />, { at: '/error/unauthorized' });
    expect(await screen.findByRole('heading', { name: shellMessages.unauthorized })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
    const main = screen.getByRole('main');
    const login = main.querySelector('a[href="/account/login"]');
    expect(login?.textContent).toBe('Login');
  });

  it('redirects the empty path to the home page', async () => {
    renderPage(<AppRoutes />, { at: '/' });
    expect(await screen.findByRole('link', { name: /Discover the Solution/ })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
  });
});
