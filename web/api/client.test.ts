import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { transportMessages } from '#common/messages.ts';
import {
  apiDelete,
  apiGet,
  apiPost,
  apiPostEncoded,
  apiPut,
  readCookie,
  saveDownload,
  setSessionEndedHandler,
  setTokenSource,
} from '#web/api/client.ts';
import { ApiFailure, unwrap } from '#web/api/query.ts';
import { fetchImportReport } from '#web/api/sql/import-report.ts';
import { fakeApi, raw, transportError, type FakeAnswer } from '#web/test/fake-api.ts';

// The HTTP client's own test: it meets what no DBUI server sends too (a proxy's page, a cut body), on any path,
// so its answers are raw, unchecked by the contract.
const api = fakeApi();
const fetchMock = api.fetch;
/** Every request, whatever its method and path, gets `answer`. */
const answerAll = (answer: FakeAnswer) => {
  for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) api.on(method, '*', answer);
};

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function sentHeaders(): Headers {
  const call = fetchMock.mock.calls[0];
  if (!call) throw new Error('fetch was not called');
  return new Headers(call[1].headers);
}

function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

beforeEach(() => {
  setTokenSource(() => null);
  clearCookies();
});

describe('apiGet and apiPost', () => {
  it('returns the envelope of a successful call', async () => {
    answerAll(raw(jsonResponse({ isSuccess: true, data: { required: true }, message: null })));
    const result = await apiGet<{ required: boolean }>('/api/setup');
    expect(result).toEqual({ isSuccess: true, data: { required: true }, message: null });
    expect(fetchMock.mock.calls[0]?.[1].method).toBe('GET');
  });

  it('checks the data against a schema when one is given', async () => {
    answerAll(raw(jsonResponse({ isSuccess: true, data: { required: 'yes' }, message: null })));
    const result = await apiGet('/api/setup', { schema: z.object({ required: z.boolean() }) });
    expect(result).toEqual({ isSuccess: false, data: null, message: transportMessages.GET });
  });

  it("uses the server's message on an error status", async () => {
    answerAll(raw(jsonResponse({ isSuccess: false, data: null, message: 'The link has expired.' }, 400)));
    const result = await apiPost('/api/setup', { token: 'x' });
    expect(result).toEqual({
      isSuccess: false,
      data: null,
      message: 'The link has expired.',
      status: 400,
      details: null,
    });
  });

  it('keeps the status and the data a failure envelope carries (a 409 with the row as it is now)', async () => {
    const current = { id: 7, note: 'theirs', $version: 'AbCdEfGhIjKlMnOp' };
    answerAll(
      raw(
        jsonResponse({ isSuccess: false, data: { current }, message: 'Someone else changed this row.' }, 409),
      ),
    );
    const result = await apiPostEncoded('/api/sql/demo/main/notes', { id: 7, note: 'mine' });
    expect(result).toEqual({
      isSuccess: false,
      data: null,
      message: 'Someone else changed this row.',
      status: 409,
      details: { current },
    });
    const failure = await Promise.resolve()
      .then(() => unwrap(result))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect(failure).toMatchObject({
      message: 'Someone else changed this row.',
      status: 409,
      details: { current },
    });
  });

  it("uses the server's message on a successful status that reports a failure", async () => {
    answerAll(raw(jsonResponse({ isSuccess: false, data: null, message: 'Nope.' })));
    expect((await apiGet('/api/x')).message).toBe('Nope.');
  });

  it('falls back to the generic text of the method when the server says nothing', async () => {
    answerAll(raw(new Response('', { status: 502 })));
    expect(await apiGet('/api/x')).toEqual({
      isSuccess: false,
      data: null,
      message: 'GET request failed.',
      status: 502,
      details: null,
    });
    answerAll(raw(new Response('<html>oops</html>', { status: 500 })));
    expect((await apiPost('/api/x', {})).message).toBe('POST request failed.');
  });

  it('uses the transport error message when the request never reaches the server', async () => {
    answerAll(transportError(new TypeError('Failed to fetch')));
    expect((await apiGet('/api/x')).message).toBe('Failed to fetch');
    answerAll(transportError(new TypeError('')));
    expect((await apiPost('/api/x', {})).message).toBe(transportMessages.POST);
  });

  it('treats a body that does not parse on a successful status as a failure', async () => {
    answerAll(raw(new Response('<!doctype html><html></html>', { status: 200 })));
    expect(await apiGet('/api/x')).toEqual({ isSuccess: false, data: null, message: transportMessages.GET });
    answerAll(raw(jsonResponse({ hello: 'world' })));
    expect((await apiGet('/api/x')).isSuccess).toBe(false);
  });

  it('sends JSON bodies', async () => {
    answerAll(raw(jsonResponse({ isSuccess: true, data: null, message: 'Created.' })));
    const result = await apiPost('/api/setup', { token: 't', username: 'admin' });
    expect(result).toEqual({ isSuccess: true, data: null, message: 'Created.' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ token: 't', username: 'admin' }));
    expect(sentHeaders().get('Content-Type')).toBe('application/json');
  });

  it('rethrows when the caller aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    answerAll(transportError(new DOMException('Aborted', 'AbortError')));
    await expect(apiGet('/api/x', { signal: controller.signal })).rejects.toThrow('Aborted');
  });
});

describe('an ended session', () => {
  const unauthorized = () =>
    jsonResponse({ isSuccess: false, data: null, message: 'Sign in to continue.' }, 401);

  it('tells the session when a call made with the current token answers 401', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setTokenSource(() => 'abc.def');
    answerAll(raw(unauthorized()));
    const result = await apiGet('/api/x');
    expect(result).toMatchObject({ isSuccess: false, message: 'Sign in to continue.' });
    expect(ended).toHaveBeenCalledTimes(1);
    setSessionEndedHandler(() => undefined);
    setTokenSource(() => null);
  });

  it('says nothing for a 401 without a token (a wrong password) or after the token changed', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    answerAll(raw(unauthorized()));
    await apiPost('/api/account/login', {});
    let token = 'old';
    setTokenSource(() => token);
    answerAll(
      raw(() => {
        token = 'new';
        return unauthorized();
      }),
    );
    await apiGet('/api/x');
    expect(ended).not.toHaveBeenCalled();
    setSessionEndedHandler(() => undefined);
    setTokenSource(() => null);
  });

  it('tells it too when a call that reads its own answer (a report download) meets a 401', async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setTokenSource(() => 'abc.def');
    answerAll(raw(unauthorized()));
    const result = await fetchImportReport({ db: 'd', schema: 's', table: 't', id: 'i' });
    expect(result).toMatchObject({ isSuccess: false, message: 'Sign in to continue.', status: 401 });
    expect(ended).toHaveBeenCalledTimes(1);
    setSessionEndedHandler(() => undefined);
    setTokenSource(() => null);
  });

  it("never ends the session for a sign-in step's 401 (a used code, a wrong password while signed in)", async () => {
    const ended = vi.fn();
    setSessionEndedHandler(ended);
    setTokenSource(() => 'abc.def');
    answerAll(raw(unauthorized()));
    const result = await apiPost('/api/account/login/verify', {}, { signInStep: true });
    expect(result).toMatchObject({ isSuccess: false, message: 'Sign in to continue.' });
    expect(ended).not.toHaveBeenCalled();
    setSessionEndedHandler(() => undefined);
    setTokenSource(() => null);
  });
});

describe('request headers', () => {
  it('sends a bearer header only when a token exists', async () => {
    answerAll(raw(jsonResponse({ isSuccess: true, data: null, message: null })));
    await apiGet('/api/x');
    expect(sentHeaders().has('Authorization')).toBe(false);

    fetchMock.mockClear();
    setTokenSource(() => 'abc.def');
    await apiGet('/api/x');
    expect(sentHeaders().get('Authorization')).toBe('Bearer abc.def');
  });

  it('adds the anti-forgery header from the cookie to non-GET calls on relative addresses', async () => {
    document.cookie = 'XSRF-TOKEN=tok%2Fen; path=/';
    answerAll(raw(jsonResponse({ isSuccess: true, data: null, message: null })));
    await apiPost('/api/x', {});
    expect(sentHeaders().get('X-XSRF-TOKEN')).toBe('tok/en');
  });

  it('leaves the anti-forgery header off GET calls, absolute addresses and when there is no cookie', async () => {
    answerAll(raw(jsonResponse({ isSuccess: true, data: null, message: null })));
    await apiPost('/api/x', {});
    expect(sentHeaders().has('X-XSRF-TOKEN')).toBe(false);

    document.cookie = 'XSRF-TOKEN=secret; path=/';
    for (const call of [() => apiGet('/api/x'), () => apiPost('https://elsewhere.example/api', {})]) {
      fetchMock.mockClear();
      await call();
      expect(sentHeaders().has('X-XSRF-TOKEN')).toBe(false);
    }
  });
});

describe('readCookie', () => {
  it('finds a cookie among others', () => {
    document.cookie = 'a=1; path=/';
    document.cookie = 'XSRF-TOKEN=two; path=/';
    expect(readCookie('XSRF-TOKEN')).toBe('two');
    expect(readCookie('missing')).toBeNull();
  });
});

describe('PUT, DELETE and the encoded bodies', () => {
  it('sends PUT and DELETE with the anti-forgery header and their own fallbacks', async () => {
    document.cookie = 'XSRF-TOKEN=x1; path=/';
    answerAll(raw(jsonResponse({ isSuccess: true, data: 1, message: null })));
    await apiPut('/api/x', { a: 1 });
    expect(fetchMock.mock.calls[0]?.[1].method).toBe('PUT');
    expect(sentHeaders().get('X-XSRF-TOKEN')).toBe('x1');
    fetchMock.mockClear();
    await apiDelete('/api/account/delete');
    expect(fetchMock.mock.calls[0]?.[1].method).toBe('DELETE');
    expect(fetchMock.mock.calls[0]?.[1].body).toBeUndefined();
    expect(sentHeaders().get('X-XSRF-TOKEN')).toBe('x1');

    answerAll(raw(new Response('', { status: 500 })));
    expect((await apiPut('/api/x', {})).message).toBe('PUT request failed.');
    expect((await apiDelete('/api/x')).message).toBe('DELETE request failed.');
  });

  it("sends a data API filter in the spec's encoding as text/plain", async () => {
    answerAll(raw(jsonResponse({ isSuccess: true, data: [], message: null })));
    const filter = { Name: 'Zoë %&/', Id: 3 };
    await apiPostEncoded('/api/sql/db/main/t/search', filter);
    const init = fetchMock.mock.calls[0]?.[1];
    expect(sentHeaders().get('Content-Type')).toBe('text/plain');
    expect(typeof init?.body).toBe('string');
    expect(init?.body).toBe(btoa(encodeURIComponent(JSON.stringify(filter))));
    expect(JSON.parse(decodeURIComponent(atob(String(init?.body))))).toEqual(filter);
  });
});

describe('downloads', () => {
  it('hands the file to the browser through a temporary link', () => {
    vi.useFakeTimers();
    const create = vi.fn(() => 'blob:x');
    const revoke = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke }));
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    saveDownload(new Blob(['x']), 'x.csv');
    expect(clicked).toEqual(['x.csv']);
    expect(document.querySelector('a[download]')).toBeNull();
    vi.runAllTimers();
    expect(revoke).toHaveBeenCalledWith('blob:x');
    click.mockRestore();
    vi.useRealTimers();
  });
});
