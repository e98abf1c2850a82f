import fs from 'node:fs';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { LightMyRequestResponse } from 'fastify';
import { buildUser, type TestUser } from './factories.ts';
import type { TestApp } from './test-app.ts';

/** What the envelope of an answer holds. */
export interface Answer<T = unknown> {
  status: number;
  isSuccess: boolean;
  data: T;
  message: string | null;
  response: LightMyRequestResponse;
}

/**
 * A browser as the web app drives the API: it keeps the XSRF-TOKEN cookie the server sets and sends it back in
 * X-XSRF-TOKEN on every non-GET call, and sends `Authorization: Bearer` once it holds a session token.
 */
export class AccountClient {
  token: string | null = null;
  xsrf: string | null = null;

  constructor(readonly t: TestApp) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...(this.xsrf ? { cookie: `XSRF-TOKEN=${this.xsrf}`, 'x-xsrf-token': this.xsrf } : {}),
      ...extra,
    };
  }

  async call<T = unknown>(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer<T>> {
    // Like the web app, a first GET gets the XSRF cookie before anything is posted.
    if (method !== 'GET' && !this.xsrf) await this.call('GET', '/api/captcha');
    const response = await this.t.app.inject({
      method,
      url,
      headers: this.headers(extraHeaders),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    if (cookie) this.xsrf = cookie.value;
    const body = String(response.headers['content-type'] ?? '').includes('json')
      ? (response.json() as { isSuccess?: boolean; data?: T; message?: string | null })
      : {};
    return {
      status: response.statusCode,
      isSuccess: body.isSuccess ?? false,
      data: body.data as T,
      message: body.message ?? null,
      response,
    };
  }

  get<T = unknown>(url: string) {
    return this.call<T>('GET', url);
  }

  post<T = unknown>(url: string, payload: unknown = {}) {
    return this.call<T>('POST', url, payload);
  }

  delete<T = unknown>(url: string) {
    return this.call<T>('DELETE', url);
  }

  /** Solves a human-check challenge the way the ALTCHA widget does and answers its payload. */
  async humanCheck(): Promise<string> {
    // Through the browser, so the XSRF cookie follows (the widget's fetch carries and receives cookies too).
    const answer = await this.call('GET', '/api/captcha');
    const challenge = answer.response.json();
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('the test could not solve the human check');
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
}

/** The six-digit code of the next text message to `to` in the outbox (waits for it); `seen` remembers files read. */
export async function nextSmsCode(
  dataDir: string,
  to: string,
  seen: Set<string>,
  timeoutMs = 5000,
): Promise<string> {
  const folder = path.join(dataDir, 'outbox');
  const until = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(folder)
      ? fs
          .readdirSync(folder)
          .filter((f) => f.endsWith('.sms.txt'))
          .sort()
      : [];
    for (const file of files) {
      if (seen.has(file)) continue;
      const text = fs.readFileSync(path.join(folder, file), 'utf8');
      if (!text.startsWith(`To: ${to}\n`)) continue;
      seen.add(file);
      const code = /\b(\d{6})\b/.exec(text.split('\n\n').slice(1).join('\n'))?.[1];
      if (!code) throw new Error(`no code in ${file}`);
      return code;
    }
    if (Date.now() > until) throw new Error(`no text message to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A factory user (factories.ts) and a client holding its session, as after signing in. */
export async function signedInClient(t: TestApp): Promise<{ user: TestUser; browser: AccountClient }> {
  const user = await buildUser(t);
  const browser = new AccountClient(t);
  browser.token = user.token;
  return { user, browser };
}
