import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { Button } from '@mantine/core';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { renderPage } from '#web/test/render-page.tsx';

const frame = (
  <AdminFrame title="Roles" actions={<Button>Add Role</Button>}>
    <p>the page</p>
  </AdminFrame>
);

describe('the admin frame', () => {
  it('links Home, Users, Roles, Audit, Messages and Analytics in a nav named Admin', () => {
    renderPage(frame, { at: '/admin/roles' });
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Home',
      'Users',
      'Roles',
      'Audit',
      'Messages',
      'Analytics',
      'Chats',
    ]);
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/admin/home',
      '/admin/users',
      '/admin/roles',
      '/admin/audit',
      '/admin/messages',
      '/admin/analytics',
      '/admin/chats',
    ]);
  });

  it('marks the current page, and Users on a user’s page', () => {
    renderPage(frame, { at: '/admin/roles' });
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    expect(within(nav).getByRole('link', { name: 'Roles' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Home' }).hasAttribute('aria-current')).toBe(false);
  });

  it('marks Users on a user’s page', () => {
    renderPage(frame, { at: '/admin/users/7' });
    const current = screen
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page')
      .map((link) => link.textContent);
    expect(current).toEqual(['Users']);
  });

  it('shows the title as the h1, the actions and the page', () => {
    renderPage(frame, { at: '/admin/roles' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Roles');
    expect(screen.getByRole('button', { name: 'Add Role' })).toBeTruthy();
    expect(screen.getByText('the page')).toBeTruthy();
  });
});
