import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Suspense, type ReactNode } from 'react';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { Route, Routes, useLocation } from 'react-router';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import {
  accountApiMessages,
  accountMessages,
  formMessages,
  loginMessages as lm,
  twoFactorMessages as tm,
} from '#common/messages.ts';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';
import { LoginPage } from './login-page.tsx';
import { fakeSession, renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

// The real widget solves a proof of work in a worker; a button stands in for it (web/test/human-check-stand-in.tsx).
vi.mock('#web/ui/human-check.tsx', async () =>
  (await import('#web/test/human-check-stand-in.tsx')).humanCheckStandIn('solved'),
);

const api = fakeApi();
const fetchMock = api.fetch;

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}

/** A page whose code never arrives: React keeps the login page on screen while it waits (a navigation is a
 * transition), as the browser does while the landing page's code loads. */
function NeverLoads(): ReactNode {
  throw new Promise(() => undefined);
}

const signIn = vi.fn();
const renderLogin = (
  entry = '/account/login',
  verification: Verification | null = null,
  elsewhere: ReactNode = <p>elsewhere</p>,
) =>
  renderPage(
    <>
      {/* Already on screen, as the site layout's is: a page that suspends leaves the login page up meanwhile. */}
      <Suspense fallback={<p>loading</p>}>
        <Routes>
          <Route path="/account/login" element={<LoginPage />} />
          <Route path="*" element={elsewhere} />
        </Routes>
      </Suspense>
      <Where />
    </>,
    { at: entry, session: fakeSession(verification, { signIn, reverify: () => Promise.resolve(false) }) },
  );

const emailOnly: PreSignIn = {
  key: 'k1',
  allowed2fa: ['Email'],
  preferred2fa: 'Email',
  disableSelect2fa: true,
};
const pu = (value: PreSignIn) => encodeURIComponent(btoa(JSON.stringify(value)));
const username = () => screen.getByRole('textbox', { name: lm.username });
const password = () => screen.getByLabelText(new RegExp(`^${lm.password}`), { selector: 'input' });
const loginButton = () => screen.getByRole('button', { name: lm.login });
const paste = (element: HTMLElement, text: string) =>
  fireEvent.paste(element, { clipboardData: { getData: () => text } });

beforeEach(() => {
  signIn.mockReset();
  // No provider is set up unless a test says otherwise.
  api.on('GET', '/api/account/providers', ok({ configured: [], linked: [], hasPassword: null }));
});
afterEach(() => {
  notifications.clean();
});

describe('the login page', () => {
  it('sends someone already signed in to their home page, but stays with a return address', async () => {
    renderLogin('/account/login', sampleVerification);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/account'));
    cleanup();
    renderLogin('/account/login', adminVerification);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/admin/home'));
    cleanup();
    // The 401 page's Login: this account may not open /admin/users, so the form stays to sign in as another.
    renderLogin('/account/login?r=%2Fadmin%2Fusers', sampleVerification);
    expect(await screen.findByRole('button', { name: lm.login })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/account/login?r=%2Fadmin%2Fusers');
  });

  it('has the fields, links, human check and buttons of the spec', () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: lm.title })).toBeTruthy();
    expect(username()).toBeTruthy();
    expect(password()).toBeTruthy();
    expect(screen.getByRole('link', { name: lm.forgotPassword }).getAttribute('href')).toBe(
      '/account/forgotPassword',
    );
    expect(screen.getByRole('link', { name: lm.signup }).getAttribute('href')).toBe('/account/signup');
    expect(screen.getByTestId('human-check')).toBeTruthy();
    expect(screen.getByRole('button', { name: lm.passkey })).toBeTruthy();
  });

  it('shows only the social buttons of configured providers, carrying r', async () => {
    api.on('GET', '/api/account/providers', ok({ configured: ['google'], linked: [], hasPassword: null }));
    renderLogin('/account/login?r=%2Faccount');
    const google = await screen.findByRole('link', { name: lm.social('Google') });
    expect(google.getAttribute('href')).toBe('/api/account/login/google?r=%2Faccount');
    expect(screen.queryByRole('link', { name: lm.social('Microsoft') })).toBeNull();
    expect(screen.queryByRole('link', { name: lm.social('Facebook') })).toBeNull();
  });

  it('shows the OpenID Connect provider under the label the server reports, beside the named ones', async () => {
    api.on(
      'GET',
      '/api/account/providers',
      ok({
        configured: ['google', 'oidc'],
        labels: { google: 'Google', oidc: 'Acme account' },
        linked: [],
        hasPassword: null,
      }),
    );
    renderLogin('/account/login?r=%2Faccount');
    const sso = await screen.findByRole('link', { name: lm.social('Acme account') });
    expect(sso.getAttribute('href')).toBe('/api/account/login/oidc?r=%2Faccount');
    expect(screen.getByRole('link', { name: lm.social('Google') })).toBeTruthy();
    expect(screen.queryByRole('link', { name: lm.social(lm.socialNames.oidc) })).toBeNull();
  });

  it("says 'Invalid form...' with the contract's field messages, and sends nothing", async () => {
    renderLogin();
    fireEvent.click(loginButton());
    expect(await screen.findByText(formMessages.invalidForm)).toBeTruthy();
    expect(screen.getByText(accountMessages.usernameRequired)).toBeTruthy();
    expect(screen.getByText(accountMessages.passwordRequired)).toBeTruthy();
    // Filled in, but the human check is not solved: still invalid.
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.change(password(), { target: { value: 'secret' } });
    fireEvent.click(loginButton());
    await waitFor(() => expect(screen.getAllByText(formMessages.invalidForm).length).toBeGreaterThan(0));
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/account/login')).toBe(false);
    fireEvent.change(username(), { target: { value: 'ada lovelace' } });
    fireEvent.blur(username());
    expect(await screen.findByText(accountMessages.invalidCharacters)).toBeTruthy();
  });

  it('resets the human check after a refused password and shows the server message', async () => {
    api.on('POST', '/api/account/login', fail(401, accountMessages.loginFailed));
    renderLogin();
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.change(password(), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByTestId('human-check'));
    expect(screen.getByTestId('human-check').getAttribute('data-reset-key')).toBe('0');
    fireEvent.click(loginButton());
    expect(await screen.findByText(accountMessages.loginFailed)).toBeTruthy();
    expect(screen.getByTestId('human-check').getAttribute('data-reset-key')).toBe('1');
    const sent = fetchMock.mock.calls.find(([url]) => String(url) === '/api/account/login');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      username: 'ada',
      password: 'wrong',
      token: 'solved',
    });
  });

  it('goes from the password to the code, then signs in and lands on the return address', async () => {
    api.on('POST', '/api/account/login/verify', ok(sampleVerification));
    api.on('POST', '/api/account/login', ok(emailOnly));
    renderLogin('/account/login?r=%2Fcontact-us');
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.change(password(), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByTestId('human-check'));
    fireEvent.click(loginButton());
    expect(await screen.findByRole('heading', { name: lm.codeTitle })).toBeTruthy();
    expect(screen.getByRole('timer', { name: tm.codeExpiresIn }).textContent).toMatch(/^1[45]:\d\d$/);
    expect(screen.getByRole('button', { name: /^Resend in 1:00|^Resend in 0:5\d/ })).toBeTruthy();
    paste(screen.getByLabelText(tm.codeDigit(1, 6)), '123456');
    await waitFor(() => expect(signIn).toHaveBeenCalledWith(sampleVerification));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/contact-us'));
  });

  it('goes straight to the code entry from pu, and an administrator lands on /admin/home', async () => {
    api.on('POST', '/api/account/login/verify', ok(adminVerification));
    renderLogin(`/account/login?pu=${pu(emailOnly)}`);
    expect(await screen.findByRole('heading', { name: lm.codeTitle })).toBeTruthy();
    // The key leaves the address once read.
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/account/login'));
    paste(screen.getByLabelText(tm.codeDigit(1, 6)), '123456');
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/admin/home'));
    const sent = fetchMock.mock.calls.find(([url]) => String(url) === '/api/account/login/verify');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ key: 'k1', otp: '123456', selected2fa: 'Email' });
  });

  it('keeps Verify disabled once the code signed in, while the landing page loads (issue 32)', async () => {
    let verifies = 0;
    api.on('POST', '/api/account/login/verify', () =>
      // The code works once: a second verify of it is refused.
      ++verifies === 1 ? ok(sampleVerification) : fail(401, accountMessages.otpFailed),
    );
    renderLogin(`/account/login?pu=${pu(emailOnly)}`, null, <NeverLoads />);
    paste(await screen.findByLabelText(tm.codeDigit(1, 6)), '123456');
    await waitFor(() => expect(signIn).toHaveBeenCalledWith(sampleVerification));
    // The sign-in's work settles (the navigation to /account has started and waits for its page).
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    // The page is still on screen; the person clicks Verify.
    const verify = screen.getByRole('button', { name: tm.verify }) as HTMLButtonElement;
    expect(verify.disabled).toBe(true);
    fireEvent.click(verify);
    fireEvent.submit(verify.closest('form') as HTMLFormElement);
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(verifies).toBe(1);
    expect(screen.queryByText(accountMessages.otpFailed)).toBeNull();
  });

  it("says 'Failed to validate OTP.' for a wrong code and empties the entry", async () => {
    api.on('POST', '/api/account/login/verify', fail(401, accountMessages.otpFailed));
    renderLogin(`/account/login?pu=${pu(emailOnly)}`);
    paste(await screen.findByLabelText(tm.codeDigit(1, 6)), '654321');
    expect(await screen.findByText(accountMessages.otpFailed)).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByLabelText(tm.codeDigit(1, 6)) as HTMLInputElement).value).toBe(''),
    );
    expect(signIn).not.toHaveBeenCalled();
  });

  it('forces an expired password to the update-password page', async () => {
    const expired = {
      ...sampleVerification,
      user: { ...sampleVerification.user, passwordExpired: true },
    };
    api.on('POST', '/api/account/login/verify', ok(expired));
    renderLogin(`/account/login?pu=${pu(emailOnly)}&r=%2Faccount`);
    paste(await screen.findByLabelText(tm.codeDigit(1, 6)), '123456');
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        '/account/updatePassword?expired=true&r=%2Faccount',
      ),
    );
  });

  it('switches to a recovery code and sends selected2fa Recovery', async () => {
    const withRecovery: PreSignIn = {
      ...emailOnly,
      allowed2fa: ['Email', 'Recovery'],
      disableSelect2fa: true,
    };
    api.on('POST', '/api/account/login/verify', ok(sampleVerification));
    renderLogin(`/account/login?pu=${pu(withRecovery)}`);
    fireEvent.click(await screen.findByRole('button', { name: lm.useRecoveryCode }));
    const entry = screen.getByRole('textbox', { name: tm.recoveryLabel });
    expect(screen.queryByRole('button', { name: /Resend/ })).toBeNull();
    fireEvent.change(entry, { target: { value: 'ABCDE-12345' } });
    fireEvent.click(screen.getByRole('button', { name: tm.verify }));
    await waitFor(() => expect(signIn).toHaveBeenCalled());
    const sent = fetchMock.mock.calls.find(([url]) => String(url) === '/api/account/login/verify');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      key: 'k1',
      otp: 'abcde12345',
      selected2fa: 'Recovery',
    });
  });

  it('offers the method choice, sends a code for a newly chosen method, and hides resend for the app', async () => {
    const several: PreSignIn = {
      key: 'k2',
      allowed2fa: ['Email', 'Phone', 'Totp'],
      preferred2fa: 'Email',
      disableSelect2fa: false,
    };
    api.on('POST', '/api/account/login/resend', ok(null, 'A new code was sent.'));
    api.on('POST', '/api/account/login', ok(several));
    renderLogin();
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.change(password(), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByTestId('human-check'));
    fireEvent.click(loginButton());
    expect(await screen.findByRole('heading', { name: lm.chooseTitle })).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^Email/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /^Phone/ }));
    fireEvent.click(screen.getByRole('button', { name: lm.continue }));
    expect(await screen.findByText('A new code was sent.')).toBeTruthy();
    const resent = fetchMock.mock.calls.find(([url]) => String(url) === '/api/account/login/resend');
    expect(JSON.parse(String(resent?.[1]?.body))).toEqual({ key: 'k2', selected2fa: 'Phone' });
    // Phone has no countdown (the spec's is the email's), but its resend is locked.
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByRole('button', { name: /^Resend in/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: lm.useAnotherMethod }));
    fireEvent.click(screen.getByRole('radio', { name: /^App/ }));
    fireEvent.click(screen.getByRole('button', { name: lm.continue }));
    expect(await screen.findByText(lm.codeIntro.Totp)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Resend/ })).toBeNull();
  });

  it('shows the error query as a toast and takes it out of the address', async () => {
    renderLogin('/account/login?error=Sign-in%20with%20Google%20was%20cancelled.&r=%2Faccount');
    expect(await screen.findByText('Sign-in with Google was cancelled.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/account/login?r=%2Faccount'));
  });

  it('signs in with a second-step link after the password and lands on the account page', async () => {
    api.on('POST', '/api/account/login', ok(emailOnly));
    api.on('POST', '/api/account/login/link', ok(sampleVerification));
    renderLogin('/account/login?r=%2Faccount&reset2fa=t0ken');
    expect(await screen.findByText(lm.secondStepLinkIntro)).toBeTruthy();
    // The token leaves the address once read.
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/account/login?r=%2Faccount'));
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.change(password(), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByTestId('human-check'));
    fireEvent.click(loginButton());
    await waitFor(() => expect(signIn).toHaveBeenCalledWith(sampleVerification));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/account'));
    expect(api.requests('POST', '/api/account/login/link').map((r) => r.body)).toEqual([
      { key: 'k1', link: 't0ken' },
    ]);
  });

  it('goes on with the account’s own second step when the link is refused', async () => {
    api.on('POST', '/api/account/login', ok(emailOnly));
    api.on('POST', '/api/account/login/link', fail(401, accountApiMessages.secondStepLinkInvalid));
    renderLogin('/account/login?r=%2Faccount&reset2fa=spent');
    fireEvent.change(username(), { target: { value: 'ada' } });
    fireEvent.change(password(), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByTestId('human-check'));
    fireEvent.click(loginButton());
    expect(await screen.findByText(accountApiMessages.secondStepLinkInvalid)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: lm.codeTitle })).toBeTruthy();
    expect(signIn).not.toHaveBeenCalled();
  });

  it('says so when pu is not a sign-in, and asks for the password', async () => {
    renderLogin('/account/login?pu=garbage');
    expect(await screen.findByText(lm.preSignInInvalid)).toBeTruthy();
    expect(screen.getByRole('heading', { name: lm.title })).toBeTruthy();
  });
});
