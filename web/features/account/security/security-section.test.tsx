import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User, UserDetail } from '#common/contract/account.ts';
import { accountMessages as m, securityMessages as sm, twoFactorMessages as tm } from '#common/messages.ts';
import { ReauthContext } from '#web/features/account/reauth/reauth-context.ts';
import { sampleVerification } from '#web/session/test-session.ts';
import { groupedKey } from './totp-key.tsx';
import { SecuritySection } from './security-section.tsx';
import type { HttpMethod } from '#web/api/client.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, type FakeAnswer } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;

const blankDetail: UserDetail = {
  email: 'ada@example.com',
  emailVerified: false,
  dateEmailVerified: null,
  phone: null,
  phoneVerified: false,
  datePhoneVerified: null,
  totp: false,
  totpVerified: false,
  dateTotpVerified: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  preferred2fa: null,
};

function userWith(detail: Partial<UserDetail>, extra: Partial<User> = {}): User {
  return { ...sampleVerification.user, user_Details: [{ ...blankDetail, ...detail }], ...extra };
}

const refused = (message: string, status = 400) => fail(status, message);

/** The user GET /api/account answers; a verify route changes it as the server would. */
let currentUser: User;

/** Answers GET /api/account with the current user, GET passkeys with none, and `routes` for the rest (by method
 * and path). */
function serve(user: User, routes: Record<string, () => FakeAnswer> = {}) {
  currentUser = user;
  api.on('GET', '/api/account', () => ok(currentUser));
  api.on('GET', '/api/account/passkeys', ok([]));
  for (const [key, answer] of Object.entries(routes)) {
    const [method, path] = key.split(' ') as [HttpMethod, string];
    api.on(method, path, answer);
  }
}

const confirm = vi.fn(async () => true);
const renderSection = () =>
  renderPage(
    <ReauthContext.Provider value={{ confirm }}>
      <SecuritySection />
    </ReauthContext.Provider>,
  );

const card = (name: string) => screen.findByRole('region', { name });
const calls = (key: string) =>
  fetchMock.mock.calls.filter(([input, init]) => `${init?.method ?? 'GET'} ${input}` === key);

beforeEach(() => {
  confirm.mockClear();
});

describe('SecuritySection cards', () => {
  it('shows the Email, Phone and App cards with whether each is verified and its Added date', async () => {
    serve(
      userWith({ emailVerified: true, dateEmailVerified: '2026-03-04T12:00:00.000Z', preferred2fa: 'Email' }),
    );
    renderSection();
    const email = await card(sm.cardTitles.Email);
    expect(within(email).getByText(sm.verified)).toBeTruthy();
    expect(within(email).getByText(sm.preferred)).toBeTruthy();
    const added = new Date('2026-03-04T12:00:00.000Z').toLocaleDateString(undefined, { dateStyle: 'medium' });
    expect(within(email).getByText(sm.added(added))).toBeTruthy();
    expect(within(email).getByRole('button', { name: sm.redo })).toBeTruthy();
    const phone = await card(sm.cardTitles.Phone);
    expect(within(phone).getByText(sm.notSetUp)).toBeTruthy();
    expect(within(phone).getByRole('button', { name: sm.setUp })).toBeTruthy();
    expect(await card(sm.cardTitles.Totp)).toBeTruthy();
  });
});

// The longest journeys of the section; a busy machine needs more than the default 5 s.
describe('Email setup', () => {
  it('starts from the profile email and shows the contract’s messages for a missing or bad address', async () => {
    serve(userWith({}));
    renderSection();
    const email = await card(sm.cardTitles.Email);
    fireEvent.click(within(email).getByRole('button', { name: sm.setUp }));
    const input = within(email).getByLabelText<HTMLInputElement>(sm.emailLabel);
    expect(input.value).toBe('ada@example.com');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.click(within(email).getByRole('button', { name: sm.sendCode }));
    expect(await within(email).findByText(m.emailRequired)).toBeTruthy();
    fireEvent.change(input, { target: { value: 'not-an-address' } });
    fireEvent.click(within(email).getByRole('button', { name: sm.sendCode }));
    expect(await within(email).findByText(m.emailInvalid)).toBeTruthy();
    expect(calls('GET /api/account/eotp/not-an-address')).toHaveLength(0);
  });

  it('sends the code, takes the six digits, and shows the recovery codes of a first method once', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
    const verified = userWith({ emailVerified: true, dateEmailVerified: '2026-03-04T12:00:00.000Z' });
    serve(userWith({}), {
      'GET /api/account/eotp/new%40example.com': () => ok(null, 'A code was sent to n***@example.com.'),
      'GET /api/account/eotp/verify/123456': () => {
        currentUser = verified;
        return ok({ user: verified, recoveryCodes: codes }, 'Email verified.');
      },
    });
    renderSection();
    const email = await card(sm.cardTitles.Email);
    fireEvent.click(within(email).getByRole('button', { name: sm.setUp }));
    fireEvent.change(within(email).getByLabelText(sm.emailLabel), { target: { value: 'new@example.com' } });
    fireEvent.click(within(email).getByRole('button', { name: sm.sendCode }));
    expect(await within(email).findByText(sm.codeSentTo('new@example.com'))).toBeTruthy();
    expect(within(email).getByRole('timer', { name: tm.codeExpiresIn })).toBeTruthy();
    expect(within(email).getByRole('button', { name: /Resend in/ })).toHaveProperty('disabled', true);
    fireEvent.paste(within(email).getByLabelText(tm.codeDigit(1, 6)), {
      clipboardData: { getData: () => '123456' },
    });
    const dialog = await screen.findByRole('dialog', { name: sm.recoveryModalTitle });
    expect(within(dialog).getByText(sm.recoveryOnlyOnce)).toBeTruthy();
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(10);
    expect(within(dialog).getByText('abcd0-efgh0')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: sm.recoveryCopy })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: sm.recoveryDownload })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: sm.recoverySaved }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: sm.recoveryModalTitle })).toBeNull());
    expect(await within(email).findByText(sm.verified)).toBeTruthy();
  });

  it('shows the server’s answer to a wrong code under the boxes', async () => {
    serve(userWith({}), {
      'GET /api/account/eotp/ada%40example.com': () => ok(null),
      'GET /api/account/eotp/verify/000000': () => refused(m.otpFailed),
    });
    renderSection();
    const email = await card(sm.cardTitles.Email);
    fireEvent.click(within(email).getByRole('button', { name: sm.setUp }));
    fireEvent.click(within(email).getByRole('button', { name: sm.sendCode }));
    fireEvent.paste(await within(email).findByLabelText(tm.codeDigit(1, 6)), {
      clipboardData: { getData: () => '000000' },
    });
    expect(await within(email).findByText(m.otpFailed)).toBeTruthy();
  });
});

describe('Phone setup', () => {
  const boxes = (phone: HTMLElement) =>
    [tm.phoneAreaCode, tm.phonePrefix, tm.phoneLine].map((label) =>
      within(phone).getByLabelText<HTMLInputElement>(label),
    );

  it('moves to the next box when one is full, and fills all three from a pasted number', async () => {
    serve(userWith({}));
    renderSection();
    const phone = await card(sm.cardTitles.Phone);
    fireEvent.click(within(phone).getByRole('button', { name: sm.setUp }));
    const [area, prefix, line] = boxes(phone);
    area!.focus();
    fireEvent.change(area!, { target: { value: '555' } });
    expect(document.activeElement).toBe(prefix);
    fireEvent.paste(prefix!, { clipboardData: { getData: () => '+1 (415) 555-0199' } });
    expect([area!.value, prefix!.value, line!.value]).toEqual(['415', '555', '0199']);
    expect(document.activeElement).toBe(line);
  });

  it('says Phone is required, then Invalid Phone Number, and sends +1 and ten digits', async () => {
    serve(userWith({}), { 'GET /api/account/potp/%2B14155550199': () => ok(null, 'A code was sent.') });
    renderSection();
    const phone = await card(sm.cardTitles.Phone);
    fireEvent.click(within(phone).getByRole('button', { name: sm.setUp }));
    fireEvent.click(within(phone).getByRole('button', { name: sm.sendCode }));
    expect(await within(phone).findByText(m.phoneRequired)).toBeTruthy();
    const [area, prefix, line] = boxes(phone);
    fireEvent.change(area!, { target: { value: '415' } });
    fireEvent.change(prefix!, { target: { value: '55' } });
    fireEvent.click(within(phone).getByRole('button', { name: sm.sendCode }));
    expect(await within(phone).findByText(m.phoneInvalid)).toBeTruthy();
    fireEvent.change(prefix!, { target: { value: '555' } });
    fireEvent.change(line!, { target: { value: '0199' } });
    fireEvent.click(within(phone).getByRole('button', { name: sm.sendCode }));
    expect(await within(phone).findByText(sm.codeSentTo('+1 (415) 555-0199'))).toBeTruthy();
    expect(calls('GET /api/account/potp/%2B14155550199')).toHaveLength(1);
  });
});

describe('App setup', () => {
  it('shows the QR code and the key in groups, then verifies a code of the app', async () => {
    const key = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const verified = userWith({
      totp: true,
      totpVerified: true,
      dateTotpVerified: '2026-03-04T12:00:00.000Z',
    });
    serve(userWith({}), {
      'GET /api/account/totp': () =>
        ok({ key, qr: 'data:image/png;base64,AAAA', uri: 'otpauth://totp/DBUI:ada' }),
      'GET /api/account/totp/verify/654321': () => {
        currentUser = verified;
        return ok({ user: verified, recoveryCodes: null }, 'Totp verified.');
      },
    });
    renderSection();
    const app = await card(sm.cardTitles.Totp);
    fireEvent.click(within(app).getByRole('button', { name: sm.setUp }));
    const qr = await within(app).findByRole<HTMLImageElement>('img', { name: sm.appQrAlt });
    expect(qr.src).toBe('data:image/png;base64,AAAA');
    expect(within(app).getByText(groupedKey(key)).textContent).toBe(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    fireEvent.paste(within(app).getByLabelText(tm.codeDigit(1, 6)), {
      clipboardData: { getData: () => '654321' },
    });
    expect(await within(app).findByText(sm.verified)).toBeTruthy();
    expect(within(app).getByRole('button', { name: sm.redo })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: sm.recoveryModalTitle })).toBeNull();
  });

  it('asks for the password when the server wants a recent sign-in, then tries once more', async () => {
    let tries = 0;
    serve(userWith({}), {
      'GET /api/account/totp': () => {
        tries += 1;
        return tries === 1
          ? refused('Confirm your password to continue.', 403)
          : ok({ key: 'ABCD', qr: 'data:image/png;base64,AAAA', uri: 'otpauth://totp/x' });
      },
    });
    renderSection();
    const app = await card(sm.cardTitles.Totp);
    fireEvent.click(within(app).getByRole('button', { name: sm.setUp }));
    expect(await within(app).findByRole('img', { name: sm.appQrAlt })).toBeTruthy();
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(tries).toBe(2);
  });
});

describe('Make preferred', () => {
  const both = () =>
    userWith({ emailVerified: true, phoneVerified: true, phone: '+14155550199', preferred2fa: 'Email' });

  it('is disabled on the preferred method and on an unverified one', async () => {
    serve(both());
    renderSection();
    const email = within(await card(sm.cardTitles.Email)).getByRole<HTMLInputElement>('switch', {
      name: sm.makePreferred,
    });
    expect(email.checked).toBe(true);
    expect(email.disabled).toBe(true);
    const app = within(await card(sm.cardTitles.Totp)).getByRole<HTMLInputElement>('switch', {
      name: sm.makePreferred,
    });
    expect(app.checked).toBe(false);
    expect(app.disabled).toBe(true);
    expect(within(await card(sm.cardTitles.Totp)).getByText(sm.cannotPreferUnverified)).toBeTruthy();
  });

  it('rolls the switch back and says so when saving fails', async () => {
    serve(both(), { 'POST /api/account/preferred2fa': () => refused('boom', 500) });
    renderSection();
    const phone = within(await card(sm.cardTitles.Phone)).getByRole<HTMLInputElement>('switch', {
      name: sm.makePreferred,
    });
    expect(phone.disabled).toBe(false);
    fireEvent.click(phone);
    expect(await screen.findByText(m.preferred2faFailed)).toBeTruthy();
    await waitFor(() => expect(phone.checked).toBe(false));
    expect(phone.disabled).toBe(false);
    expect(JSON.parse(String(calls('POST /api/account/preferred2fa')[0]?.[1]?.body))).toEqual({
      preferred2fa: 'Phone',
    });
  });

  it('keeps the choice and says so when saving works', async () => {
    const saved = { ...both(), preferred2fa: 'Phone' as const };
    saved.user_Details = [{ ...saved.user_Details[0]!, preferred2fa: 'Phone' }];
    serve(both(), {
      'POST /api/account/preferred2fa': () => {
        currentUser = saved;
        return ok(saved, m.preferred2faUpdated);
      },
    });
    renderSection();
    const phoneCard = await card(sm.cardTitles.Phone);
    fireEvent.click(within(phoneCard).getByRole('switch', { name: sm.makePreferred }));
    expect(await screen.findByText(m.preferred2faUpdated)).toBeTruthy();
    await waitFor(() =>
      expect(
        within(phoneCard).getByRole<HTMLInputElement>('switch', { name: sm.makePreferred }).disabled,
      ).toBe(true),
    );
    const email = within(await card(sm.cardTitles.Email)).getByRole<HTMLInputElement>('switch', {
      name: sm.makePreferred,
    });
    expect(email.checked).toBe(false);
  });
});

describe('Recovery codes', () => {
  it('asks first, then shows the ten new codes once with the warning', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `zzzz${i}-yyyy${i}`);
    serve(userWith({ emailVerified: true }, { recoveryCodesLeft: 7 }), {
      'POST /api/account/recovery-codes': () => ok({ recoveryCodes: codes }),
    });
    renderSection();
    const recovery = await card(sm.recoveryTitle);
    expect(within(recovery).getByText(sm.recoveryLeft(7, 10))).toBeTruthy();
    fireEvent.click(within(recovery).getByRole('button', { name: sm.recoveryRegenerate }));
    const ask = await screen.findByRole('dialog', { name: sm.recoveryRegenerateTitle });
    expect(calls('POST /api/account/recovery-codes')).toHaveLength(0);
    fireEvent.click(within(ask).getByRole('button', { name: sm.recoveryRegenerate }));
    const shown = await screen.findByRole('dialog', { name: sm.recoveryModalTitle });
    expect(within(shown).getByRole('alert').textContent).toContain(sm.recoveryOnlyOnce);
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
  });

  it('cancelling the question asks nothing of the server', async () => {
    serve(userWith({ emailVerified: true }, { recoveryCodesLeft: 10 }));
    renderSection();
    const recovery = await card(sm.recoveryTitle);
    fireEvent.click(within(recovery).getByRole('button', { name: sm.recoveryRegenerate }));
    const ask = await screen.findByRole('dialog', { name: sm.recoveryRegenerateTitle });
    fireEvent.click(within(ask).getByRole('button', { name: sm.cancel }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: sm.recoveryRegenerateTitle })).toBeNull(),
    );
    expect(calls('POST /api/account/recovery-codes')).toHaveLength(0);
  });
});
