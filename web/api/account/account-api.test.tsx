import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { Verification } from '#common/contract/account.ts';
import {
  accountQueryOptions,
  fetchAccount,
  postAccount,
  useUpdateAccount,
} from '#web/api/account/account.ts';
import { postForgotPassword } from '#web/api/account/forgot-password.ts';
import { postLogin, useLogin } from '#web/api/account/login.ts';
import { postLoginResend } from '#web/api/account/login-resend.ts';
import { isVerification, nextStepOf, postLoginVerify } from '#web/api/account/login-verify.ts';
import { fetchLogout } from '#web/api/account/logout.ts';
import { postPasskeyLoginOptions } from '#web/api/account/passkey-login-options.ts';
import { postPasskeyLoginVerify } from '#web/api/account/passkey-login-verify.ts';
import { setSessionEndedHandler, setTokenSource } from '#web/api/client.ts';
import { postSignup } from '#web/api/account/signup.ts';
import { postUpdatePassword } from '#web/api/account/update-password.ts';
import { fetchVerification } from '#web/api/account/verify.ts';
import { ApiFailure } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { sampleVerification as signedInSample } from '#web/session/test-session.ts';
import type { HttpMethod } from '#web/api/client.ts';
import { renderPageHook } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

const sampleUser = signedInSample.user;

const sampleVerification: Verification = {
  token: 'tok',
  user: sampleUser,
  links: ['/account'],
  expiration: '2030-01-01T00:00:00.000Z',
};
const preSignIn = { key: 'k', allowed2fa: ['Email'], preferred2fa: 'Email', disableSelect2fa: true };

function call(index = 0): { url: string; method: string; body: unknown } {
  const [url, init] = fetchMock.mock.calls[index] ?? ['', {}];
  return { url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined };
}

describe('the account calls', () => {
  it('each call goes to its path with its method and body, and parses its answer', async () => {
    const cases: [() => Promise<unknown>, unknown, string, string, unknown][] = [
      [() => fetchVerification(), sampleVerification, 'GET', '/api/account/verify', undefined],
      [() => fetchAccount(), sampleUser, 'GET', '/api/account', undefined],
      [
        () => postAccount({ user_Details: [{ firstName: 'Ada' }] }),
        sampleUser,
        'POST',
        '/api/account',
        {
          user_Details: [{ firstName: 'Ada' }],
        },
      ],
      [
        () => postLogin({ username: 'ada', password: 'p', token: 't' }),
        preSignIn,
        'POST',
        '/api/account/login',
        {
          username: 'ada',
          password: 'p',
          token: 't',
        },
      ],
      [
        () => postLoginVerify({ key: 'k', otp: '123456', selected2fa: 'Email' }),
        sampleVerification,
        'POST',
        '/api/account/login/verify',
        { key: 'k', otp: '123456', selected2fa: 'Email' },
      ],
      [
        () => postLoginResend({ key: 'k', selected2fa: 'Email' }),
        null,
        'POST',
        '/api/account/login/resend',
        {
          key: 'k',
          selected2fa: 'Email',
        },
      ],
      [
        () => postForgotPassword({ username: 'ada', token: 't' }),
        'pu',
        'POST',
        '/api/account/forgotPassword',
        {
          username: 'ada',
          token: 't',
        },
      ],
      [
        () => postUpdatePassword({ password: 'Secret1!x' }),
        null,
        'POST',
        '/api/account/updatePassword',
        {
          password: 'Secret1!x',
        },
      ],
      [
        () =>
          postSignup({
            user: { username: 'ada', user_Details: [{ email: 'a@b.c' }] },
            password: 'x',
            token: 't',
          }),
        'pu',
        'POST',
        '/api/account/signup',
        { user: { username: 'ada', user_Details: [{ email: 'a@b.c' }] }, password: 'x', token: 't' },
      ],
      [() => fetchLogout(), null, 'GET', '/api/account/logout', undefined],
    ];
    for (const [run, data, method, url, body] of cases) {
      fetchMock.mockClear();
      api.on(method as HttpMethod, url, ok(data, 'Done.'));
      expect(await run()).toEqual({ isSuccess: true, data, message: 'Done.' });
      expect(call()).toEqual({ url, method, body });
    }
  });

  it('refuses an answer that does not match the contract', async () => {
    // Answers the server would never give (raw, so the fake API lets them through): the client refuses them.
    api.on('GET', '/api/account/verify', raw(json({ isSuccess: true, data: { token: 3 }, message: null })));
    expect(await fetchVerification()).toEqual({
      isSuccess: false,
      data: null,
      message: 'GET request failed.',
    });
    api.on('POST', '/api/account/login', raw(json({ isSuccess: true, data: { key: 'k' }, message: null })));
    expect((await postLogin({ username: 'a', password: 'p', token: 't' })).isSuccess).toBe(false);
  });

  it("never signs out on a sign-in step's 401: a used code, a wrong password while signed in", async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setTokenSource(() => 'current');
    for (const [method, path] of [
      ['POST', '/api/account/login'],
      ['POST', '/api/account/login/verify'],
      ['POST', '/api/account/login/resend'],
      ['POST', '/api/account/login/passkey/options'],
      ['POST', '/api/account/login/passkey/verify'],
      ['GET', '/api/account/verify'],
    ] as const) {
      api.on(method, path, fail(401, 'Failed to validate OTP.'));
    }
    await postLogin({ username: 'a', password: 'p', token: 't' });
    await postLoginVerify({ key: 'k', otp: '123456', selected2fa: 'Email' });
    await postLoginResend({ key: 'k', selected2fa: 'Email' });
    await postPasskeyLoginOptions({ key: 'k' });
    await postPasskeyLoginVerify({ key: 'k', response: {} as never });
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(ended).not.toHaveBeenCalled();
    // Any other call made with the current token that answers 401 still means the session ended.
    await fetchVerification();
    expect(ended).toHaveBeenCalledTimes(1);
    setSessionEndedHandler(() => undefined);
    setTokenSource(() => null);
  });

  it('tells a session from the next step of a recovery', () => {
    expect(isVerification(sampleVerification)).toBe(true);
    expect(nextStepOf(sampleVerification)).toBeNull();
    const step = {
      key: 'k',
      allowed2fa: ['Totp' as const],
      preferred2fa: 'Totp' as const,
      disableSelect2fa: true,
    };
    expect(isVerification(step)).toBe(false);
    expect(nextStepOf(step)).toEqual(step);
  });
});

describe('the hooks', () => {
  it("puts a failure's message in the mutation's error", async () => {
    api.on('POST', '/api/account/login', fail(401, 'Failed to login... Please try again.'));
    const { result } = renderPageHook(() => useLogin());
    result.current.mutate({ username: 'a', password: 'p', token: 't' });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(ApiFailure);
    expect(result.current.error?.message).toBe('Failed to login... Please try again.');
  });

  it('keeps the saved user in the account query after an update', async () => {
    api.on('POST', '/api/account', ok(sampleUser, 'Successfully updated user.'));
    const { result, queryClient: client } = renderPageHook(() => useUpdateAccount());
    const saved = await result.current.mutateAsync({ user_Details: [{ firstName: 'Ada' }] });
    expect(saved.message).toBe('Successfully updated user.');
    expect(client.getQueryData(queryKeys.account.user())).toEqual(sampleUser);
    expect(accountQueryOptions().queryKey).toEqual(['account', 'user']);
  });
});
