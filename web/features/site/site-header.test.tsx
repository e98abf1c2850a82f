import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import type { Verification } from '#common/contract/account.ts';
import { COLOR_SCHEME_STORAGE_KEY } from '#web/app-providers.tsx';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';
import { SiteHeader } from '#web/features/site/site-header.tsx';
import { renderPage } from '#web/test/render-page.tsx';

function Address() {
  const { pathname } = useLocation();
  return <output aria-label="address">{pathname}</output>;
}

function renderHeader(verification: Verification | null) {
  return renderPage(
    <>
      <SiteHeader />
      <Address />
      <p>outside</p>
    </>,
    { at: '/home', session: verification },
  );
}

const address = () => screen.getByRole('status', { name: 'address' }).textContent;

/** Opens the account menu and waits until its fade-in shows it. */
async function openAccountMenu(username: string) {
  fireEvent.click(screen.getByRole('button', { name: username }));
  await screen.findAllByRole('menuitem');
  return screen.getByRole('menu');
}

afterEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-mantine-color-scheme');
});

describe('the header', () => {
  it('offers Login and no account menu when signed out', () => {
    renderHeader(null);
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/account/login');
    expect(screen.queryByRole('button', { name: 'ada' })).toBeNull();
  });

  it('shows the username instead of Login when signed in', () => {
    renderHeader(sampleVerification);
    expect(screen.getByRole('button', { name: 'ada' }).getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });

  it('lists Admin, My Account and Logout for an administrator, 10rem wide', async () => {
    renderHeader(adminVerification);
    const menu = await openAccountMenu('admin');
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Admin', 'My Account', 'Logout']);
    expect(items.map((item) => item.getAttribute('href'))).toEqual([
      '/admin/home',
      '/account',
      '/account/logout',
    ]);
    expect(menu.style.width).toBe('10rem');
  });

  it('has no Admin entry for a person who is not an administrator', async () => {
    renderHeader(sampleVerification);
    await openAccountMenu('ada');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['My Account', 'Logout']);
  });

  it.each(['My Account', 'Logout'])('closes the menu when %s is chosen, and goes there', async (entry) => {
    renderHeader(sampleVerification);
    await openAccountMenu('ada');
    fireEvent.click(screen.getByRole('menuitem', { name: entry }));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(address()).toBe(entry === 'Logout' ? '/account/logout' : '/account');
  });

  it('closes the menu on a click outside it and on Escape', async () => {
    renderHeader(sampleVerification);
    await openAccountMenu('ada');
    fireEvent.mouseDown(screen.getByText('outside'));
    fireEvent.touchStart(screen.getByText('outside'));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    const menu = await openAccountMenu('ada');
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(address()).toBe('/home');
  });
});

describe('the mobile drawer', () => {
  const realMatchMedia = window.matchMedia;
  beforeEach(() => {
    // A phone: every max-width query matches, so the burger's drawer may open.
    window.matchMedia = (query: string) => ({
      ...realMatchMedia(query),
      matches: query.includes('max-width'),
    });
  });
  afterEach(() => {
    window.matchMedia = realMatchMedia;
  });

  async function openDrawer() {
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    return screen.findByRole('dialog', { name: 'Menu' });
  }

  it('offers Login when signed out', async () => {
    renderHeader(null);
    const drawer = await openDrawer();
    expect(within(drawer).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/account/login');
    expect(within(drawer).getByRole('switch', { name: 'Dark theme' })).toBeTruthy();
  });

  it('shows the username and the account entries instead of Login when signed in', async () => {
    renderHeader(adminVerification);
    const drawer = await openDrawer();
    expect(within(drawer).queryByRole('link', { name: 'Login' })).toBeNull();
    const account = within(drawer).getByRole('group', { name: 'Account' });
    expect(within(account).getByText('admin')).toBeTruthy();
    expect(
      within(account)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/admin/home', '/account', '/account/logout']);

    fireEvent.click(within(account).getByRole('link', { name: 'My Account' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
    expect(address()).toBe('/account');
  });

  it('has no Admin entry for a person who is not an administrator', async () => {
    renderHeader(sampleVerification);
    const drawer = await openDrawer();
    const account = within(drawer).getByRole('group', { name: 'Account' });
    expect(
      within(account)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['My Account', 'Logout']);
  });
});

describe('the light/dark switch', () => {
  const themeButton = () => screen.getByRole('button', { name: 'Dark theme' });

  it('follows the system until chosen, toggles, and remembers the choice', async () => {
    const first = renderHeader(null);
    // jsdom's system preference is light (web/test/setup.ts answers no media query).
    expect(themeButton().getAttribute('aria-pressed')).toBe('false');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBeNull();

    fireEvent.click(themeButton());
    await waitFor(() => expect(themeButton().getAttribute('aria-pressed')).toBe('true'));
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBe('dark');

    // A new visit starts dark.
    first.unmount();
    renderHeader(null);
    expect(themeButton().getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(themeButton());
    await waitFor(() => expect(themeButton().getAttribute('aria-pressed')).toBe('false'));
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('light');
    expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBe('light');
  });

  it('starts dark when the system prefers dark and nothing was chosen', () => {
    const realMatchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({
      ...realMatchMedia(query),
      matches: query.includes('prefers-color-scheme: dark'),
    });
    try {
      renderHeader(null);
      expect(themeButton().getAttribute('aria-pressed')).toBe('true');
      expect(localStorage.getItem(COLOR_SCHEME_STORAGE_KEY)).toBeNull();
    } finally {
      window.matchMedia = realMatchMedia;
    }
  });
});
