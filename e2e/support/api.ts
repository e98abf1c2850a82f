import { request, type Page } from '@playwright/test';

/** An API answer: the HTTP status beside the server's envelope {isSuccess, data, message}. */
export interface Envelope<T> {
  status: number;
  isSuccess: boolean;
  data: T;
  message: string | null;
}

/** The HTTP methods the journeys' set-up steps use. */
export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What an API call may carry: a JSON body and the session's bearer token. */
export interface ApiOptions {
  body?: unknown;
  token?: string | null;
}

/** One API call, from the page or from a client of its own (see pageApi, apiClient). */
export type ApiCall = <T>(method: ApiMethod, url: string, options?: ApiOptions) => Promise<Envelope<T>>;

/** Calls the API from the page as the web app does: the XSRF cookie echoed in X-XSRF-TOKEN, the bearer token. */
export async function api<T>(
  page: Page,
  method: ApiMethod,
  url: string,
  options: ApiOptions = {},
): Promise<Envelope<T>> {
  return page.evaluate(
    async ({ method, url, body, token }) => {
      const cookie = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='));
      const xsrf = cookie ? decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) : null;
      // A POST always sends a JSON body ({} when none is given), as the web app's client does.
      const sends = method === 'POST' || (method !== 'GET' && body !== undefined);
      const response = await fetch(url, {
        method,
        headers: {
          ...(sends ? { 'content-type': 'application/json' } : {}),
          ...(xsrf ? { 'x-xsrf-token': xsrf } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(sends ? { body: JSON.stringify(body ?? {}) } : {}),
      });
      const answer = (await response.json()) as { isSuccess: boolean; data: unknown; message: string | null };
      return { status: response.status, ...answer };
    },
    { method, url, body: options.body, token: options.token ?? null },
  ) as Promise<Envelope<T>>;
}

/** The page's API caller as an ApiCall, for the shared set-up steps of ./sign-in.ts. */
export function pageApi(page: Page): ApiCall {
  return (method, url, options) => api(page, method, url, options);
}

/** The API as a client of its own (its own cookies, so its own XSRF token, apart from the page's): set-up only. */
export async function apiClient(origin: string): Promise<{ call: ApiCall; dispose: () => Promise<void> }> {
  const client = await request.newContext({ baseURL: origin });
  await client.get('/api/health'); // a first GET gets the XSRF cookie
  const call: ApiCall = async <T>(method: ApiMethod, url: string, { body, token }: ApiOptions = {}) => {
    const { cookies } = await client.storageState();
    const xsrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
    const response = await client.fetch(url, {
      method,
      headers: {
        ...(xsrf ? { 'x-xsrf-token': decodeURIComponent(xsrf) } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { data: body }),
    });
    const answer = (await response.json()) as Omit<Envelope<T>, 'status'>;
    return { status: response.status(), ...answer };
  };
  return { call, dispose: () => client.dispose() };
}
