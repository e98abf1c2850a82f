import type { TestApp } from './test-app.ts';

/*
 * A browser made of plain requests and a cookie jar, for social sign-in tests (docs/decisions/0010-social-sign-in.md):
 * requests to DBUI's PUBLIC_URL go to the app in-process (inject), requests anywhere else (the OpenID provider) over
 * HTTP; redirects are walked by hand so a test can stop at, read or change any hop.
 */

interface Cookie {
  origin: string;
  name: string;
  value: string;
  path: string;
}

interface Hop {
  status: number;
  location: string | null;
  body: string;
}

/** A browser: a cookie jar (by origin and path), redirects walked by hand, a bearer token once signed in. */
export class RedirectBrowser {
  cookies: Cookie[] = [];
  token: string | null = null;

  constructor(
    readonly t: TestApp,
    /** DBUI's PUBLIC_URL: requests there go to the app in-process, any other address over HTTP. */
    readonly publicUrl: string,
  ) {}

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => c.origin === url.origin && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(url: URL, setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? '/';
      const expires = attribute('expires');
      const gone =
        attribute('max-age') === '0' ||
        (expires !== undefined && Date.parse(expires) <= Date.now()) ||
        !value;
      this.cookies = this.cookies.filter(
        (c) => !(c.origin === url.origin && c.name === name && c.path === path),
      );
      if (!gone) this.cookies.push({ origin: url.origin, name, value, path });
    }
  }

  cookie(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }

  /** One request, no redirects followed. */
  async request(method: 'GET' | 'POST' | 'DELETE', address: string, payload?: object): Promise<Hop> {
    const url = new URL(address);
    const headers: Record<string, string> = {};
    const cookie = this.cookieHeader(url);
    if (cookie) headers.cookie = cookie;
    if (url.origin === this.publicUrl) {
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      const xsrf = this.cookie('XSRF-TOKEN');
      if (method !== 'GET' && xsrf) headers['x-xsrf-token'] = xsrf;
      const response = await this.t.app.inject({
        method,
        url: url.pathname + url.search,
        headers,
        ...(payload ? { payload } : {}),
      });
      const setCookie = response.headers['set-cookie'];
      this.keep(url, setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]);
      const location = response.headers.location;
      return {
        status: response.statusCode,
        location: typeof location === 'string' ? new URL(location, url).href : null,
        body: response.body,
      };
    }
    const response = await fetch(url, { method, headers, redirect: 'manual' });
    this.keep(url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location ? new URL(location, url).href : null,
      body: await response.text(),
    };
  }

  /** An API call to DBUI: the envelope. */
  async api<T>(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object) {
    if (method !== 'GET' && !this.cookie('XSRF-TOKEN'))
      await this.request('GET', `${this.publicUrl}/api/account/providers`);
    const hop = await this.request(
      method,
      `${this.publicUrl}${path}`,
      payload ?? (method === 'POST' ? {} : undefined),
    );
    const body = JSON.parse(hop.body) as { isSuccess: boolean; data: T; message: string | null };
    return { status: hop.status, ...body };
  }

  /** Follows redirects from `address` until one leaves for a URL that `stop` accepts (answered, not requested). */
  async follow(address: string, stop: (url: string) => boolean): Promise<string> {
    let url = address;
    for (let hops = 0; hops < 20; hops += 1) {
      const hop = await this.request('GET', url);
      if (!hop.location)
        throw new Error(`${url} answered ${hop.status} without a redirect: ${hop.body.slice(0, 300)}`);
      if (stop(hop.location)) return hop.location;
      url = hop.location;
    }
    throw new Error(`too many redirects from ${address}`);
  }
}
