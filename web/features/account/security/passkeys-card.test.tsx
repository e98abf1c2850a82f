import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import type { PasskeySummary } from '#common/contract/passkeys.ts';
import { passkeyMessages as pm, securityMessages as sm } from '#common/messages.ts';
import { callDirectly } from '#web/api/account/recent-auth.ts';
import { PasskeysCard } from './passkeys-card.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fakeApi, ok } from '#web/test/fake-api.ts';

const webauthn = vi.hoisted(() => ({ startRegistration: vi.fn(), supported: true }));
vi.mock('@simplewebauthn/browser', async (original) => ({
  ...(await original<typeof WebAuthnBrowser>()),
  browserSupportsWebAuthn: () => webauthn.supported,
  startRegistration: webauthn.startRegistration,
}));

const api = fakeApi();
const fetchMock = api.fetch;

let listed: PasskeySummary[] = [];
const laptop: PasskeySummary = {
  id: 7,
  name: 'Work laptop',
  createdAt: '2026-01-02T10:00:00.000Z',
  lastUsedAt: null,
};
const registration = {
  id: 'abc',
  rawId: 'abc',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ9', attestationObject: 'o2Nm' },
  clientExtensionResults: {},
};

beforeEach(() => {
  listed = [];
  webauthn.supported = true;
  webauthn.startRegistration.mockReset();
  api.on('GET', '/api/account/passkeys', () => ok(listed));
  api.on(
    'POST',
    '/api/account/passkeys/register/options',
    ok({ challenge: 'c', rp: {}, user: {}, pubKeyCredParams: [] }),
  );
  api.on('POST', '/api/account/passkeys/register/verify', () => {
    listed = [laptop];
    return ok(laptop, pm.added);
  });
  api.on('DELETE', '/api/account/passkeys/7', () => {
    listed = [];
    return ok(null, pm.removed);
  });
});

const renderCard = () => renderPage(<PasskeysCard run={callDirectly} />);

describe('PasskeysCard', () => {
  it('says when there are none, and adds one with its name', async () => {
    webauthn.startRegistration.mockResolvedValue(registration);
    renderCard();
    expect(await screen.findByText(sm.passkeysNone)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(sm.passkeyNameLabel), { target: { value: ' Work laptop ' } });
    fireEvent.click(screen.getByRole('button', { name: sm.passkeyAdd }));
    expect(await screen.findByText(pm.added)).toBeTruthy();
    const sent = fetchMock.mock.calls.find(([input]) => input === '/api/account/passkeys/register/verify');
    expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({
      name: 'Work laptop',
      response: { id: 'abc' },
    });
    const item = await screen.findByRole('listitem');
    expect(item.textContent).toContain('Work laptop');
    expect(item.textContent).toContain(sm.passkeyNeverUsed);
  });

  it('says the passkey was not created when the browser prompt is cancelled', async () => {
    webauthn.startRegistration.mockRejectedValue(
      Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }),
    );
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: sm.passkeyAdd }));
    expect(await screen.findByText(sm.passkeyCancelled)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([input]) => input === '/api/account/passkeys/register/verify')).toBe(
      false,
    );
  });

  it('removes a passkey only after the question', async () => {
    listed = [laptop];
    renderCard();
    fireEvent.click(await screen.findByRole('button', { name: sm.passkeyRemoveLabel('Work laptop') }));
    const question = await screen.findByRole('dialog', { name: sm.passkeyRemoveTitle });
    expect(question.textContent).toContain(sm.passkeyRemoveQuestion('Work laptop'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    fireEvent.click(within(question).getByRole('button', { name: sm.passkeyRemove }));
    expect(await screen.findByText(pm.removed)).toBeTruthy();
    await waitFor(() => expect(screen.getByText(sm.passkeysNone)).toBeTruthy());
  });

  it('says so when the browser cannot create passkeys', async () => {
    webauthn.supported = false;
    renderCard();
    expect(await screen.findByText(sm.passkeysUnsupported)).toBeTruthy();
    expect(screen.queryByRole('button', { name: sm.passkeyAdd })).toBeNull();
  });
});
