import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { accountMessages } from '#common/messages.ts';
import { SetupPage } from '#web/features/setup/setup-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;
const renderSetup = (at = '/setup?token=one-time') =>
  renderPage(<SetupPage />, { at, path: '/setup', routes: { '/account/login': <p>login page</p> } });

/** A field by its label; the required marker after the label's text is left out. */
function field(label: string): HTMLElement {
  return screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`), { selector: 'input' });
}

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

describe('the setup page', () => {
  it('says so when the administrator already exists', async () => {
    api.on('GET', '/api/setup', ok({ required: false }));
    renderSetup();
    expect(await screen.findByText(/administrator already exists/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'login page' }).getAttribute('href')).toBe('/account/login');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/setup');
  });

  it('shows field messages only once a field is touched or changed', async () => {
    api.on('GET', '/api/setup', ok({ required: true }));
    renderSetup();
    await screen.findByRole('button', { name: 'Create administrator' });
    const username = field('Username');
    expect(screen.queryByText(accountMessages.usernameRequired)).toBeNull();
    expect(screen.queryByText(accountMessages.emailRequired)).toBeNull();

    fireEvent.blur(username);
    expect(await screen.findByText(accountMessages.usernameRequired)).toBeTruthy();
    expect(screen.queryByText(accountMessages.emailRequired)).toBeNull();

    type('Username', 'bad name!');
    expect(await screen.findByText(accountMessages.invalidCharacters)).toBeTruthy();
    type('Password', 'short');
    expect(await screen.findByText(accountMessages.passwordMin)).toBeTruthy();
  });

  it('marks every field on a submit of an invalid form and sends nothing', async () => {
    api.on('GET', '/api/setup', ok({ required: true }));
    renderSetup();
    fireEvent.click(await screen.findByRole('button', { name: 'Create administrator' }));
    expect(await screen.findByText(accountMessages.usernameRequired)).toBeTruthy();
    expect(screen.getByText(accountMessages.emailRequired)).toBeTruthy();
    expect(screen.getByText(accountMessages.passwordConfirmRequired)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('posts the form with the token and goes to the login page', async () => {
    api.on('GET', '/api/setup', ok({ required: true }));
    api.on('POST', '/api/setup', ok(null, 'The administrator was created.'));
    renderSetup();
    await screen.findByRole('button', { name: 'Create administrator' });
    type('Username', 'admin');
    type('Email', 'admin@example.com');
    type('Password', 'Admin#12345');
    type('Password Confirm', 'Admin#12345');
    fireEvent.click(screen.getByRole('button', { name: 'Create administrator' }));

    expect(await screen.findByText('login page')).toBeTruthy();
    const [path, init] = fetchMock.mock.calls[1] ?? [];
    expect(path).toBe('/api/setup');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      token: 'one-time',
      username: 'admin',
      email: 'admin@example.com',
      password: 'Admin#12345',
      passwordConfirm: 'Admin#12345',
    });
  });

  it("shows the server's message when the setup is refused", async () => {
    api.on('GET', '/api/setup', ok({ required: true }));
    api.on('POST', '/api/setup', fail(403, 'This setup link has expired.'));
    renderSetup();
    await screen.findByRole('button', { name: 'Create administrator' });
    type('Username', 'admin');
    type('Email', 'admin@example.com');
    type('Password', 'Admin#12345');
    type('Password Confirm', 'Admin#12345');
    fireEvent.click(screen.getByRole('button', { name: 'Create administrator' }));
    await waitFor(() =>
      expect(screen.getAllByText('This setup link has expired.').length).toBeGreaterThan(0),
    );
    expect(screen.queryByText('login page')).toBeNull();
  });

  it('warns when the link has no token', async () => {
    api.on('GET', '/api/setup', ok({ required: true }));
    renderSetup('/setup');
    expect(await screen.findByText(/setup link is incomplete/)).toBeTruthy();
  });
});
