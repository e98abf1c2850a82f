import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { useLocation } from 'react-router';
import { accountApiMessages, accountMessages, formMessages } from '#common/messages.ts';
import { loginMessages } from '#common/messages.ts';
import { SignupPage } from '#web/features/signup/signup-page.tsx';
import { AppRoutes } from '#web/routes.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw, type FakeAnswer } from '#web/test/fake-api.ts';

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

const renderSignup = () =>
  renderPage(<SignupPage />, {
    path: '/account/signup',
    routes: { '/account/login': <LoginStandIn /> },
  });

/** A field by its label; the required marker after the label's text is left out. */
function field(label: string): HTMLElement {
  return screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`), { selector: 'input' });
}

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

/** The message shown under a field (Mantine links it with aria-describedby), or null. */
function errorOf(label: string): string | null {
  const input = field(label);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const node = document.getElementById(id);
    if (node?.className.includes('error')) return node.textContent;
  }
  return null;
}

function fillValidForm() {
  type('Username', 'newcomer');
  type('Email', 'newcomer@example.com');
  type('First Name', 'Ada');
  type('Last Name', 'Lovelace');
  type('Password', 'Newcomer#2026');
  type('Password Confirm', 'Newcomer#2026');
}

const submitButton = () => screen.getByRole('button', { name: 'Sign Up' });

afterEach(() => {
  // Toasts live in a store of their own that outlives a render.
  notifications.clean();
});

describe('the sign-up page', () => {
  it('shows every field, the password rules, the human check and a link to login', () => {
    renderSignup();
    for (const label of ['Username', 'Email', 'First Name', 'Last Name', 'Password', 'Password Confirm']) {
      expect(field(label)).toBeTruthy();
    }
    expect(screen.getByText('Your password needs:')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Solve the human check' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/account/login');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
    // A screen reader reads the rules with the password field.
    const described = (field('Password').getAttribute('aria-describedby') ?? '').split(/\s+/);
    expect(described.map((id) => document.getElementById(id)?.textContent).join(' ')).toContain(
      'Your password needs:',
    );
  });

  it('shows no message before a field is touched or changed', () => {
    renderSignup();
    fireEvent.focus(field('Username'));
    expect(errorOf('Username')).toBeNull();
    expect(screen.queryByText(accountMessages.usernameRequired)).toBeNull();
  });

  it('shows a message once a field is left (touched)', () => {
    renderSignup();
    fireEvent.blur(field('Username'));
    expect(errorOf('Username')).toBe(accountMessages.usernameRequired);
    expect(errorOf('Email')).toBeNull();
  });

  it('keeps the message of a field changed and changed back (dirty)', () => {
    renderSignup();
    type('Email', 'a');
    type('Email', '');
    expect(errorOf('Email')).toBe(accountMessages.emailRequired);
  });

  it.each([
    ['Username', 'bad name!', accountMessages.invalidCharacters],
    ['Email', 'not-an-address', accountMessages.emailInvalid],
    ['Email', `${'a'.repeat(245)}@example.com`, accountMessages.emailMax],
    ['First Name', 'x'.repeat(51), accountMessages.firstNameMax],
    ['Last Name', 'x'.repeat(51), accountMessages.lastNameMax],
    ['Password', 'Ab#1', accountMessages.passwordMin],
    ['Password', 'Abcdefg#', accountMessages.passwordNumber],
    ['Password', 'ABCDEFG#1', accountMessages.passwordLowercase],
    ['Password', 'abcdefg#1', accountMessages.passwordUppercase],
    ['Password', 'Abcdefgh1', accountMessages.passwordSymbol],
  ])('%s %j says %j', (label, value, message) => {
    renderSignup();
    type(label, value);
    expect(errorOf(label)).toBe(message);
  });

  it('requires the password and its confirmation', () => {
    renderSignup();
    fireEvent.blur(field('Password'));
    fireEvent.blur(field('Password Confirm'));
    expect(errorOf('Password')).toBe(accountMessages.passwordRequired);
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordConfirmRequired);
  });

  it('accepts names up to 50 characters and leaves them optional', () => {
    renderSignup();
    type('First Name', 'x'.repeat(50));
    fireEvent.blur(field('Last Name'));
    expect(errorOf('First Name')).toBeNull();
    expect(errorOf('Last Name')).toBeNull();
  });

  it('marks the confirmation when it differs from the password, typed in either order', () => {
    renderSignup();
    type('Password', 'Newcomer#2026');
    type('Password Confirm', 'Newcomer#2027');
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordsMustMatch);
    type('Password Confirm', 'Newcomer#2026');
    expect(errorOf('Password Confirm')).toBeNull();
    // Changing the password marks the other field, the confirmation, with the match error.
    type('Password', 'Newcomer#2028');
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordsMustMatch);
    expect(errorOf('Password')).toBeNull();
    type('Password', 'Newcomer#2026');
    expect(errorOf('Password Confirm')).toBeNull();
  });

  it('ticks the password rules as the password meets them', () => {
    renderSignup();
    const rules = () => screen.getByText('Your password needs:').parentElement as HTMLElement;
    expect(within(rules()).getAllByText('(to do)', { exact: false })).toHaveLength(5);
    type('Password', 'abc1');
    expect(within(rules()).getAllByText('(done)', { exact: false })).toHaveLength(2);
    type('Password', 'Newcomer#2026');
    expect(within(rules()).getAllByText('(done)', { exact: false })).toHaveLength(5);
  });

  it('on submit of an invalid form marks every field, says the form is invalid and sends nothing', async () => {
    renderSignup();
    fireEvent.click(submitButton());
    expect(await screen.findByText(formMessages.invalidForm)).toBeTruthy();
    expect(errorOf('Username')).toBe(accountMessages.usernameRequired);
    expect(errorOf('Email')).toBe(accountMessages.emailRequired);
    expect(errorOf('Password')).toBe(accountMessages.passwordRequired);
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordConfirmRequired);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a valid form without the human check', async () => {
    renderSignup();
    fillValidForm();
    fireEvent.click(submitButton());
    expect(await screen.findByText(formMessages.invalidForm)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("posts the spec's body and goes to login's code entry with the server's pu", async () => {
    api.on('POST', '/api/account/signup', ok('cHUtdmFsdWU=', accountApiMessages.signupDone));
    renderSignup();
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Solve the human check' }));
    fireEvent.click(submitButton());

    expect(await screen.findByText(`login page ?pu=${encodeURIComponent('cHUtdmFsdWU=')}`)).toBeTruthy();
    expect(screen.getByText(accountApiMessages.signupDone)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] ?? [];
    expect(path).toBe('/api/account/signup');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      user: {
        username: 'newcomer',
        user_Details: [{ email: 'newcomer@example.com', firstName: 'Ada', lastName: 'Lovelace' }],
      },
      password: 'Newcomer#2026',
      passwordConfirm: 'Newcomer#2026',
      token: 'solved-payload',
    });
  });

  it("toasts the server's reason, resets the human check and needs it solved again", async () => {
    api.on('POST', '/api/account/signup', fail(409, accountApiMessages.usernameTaken));
    renderSignup();
    fillValidForm();
    const check = screen.getByRole('button', { name: 'Solve the human check' });
    expect(check.getAttribute('data-reset-key')).toBe('0');
    fireEvent.click(check);
    fireEvent.click(submitButton());

    expect(await screen.findByText(accountApiMessages.usernameTaken)).toBeTruthy();
    await waitFor(() => expect(check.getAttribute('data-reset-key')).toBe('1'));
    fireEvent.click(submitButton());
    expect(await screen.findByText(formMessages.invalidForm)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("toasts 'Failed to Forgot Password... Please try again.' when the server gives no reason", async () => {
    api.on('POST', '/api/account/signup', raw(new Response('', { status: 502 })));
    renderSignup();
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Solve the human check' }));
    fireEvent.click(submitButton());
    expect(await screen.findByText(accountMessages.forgotPasswordFailed)).toBeTruthy();
  });

  it('sends once however often the button is pressed while the answer is awaited', async () => {
    let answer: (response: FakeAnswer) => void = () => undefined;
    const answered = new Promise<FakeAnswer>((resolve) => (answer = resolve));
    api.on('POST', '/api/account/signup', () => answered);
    renderSignup();
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Solve the human check' }));
    fireEvent.click(submitButton());
    fireEvent.click(submitButton());
    fireEvent.click(submitButton());
    answer(ok('cHU='));
    expect(await screen.findByText(/login page/)).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("lands on the real login page's code entry, which stays there once pu leaves the address", async () => {
    const pu = btoa(
      JSON.stringify({ key: 'k1', allowed2fa: ['Email'], preferred2fa: 'Email', disableSelect2fa: true }),
    );
    api.on('POST', '/api/account/signup', ok(pu, accountApiMessages.signupDone));
    function Where() {
      return <output data-testid="where">{useLocation().search}</output>;
    }
    renderPage(
      <>
        <AppRoutes />
        <Where />
      </>,
      { at: '/account/signup' },
    );
    await screen.findByRole('heading', { name: 'Create your account' });
    fillValidForm();
    fireEvent.click(screen.getByRole('button', { name: 'Solve the human check' }));
    fireEvent.click(submitButton());
    expect(await screen.findByRole('heading', { name: loginMessages.codeTitle })).toBeTruthy();
    // The login page takes pu out of the address (a navigation, which rebuilds the page) and keeps the code entry.
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(''));
    expect(screen.getByRole('heading', { name: loginMessages.codeTitle })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: loginMessages.title })).toBeNull();
    // Pages load lazily through the route table: slower than the other tests here.
  });
});
