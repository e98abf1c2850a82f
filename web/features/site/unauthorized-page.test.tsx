import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { shellMessages } from '#common/messages.ts';
import { AppRoutes } from '#web/routes.tsx';
import { renderPage } from '#web/test/render-page.tsx';

async function loginHref(): Promise<string | null> {
  await screen.findByRole('heading', { name: shellMessages.unauthorized });
  const login = screen.getByRole('main').querySelector('a');
  expect(login?.textContent).toBe('Login');
  return login?.getAttribute('href') ?? null;
}

describe('the 401 page', () => {
  it('says so, with Go Back and Login', async () => {
    renderPage(<AppRoutes />, { at: '/error/unauthorized' });
    expect(await loginHref()).toBe('/account/login');
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeTruthy();
  });

  it('returns to the page the guard turned away, once signed in', async () => {
    renderPage(<AppRoutes />, { at: '/account?tab=security' });
    expect(await loginHref()).toBe(`/account/login?r=${encodeURIComponent('/account?tab=security')}`);
  });

  it('takes the page from its own r as well', async () => {
    renderPage(<AppRoutes />, { at: '/error/unauthorized?r=%2Fadmin%2Fusers' });
    expect(await loginHref()).toBe(`/account/login?r=${encodeURIComponent('/admin/users')}`);
  });

  it.each(['https://evil.example/x', '//evil.example', '/no/such/page', '/account/logout'])(
    'ignores a return address that is not one of our pages (%s)',
    async (r) => {
      renderPage(<AppRoutes />, { at: { pathname: '/error/unauthorized', state: { from: r } } });
      expect(await loginHref()).toBe('/account/login');
    },
  );
});
