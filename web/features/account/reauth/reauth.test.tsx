import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  accountApiMessages as am,
  accountMessages as m,
  accountPageMessages as pm,
} from '#common/messages.ts';
import type { ApiResult } from '#web/api/client.ts';
import { ReauthProvider } from './reauth-provider.tsx';
import { useReauth } from './use-reauth.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;

const refused: ApiResult<string> = { isSuccess: false, data: null, message: am.reauthRequired };
const done: ApiResult<string> = { isSuccess: true, data: 'deleted', message: null };

/** A component that runs the given action through useReauth and shows what it resolved with. */
function Runner({ action }: { action: () => Promise<ApiResult<string>> }) {
  const run = useReauth();
  const [result, setResult] = useState('');
  return (
    <>
      <button
        type="button"
        onClick={() =>
          void run(action).then((r) => setResult(r.isSuccess ? `ok:${r.data}` : `failed:${r.message}`))
        }
      >
        Do it
      </button>
      <output>{result}</output>
    </>
  );
}

function renderRunner(action: () => Promise<ApiResult<string>>, canUseApp = false) {
  return renderPage(
    <ReauthProvider canUseApp={canUseApp}>
      <Runner action={action} />
    </ReauthProvider>,
  );
}

const result = () => screen.getByRole('status').textContent;
const dialog = () => screen.findByRole('dialog', { name: pm.reauthTitle });

describe('useReauth', () => {
  it('passes an answer through when no proof is needed, without any modal', async () => {
    const action = vi.fn(() => Promise.resolve(done));
    renderRunner(action);
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    await waitFor(() => expect(result()).toBe('ok:deleted'));
    expect(action).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('passes other failures through as they are', async () => {
    const action = vi.fn(() =>
      Promise.resolve<ApiResult<string>>({ isSuccess: false, data: null, message: 'No.' }),
    );
    renderRunner(action);
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    await waitFor(() => expect(result()).toBe('failed:No.'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('on a 403 asks for the password, re-authenticates and retries the action once', async () => {
    const action = vi.fn().mockResolvedValueOnce(refused).mockResolvedValueOnce(done);
    api.once('POST', '/api/account/reauth', ok(null, am.reauthDone));
    renderRunner(action);
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    await dialog();
    expect(action).toHaveBeenCalledTimes(1);

    // An empty password is the schema's message, and nothing is sent.
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    expect(await screen.findByText(m.passwordRequired)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(pm.reauthPassword), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    await waitFor(() => expect(result()).toBe('ok:deleted'));
    expect(action).toHaveBeenCalledTimes(2);
    const [url, init] = fetchMock.mock.calls[0] ?? ['', {}];
    expect(url).toBe('/api/account/reauth');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ password: 'Secret#123' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("shows the server's refusal of a wrong password in the modal and lets the person try again", async () => {
    const action = vi.fn().mockResolvedValueOnce(refused).mockResolvedValueOnce(done);
    api.once('POST', '/api/account/reauth', fail(400, am.passwordWrong));
    api.once('POST', '/api/account/reauth', ok(null, am.reauthDone));
    renderRunner(action);
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    await dialog();
    fireEvent.change(screen.getByLabelText(pm.reauthPassword), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    expect((await screen.findByRole('alert')).textContent).toBe(am.passwordWrong);
    expect(action).toHaveBeenCalledTimes(1);
    expect(result()).toBe('');

    fireEvent.change(screen.getByLabelText(pm.reauthPassword), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    await waitFor(() => expect(result()).toBe('ok:deleted'));
  });

  it('cancelled, resolves with the original refusal and does not retry', async () => {
    const action = vi.fn().mockResolvedValue(refused);
    renderRunner(action);
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    await dialog();
    fireEvent.click(screen.getByRole('button', { name: pm.cancel }));
    await waitFor(() => expect(result()).toBe(`failed:${am.reauthRequired}`));
    expect(action).toHaveBeenCalledTimes(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers the authenticator app when the account has one and sends its code as Totp', async () => {
    const action = vi.fn().mockResolvedValueOnce(refused).mockResolvedValueOnce(done);
    api.once('POST', '/api/account/reauth', ok(null, am.reauthDone));
    renderRunner(action, true);
    fireEvent.click(screen.getByRole('button', { name: 'Do it' }));
    await dialog();
    fireEvent.click(screen.getByText(pm.reauthApp));
    const code = await screen.findByLabelText(pm.reauthCode);
    fireEvent.change(code, { target: { value: '12a' } });
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    expect(await screen.findByText(m.otpSixDigits)).toBeTruthy();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    await waitFor(() => expect(result()).toBe('ok:deleted'));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1].body))).toEqual({
      otp: '123456',
      selected2fa: 'Totp',
    });
  });

  it('two calls refused at once share one modal and are both retried', async () => {
    const first = vi.fn().mockResolvedValueOnce(refused).mockResolvedValueOnce(done);
    const second = vi.fn().mockResolvedValueOnce(refused).mockResolvedValueOnce(done);
    api.once('POST', '/api/account/reauth', ok(null, am.reauthDone));
    renderPage(
      <ReauthProvider>
        <Runner action={first} />
        <Runner action={second} />
      </ReauthProvider>,
    );
    for (const button of screen.getAllByRole('button', { name: 'Do it' })) fireEvent.click(button);
    await dialog();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText(pm.reauthPassword), { target: { value: 'Secret#123' } });
    fireEvent.click(screen.getByRole('button', { name: pm.reauthConfirm }));
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((o) => o.textContent)).toEqual(['ok:deleted', 'ok:deleted']),
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
