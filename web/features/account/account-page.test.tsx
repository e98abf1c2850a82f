import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { AccountRole, User } from '#common/contract/account.ts';
import type { SocialProviders } from '#common/contract/social.ts';
import {
  accountApiMessages as am,
  accountMessages as m,
  accountPageMessages as pm,
  adminMessages,
  socialMessages as sm,
} from '#common/messages.ts';
import { sampleVerification } from '#web/session/test-session.ts';
import { AccountPage } from './account-page.tsx';
import { fakeSession, renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

// A page with modals and a router is slow to render in jsdom on a shared machine.

// The Security section is another piece with its own tests; here it only has to be where the page puts it.
vi.mock('#web/features/account/security/security-section.tsx', () => ({
  SecuritySection: () => <section aria-label="Security">Security section</section>,
}));

const api = fakeApi();
const fetchMock = api.fetch;

const ada: User = {
  ...sampleVerification.user,
  user_Details: [
    {
      email: 'ada@example.com',
      emailVerified: true,
      dateEmailVerified: '2026-01-01T00:00:00.000Z',
      phone: null,
      phoneVerified: false,
      datePhoneVerified: null,
      totp: false,
      totpVerified: false,
      dateTotpVerified: null,
      firstName: 'Ada',
      lastName: 'Lovelace',
      preferred2fa: 'Email',
    },
  ],
};
const roles: AccountRole[] = [
  { Id: 3, Name: 'User', Role_Links: [{ Id: 1, RoleId: 3, Link: '/account/*' }] },
];
const noProviders: SocialProviders = { configured: [], linked: [], hasPassword: true };

function saved(body: unknown): User {
  const request = body as {
    user_Details?: { firstName: string; lastName: string }[];
    user_Images?: User['user_Images'];
  };
  const detail = ada.user_Details[0];
  if (!detail) throw new Error('no detail');
  return {
    ...ada,
    user_Details: [{ ...detail, ...request.user_Details?.[0] }],
    user_Images: request.user_Images ?? ada.user_Images,
  };
}

function calls(method: string, url: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([u, init]) => u === url && (init.method ?? 'GET') === method)
    .map(([, init]) => (init.body ? JSON.parse(String(init.body)) : undefined));
}

const signOut = vi.fn();

const renderAccount = (at = '/account') =>
  renderPage(<AccountPage />, {
    at,
    path: '/account',
    routes: {
      '/account/updatePassword': <h1>Update password page</h1>,
      '/home': <h1>Home page</h1>,
      '/account/logout': <h1>Logout page</h1>,
    },
    session: fakeSession(sampleVerification, { signOut }),
  }).router;

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label, { selector: 'input' });
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
const imageInput = () => screen.getByLabelText<HTMLInputElement>(pm.chooseImage, { selector: 'input' });
const choose = (file: File) => fireEvent.change(imageInput(), { target: { files: [file] } });

beforeEach(() => {
  notifications.clean();
  signOut.mockReset();
  api.on('GET', '/api/account', ok(ada));
  api.on('GET', '/api/account/roles', ok(roles));
  api.on('GET', '/api/account/providers', ok(noProviders));
  api.on('POST', '/api/account', (request) => ok(saved(request.body), m.userUpdated));
});

describe('the account page', () => {
  it('shows the details: username, read-only email, password link, names, roles, and the Security section', async () => {
    renderAccount();
    expect(await screen.findByRole('heading', { name: pm.detailsTitle })).toBeTruthy();
    expect(field(pm.username).value).toBe('ada');
    expect(field(pm.username).readOnly).toBe(true);
    expect(field(pm.email).value).toBe('ada@example.com');
    expect(field(pm.email).readOnly).toBe(true);
    expect(field(pm.firstName).value).toBe('Ada');
    expect(field(pm.lastName).value).toBe('Lovelace');
    expect(screen.getByRole('link', { name: pm.changePassword }).getAttribute('href')).toBe(
      '/account/updatePassword',
    );
    const roleList = await screen.findByRole('list', { name: pm.roles });
    expect(within(roleList).getByText('User')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Security' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: pm.deleteTitle })).toBeTruthy();
    expect(screen.getByText(pm.deleteWarning)).toBeTruthy();
    // No provider set up: one quiet line instead of buttons that cannot work.
    expect(await screen.findByText(pm.socialNone)).toBeTruthy();
    expect(button(pm.save).disabled).toBe(true);
  });

  it("shows the contract's messages for names over 50 characters and does not send them", async () => {
    renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.change(field(pm.firstName), { target: { value: 'x'.repeat(51) } });
    fireEvent.change(field(pm.lastName), { target: { value: 'y'.repeat(51) } });
    expect(await screen.findByText(m.firstNameMax)).toBeTruthy();
    expect(screen.getByText(m.lastNameMax)).toBeTruthy();
    fireEvent.click(button(pm.save));
    await act(() => Promise.resolve());
    expect(calls('POST', '/api/account')).toHaveLength(0);
    fireEvent.change(field(pm.firstName), { target: { value: 'x'.repeat(50) } });
    await waitFor(() => expect(screen.queryByText(m.firstNameMax)).toBeNull());
  });

  it("saves the names with 'Successfully updated user.' and is clean again", async () => {
    renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.change(field(pm.firstName), { target: { value: '  Augusta ' } });
    expect(screen.getByText(pm.pendingChanges)).toBeTruthy();
    fireEvent.click(button(pm.save));
    expect(await screen.findByText(m.userUpdated)).toBeTruthy();
    expect(calls('POST', '/api/account')).toEqual([
      { user_Details: [{ firstName: 'Augusta', lastName: 'Lovelace' }] },
    ]);
    await waitFor(() => expect(field(pm.firstName).value).toBe('Augusta'));
    expect(button(pm.save).disabled).toBe(true);
    expect(screen.queryByText(pm.pendingChanges)).toBeNull();
  });

  it("says 'Failed to update user.' with the server's reason when the save fails, and keeps the edit", async () => {
    api.on('POST', '/api/account', fail(400, am.imageUnreadable));
    renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.change(field(pm.lastName), { target: { value: 'Byron' } });
    fireEvent.click(button(pm.save));
    expect(await screen.findByText(m.userUpdateFailed)).toBeTruthy();
    expect(screen.getByText(am.imageUnreadable)).toBeTruthy();
    expect(field(pm.lastName).value).toBe('Byron');
    expect(button(pm.save).disabled).toBe(false);
  });

  it('Discard changes puts the saved values back', async () => {
    renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.change(field(pm.firstName), { target: { value: 'Other' } });
    fireEvent.click(button(pm.discard));
    expect(field(pm.firstName).value).toBe('Ada');
    expect(button(pm.save).disabled).toBe(true);
  });
});

describe('the profile image', () => {
  it('refuses a file of another type, and one over 1 MB, with a sentence saying why', async () => {
    renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    choose(new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }));
    expect((await screen.findByRole('alert')).textContent).toBe(am.imageType);
    choose(new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(am.imageTooLarge(1)));
    expect(button(pm.save).disabled).toBe(true);
  });

  it('previews a chosen PNG and saves it as base64 without the data-URL prefix', async () => {
    renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 9]);
    const base64 = btoa(String.fromCharCode(...bytes));
    choose(new File([bytes], 'me.png', { type: 'image/png' }));
    const preview = await screen.findByRole('img', { name: pm.profileImage });
    expect(preview.getAttribute('src')).toBe(`data:image/png;base64,${base64}`);
    expect(screen.getByText(pm.imageNotSaved)).toBeTruthy();
    fireEvent.click(button(pm.save));
    expect(await screen.findByText(m.userUpdated)).toBeTruthy();
    expect(calls('POST', '/api/account')).toEqual([
      {
        user_Details: [{ firstName: 'Ada', lastName: 'Lovelace' }],
        user_Images: [{ image: base64, fileName: 'me.png', fileType: 'image/png' }],
      },
    ]);
  });

  it('removes the saved image with Remove image and Save (an empty list)', async () => {
    api.on(
      'GET',
      '/api/account',
      ok({ ...ada, user_Images: [{ image: 'AAAA', fileName: 'profile.png', fileType: 'image/png' }] }),
    );
    renderAccount();
    const preview = await screen.findByRole('img', { name: pm.profileImage });
    expect(preview.getAttribute('src')).toBe('data:image/png;base64,AAAA');
    fireEvent.click(button(pm.removeImage));
    await waitFor(() => expect(screen.queryByRole('img', { name: pm.profileImage })).toBeNull());
    fireEvent.click(button(pm.save));
    await screen.findByText(m.userUpdated);
    expect(calls('POST', '/api/account')).toEqual([
      { user_Details: [{ firstName: 'Ada', lastName: 'Lovelace' }], user_Images: [] },
    ]);
  });
});

describe('pending changes on the account page', () => {
  it("blocks leaving the page with 'Cannot switch pages with pending changes.', and lets go once saved", async () => {
    const router = renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.change(field(pm.firstName), { target: { value: 'Augusta' } });
    fireEvent.click(screen.getByRole('link', { name: pm.changePassword }));
    expect(await screen.findByText(adminMessages.cannotSwitchPages)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account');

    fireEvent.click(button(pm.save));
    await screen.findByText(m.userUpdated);
    fireEvent.click(screen.getByRole('link', { name: pm.changePassword }));
    expect(await screen.findByRole('heading', { name: 'Update password page' })).toBeTruthy();
  });

  it('an image chosen but not saved is a pending change too', async () => {
    const router = renderAccount();
    await screen.findByRole('heading', { name: pm.detailsTitle });
    choose(new File([new Uint8Array([1, 2, 3])], 'me.webp', { type: 'image/webp' }));
    await screen.findByText(pm.imageNotSaved);
    fireEvent.click(screen.getByRole('link', { name: pm.changePassword }));
    expect(await screen.findByText(adminMessages.cannotSwitchPages)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account');
  });
});

describe('Delete Account', () => {
  async function openConfirmation() {
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.click(button(pm.deleteButton));
    return screen.findByRole('dialog', { name: pm.deleteConfirmTitle });
  }

  it('asks first, and Cancel deletes nothing', async () => {
    renderAccount();
    const dialog = await openConfirmation();
    expect(within(dialog).getByText(pm.deleteConfirmMessage)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: pm.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('DELETE', '/api/account/delete')).toHaveLength(0);
  });

  it('confirmed, asks for the password when the server wants it, deletes, and leaves through /account/logout', async () => {
    api.once('DELETE', '/api/account/delete', fail(403, am.reauthRequired));
    api.on('DELETE', '/api/account/delete', ok(null, am.accountDeleted));
    api.on('POST', '/api/account/reauth', ok(null, am.reauthDone));
    const router = renderAccount();
    // Unsaved edits do not hold a deleted account on the page.
    await screen.findByRole('heading', { name: pm.detailsTitle });
    fireEvent.change(field(pm.firstName), { target: { value: 'Augusta' } });
    const dialog = await openConfirmation();
    fireEvent.click(within(dialog).getByRole('button', { name: pm.deleteConfirm }));
    const reauth = await screen.findByRole('dialog', { name: pm.reauthTitle });
    fireEvent.change(within(reauth).getByLabelText(pm.reauthPassword), { target: { value: 'Secret#123' } });
    fireEvent.click(within(reauth).getByRole('button', { name: pm.reauthConfirm }));
    expect(await screen.findByRole('heading', { name: 'Logout page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account/logout');
    expect(calls('DELETE', '/api/account/delete')).toHaveLength(2);
    expect(calls('POST', '/api/account/reauth')).toEqual([{ password: 'Secret#123' }]);
    expect(await screen.findByText(am.accountDeleted)).toBeTruthy();
  });

  it("refused (the only administrator, 409): 'Failed to delete user.' with the server's reason, and stays", async () => {
    api.on('DELETE', '/api/account/delete', fail(409, am.lastAdministrator));
    const router = renderAccount();
    const dialog = await openConfirmation();
    fireEvent.click(within(dialog).getByRole('button', { name: pm.deleteConfirm }));
    expect(await screen.findByText(m.userDeleteFailed)).toBeTruthy();
    expect(screen.getByText(am.lastAdministrator)).toBeTruthy();
    expect(signOut).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/account');
  });
});

describe('linked sign-in accounts', () => {
  it('lists the configured providers; Link goes to the URL the server answers, Unlink removes one', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    api.once(
      'GET',
      '/api/account/providers',
      ok({
        configured: ['google', 'facebook'],
        linked: [
          {
            provider: 'facebook',
            email: 'ada@fb.example',
            linkedAt: '2026-02-01T00:00:00.000Z',
            lastUsedAt: null,
          },
        ],
        hasPassword: true,
      }),
    );
    api.on(
      'GET',
      '/api/account/providers',
      ok({ configured: ['google', 'facebook'], linked: [], hasPassword: true }),
    );
    api.on('POST', '/api/account/providers/google/link', ok({ url: 'https://accounts.example/auth?x=1' }));
    api.on(
      'DELETE',
      '/api/account/providers/facebook',
      ok(null, 'Facebook is no longer linked to your account.'),
    );
    renderAccount();
    fireEvent.click(await screen.findByRole('button', { name: pm.socialLink('Google') }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.example/auth?x=1'));
    expect(screen.queryByRole('button', { name: pm.socialLink('Microsoft') })).toBeNull();

    fireEvent.click(button(pm.socialUnlink('Facebook')));
    expect(await screen.findByText('Facebook is no longer linked to your account.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: pm.socialLink('Facebook') })).toBeTruthy();
  });
});

describe('the outcome of linking a provider, in the address', () => {
  it('shows that the provider is linked, then drops it from the address', async () => {
    const router = renderAccount('/account?linked=google');
    expect(await screen.findByText(sm.linked('Google'))).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('names the OpenID Connect provider by the label the server reports, in the card and the toast', async () => {
    api.on(
      'GET',
      '/api/account/providers',
      ok({
        configured: ['oidc'],
        labels: { oidc: 'Acme account' },
        linked: [
          {
            provider: 'oidc',
            email: 'ada@acme.example',
            linkedAt: '2026-02-01T00:00:00.000Z',
            lastUsedAt: null,
          },
        ],
        hasPassword: true,
      }),
    );
    const router = renderAccount('/account?linked=oidc');
    expect(await screen.findByText(sm.linked('Acme account'))).toBeTruthy();
    expect(await screen.findByRole('button', { name: pm.socialUnlink('Acme account') })).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("shows the callback's failure as it is", async () => {
    const router = renderAccount(`/account?error=${encodeURIComponent(sm.linkedElsewhere('Google'))}`);
    expect(await screen.findByText(sm.linkedElsewhere('Google'))).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
