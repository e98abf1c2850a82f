import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { useLocation } from 'react-router';
import { accountApiMessages, accountMessages, formMessages } from '#common/messages.ts';
import { ForgotPasswordPage } from '#web/features/password/forgot-password-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, transportError } from '#web/test/fake-api.ts';

// The real widget solves a proof of work in a worker; a button stands in for it (web/test/human-check-stand-in.tsx).
vi.mock('#web/ui/human-check.tsx', async () =>
  (await import('#web/test/human-check-stand-in.tsx')).humanCheckStandIn('solved-payload'),
);

const api = fakeApi();
const fetchMock = api.fetch;

function LoginStandIn() {
  const { search } = useLocation();
  return <p>login page {search}</p>;
}

const renderForgotPassword = () =>
  renderPage(<ForgotPasswordPage />, {
    path: '/account/forgotPassword',
    routes: { '/account/login': <LoginStandIn /> },
  });

const username = () => screen.getByLabelText(/^Username\s*\*?$/, { selector: 'input' });
const submitButton = () => screen.getByRole('button', { name: 'Send Code' });

afterEach(() => {
  // Toasts live in a store of their own that outlives a render.
  notifications.clean();
});

describe('the forgot-password page', () => {
  it('asks for the username and the human check, and links back to login', () => {
    renderForgotPassword();
    expect(username()).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Solve the human check' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('/account/login');
  });

  it('shows the username messages only once the field is touched or changed', () => {
    renderForgotPassword();
    expect(screen.queryByText(accountMessages.usernameRequired)).toBeNull();
    fireEvent.blur(username());
    expect(screen.getByText(accountMessages.usernameRequired)).toBeTruthy();
    fireEvent.change(username(), { target: { value: 'ada lovelace' } });
    expect(screen.getByText(accountMessages.invalidCharacters)).toBeTruthy();
    fireEvent.change(username(), { target: { value: 'ada' } });
    expect(screen.queryByText(accountMessages.invalidCharacters)).toBeNull();
  });

  it('says the form is invalid without a username or without the human check, and sends nothing', async () => {
    renderForgotPassword();
    fireEvent.click(submitButton());
    expect(await screen.findByText(formMessages.invalidForm)).toBeTruthy();
    expect(screen.getByText(accountMessages.usernameRequired)).toBeTruthy();
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.click(submitButton());
    await waitFor(() => expect(screen.getAllByText(formMessages.invalidForm).length).toBeGreaterThan(0));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts {username, token} and goes to the code entry, then on to the update-password page', async () => {
    api.on('POST', '/api/account/forgotPassword', ok('cHU=', accountApiMessages.forgotPasswordSent));
    renderForgotPassword();
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Solve the human check' }));
    fireEvent.click(submitButton());

    const query = new URLSearchParams({ pu: 'cHU=', r: '/account/updatePassword' }).toString();
    expect(await screen.findByText(`login page ?${query}`)).toBeTruthy();
    // The same sentence whether or not the account exists.
    expect(screen.getByText(accountApiMessages.forgotPasswordSent)).toBeTruthy();
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/account/forgotPassword');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'ada', token: 'solved-payload' });
  });

  it("toasts the server's reason on failure and resets the human check", async () => {
    api.on('POST', '/api/account/forgotPassword', fail(400, accountApiMessages.humanCheckFailed));
    renderForgotPassword();
    fireEvent.change(username(), { target: { value: 'ada' } });
    const check = screen.getByRole('button', { name: 'Solve the human check' });
    fireEvent.click(check);
    fireEvent.click(submitButton());
    expect(await screen.findByText(accountApiMessages.humanCheckFailed)).toBeTruthy();
    await waitFor(() => expect(check.getAttribute('data-reset-key')).toBe('1'));
    expect(screen.queryByText(/login page/)).toBeNull();
  });

  it("toasts 'Failed to Forgot Password... Please try again.' when the server gives no reason", async () => {
    api.on('POST', '/api/account/forgotPassword', transportError(new TypeError('')));
    renderForgotPassword();
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Solve the human check' }));
    fireEvent.click(submitButton());
    expect(await screen.findByText(accountMessages.forgotPasswordFailed)).toBeTruthy();
  });
});
