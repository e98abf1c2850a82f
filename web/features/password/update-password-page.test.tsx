import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useLocation } from 'react-router';
import type { Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { accountApiMessages, accountMessages, accountPageMessages, formMessages } from '#common/messages.ts';
import { AppRoutes } from '#web/routes.tsx';
import { encodeVerification, readStoredVerification } from '#web/session/storage.ts';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw, type FakeAnswer } from '#web/test/fake-api.ts';

type FetchArgs = [input: string, init: RequestInit];
const api = fakeApi();
const fetchMock = api.fetch;
/** The person signed in; GET /api/account/verify answers it (with the password no longer expired after an update). */
let signedIn: Verification;
/** What POST /api/account/updatePassword answers. */
let updateAnswer: () => FakeAnswer;

let where = '';
function Where() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    where = pathname + search;
  }, [pathname, search]);
  return null;
}

function renderAt(path: string, as: Verification = sampleVerification) {
  signedIn = as;
  localStorage.setItem(SESSION_STORAGE_KEY, encodeVerification(as));
  return renderPage(
    <>
      <AppRoutes />
      <Where />
    </>,
    { at: path },
  );
}

function calls(path: string): FetchArgs[] {
  return fetchMock.mock.calls.filter(([url]) => url === path);
}

/** A field by its label; the required marker after the label's text is left out. */
function field(label: string): HTMLElement {
  return screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`), { selector: 'input' });
}

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

/** The message shown under a field (Mantine links it with aria-describedby), or null. */
function errorOf(label: string): string | null {
  const ids = (field(label).getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const node = document.getElementById(id);
    if (node?.className.includes('error')) return node.textContent;
  }
  return null;
}

async function submitNewPassword() {
  await screen.findByRole('heading', { name: 'Update your password' });
  type('Password', 'Renewed#2026');
  type('Password Confirm', 'Renewed#2026');
  fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
}

beforeEach(() => {
  where = '';
  updateAnswer = () => ok(null, accountApiMessages.passwordUpdated);
  api.on('GET', '/api/account/verify', () => ok(signedIn));
  api.on('POST', '/api/account/updatePassword', () => {
    signedIn = { ...signedIn, user: { ...signedIn.user, passwordExpired: false } };
    return updateAnswer();
  });
});

afterEach(() => {
  // Toasts live in a store of their own that outlives a render.
  notifications.clean();
  localStorage.clear();
});

describe('the update-password page', () => {
  it("warns 'Password has expired. Please create a new one.' when the address says expired=true", async () => {
    renderAt('/account/updatePassword?expired=true');
    expect(await screen.findByText(accountMessages.passwordExpired)).toBeTruthy();
    expect(screen.getByText(/Choose a new password for ada/)).toBeTruthy();
  });

  it('does not warn without expired=true', async () => {
    renderAt('/account/updatePassword');
    await screen.findByRole('heading', { name: 'Update your password' });
    expect(screen.queryByText(accountMessages.passwordExpired)).toBeNull();
  });

  it("checks the new password by the contract's rules, once touched or changed", async () => {
    renderAt('/account/updatePassword');
    await screen.findByRole('heading', { name: 'Update your password' });
    expect(errorOf('Password')).toBeNull();
    fireEvent.blur(field('Password'));
    expect(errorOf('Password')).toBe(accountMessages.passwordRequired);
    for (const [value, message] of [
      ['Ab#1', accountMessages.passwordMin],
      ['Abcdefg#', accountMessages.passwordNumber],
      ['ABCDEFG#1', accountMessages.passwordLowercase],
      ['abcdefg#1', accountMessages.passwordUppercase],
      ['Abcdefgh1', accountMessages.passwordSymbol],
    ] as const) {
      type('Password', value);
      expect(errorOf('Password')).toBe(message);
    }
    fireEvent.blur(field('Password Confirm'));
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordConfirmRequired);
  });

  it('marks the confirmation when the two differ, whichever field changed last', async () => {
    renderAt('/account/updatePassword');
    await screen.findByRole('heading', { name: 'Update your password' });
    type('Password Confirm', 'Renewed#2026');
    type('Password', 'Renewed#2027');
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordsMustMatch);
    type('Password', 'Renewed#2026');
    expect(errorOf('Password Confirm')).toBeNull();
    type('Password Confirm', 'Renewed#2025');
    expect(errorOf('Password Confirm')).toBe(accountMessages.passwordsMustMatch);
  });

  it('says the form is invalid and sends nothing when a rule is broken', async () => {
    renderAt('/account/updatePassword');
    await screen.findByRole('heading', { name: 'Update your password' });
    fireEvent.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText(formMessages.invalidForm)).toBeTruthy();
    expect(errorOf('Password')).toBe(accountMessages.passwordRequired);
    expect(calls('/api/account/updatePassword')).toHaveLength(0);
  });

  it('posts the password and its confirmation, verifies the session again and goes to a safe r', async () => {
    renderAt('/account/updatePassword?expired=true&r=%2Fcontact-us', {
      ...sampleVerification,
      user: { ...sampleVerification.user, passwordExpired: true },
    });
    await submitNewPassword();
    await waitFor(() => expect(where).toBe('/contact-us'));
    // The toast may come a render after the address changes (seen on a loaded machine).
    expect(await screen.findByText(accountApiMessages.passwordUpdated)).toBeTruthy();
    const [, init] = calls('/api/account/updatePassword')[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      password: 'Renewed#2026',
      passwordConfirm: 'Renewed#2026',
    });
    // Start-up, then again after the update: the stored session no longer says the password must change.
    expect(calls('/api/account/verify')).toHaveLength(2);
    expect(readStoredVerification()?.user.passwordExpired).toBe(false);
  });

  it('goes to the account page without r, and ignores an r to another site', async () => {
    renderAt('/account/updatePassword?r=%2F%2Fevil.example');
    await submitNewPassword();
    await waitFor(() => expect(where).toBe('/account'));
  });

  it('takes an administrator to the admin area', async () => {
    renderAt('/account/updatePassword', adminVerification);
    await submitNewPassword();
    await waitFor(() => expect(where).toBe('/admin/home'));
  });

  it('asks for the current password when the server wants a recent sign-in, then saves the new one', async () => {
    let refusals = 1;
    updateAnswer = () =>
      refusals-- > 0
        ? fail(403, accountApiMessages.reauthRequired)
        : ok(null, accountApiMessages.passwordUpdated);
    renderAt('/account/updatePassword');
    await submitNewPassword();
    const dialog = await screen.findByRole('dialog', { name: accountPageMessages.reauthTitle });
    expect(where).toBe('/account/updatePassword');
    api.once('POST', '/api/account/reauth', ok(null, accountApiMessages.reauthDone));
    fireEvent.change(within(dialog).getByLabelText(accountPageMessages.reauthPassword), {
      target: { value: 'Current#Pass1' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: accountPageMessages.reauthConfirm }));
    await waitFor(() => expect(calls('/api/account/updatePassword')).toHaveLength(2));
    expect(calls('/api/account/reauth')).toHaveLength(1);
    await waitFor(() => expect(where).toBe('/account'));
  });

  it("toasts 'Failed to Update Password... Please try again.' when the server gives no reason", async () => {
    updateAnswer = () => raw(new Response('not json', { status: 500 }));
    renderAt('/account/updatePassword');
    await submitNewPassword();
    expect(await screen.findByText(accountMessages.updatePasswordFailed)).toBeTruthy();
    expect(where).toBe('/account/updatePassword');
  });

  it('is for signed-in people only', async () => {
    renderPage(
      <>
        <AppRoutes />
        <Where />
      </>,
      { at: '/account/updatePassword' },
    );
    await waitFor(() => expect(where).toBe('/error/unauthorized'));
  });
});
