import type { ZodType } from 'zod';
import { transportMessages } from '#common/messages.ts';

/** The spec's generic API result. A failure always carries a message the UI can show as it is. */
export type ApiResult<T> =
  { isSuccess: true; data: T; message: string | null } | { isSuccess: false; data: null; message: string };

export type HttpMethod = keyof typeof transportMessages;

export interface RequestOptions<T> {
  /** Checks the envelope's data; a mismatch is a failure, so callers only ever see data of the declared shape. */
  schema?: ZodType<T>;
  signal?: AbortSignal;
}

/** Where the bearer token comes from; the session module plugs itself in here once it exists. */
let tokenSource: () => string | null = () => null;

/** Sets the function the client asks for the current access token (null when signed out). */
export function setTokenSource(source: () => string | null): void {
  tokenSource = source;
}

const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

/** GET a path of the API and return its envelope; never throws except when the signal aborts. */
export function apiGet<T>(path: string, options: RequestOptions<T> = {}): Promise<ApiResult<T>> {
  return apiRequest('GET', path, undefined, options);
}

/** POST a JSON body to a path of the API and return its envelope; never throws except on abort. */
export function apiPost<T>(
  path: string,
  body: unknown,
  options: RequestOptions<T> = {},
): Promise<ApiResult<T>> {
  return apiRequest('POST', path, body, options);
}

/** Sends one request and applies the spec's failure rules (spec 000 §8): the server's message, else the
 * transport error's message, else the method's generic text. A successful status whose body does not parse
 * as an envelope is a failure too. */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body: unknown,
  options: RequestOptions<T> = {},
): Promise<ApiResult<T>> {
  const fallback = transportMessages[method];
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: requestHeaders(method, path, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return failure(error instanceof Error && error.message ? error.message : fallback);
  }

  const parsed = await readJson(response);
  if (!response.ok) {
    return failure(serverMessage(parsed) ?? fallback);
  }
  if (!isEnvelope(parsed)) return failure(fallback);
  if (!parsed.isSuccess) return failure(serverMessage(parsed) ?? fallback);
  if (!options.schema) {
    // Without a schema the caller's type parameter is a claim about the server, as with any typed fetch.
    return { isSuccess: true, data: parsed.data as T, message: nullableString(parsed.message) };
  }
  const checked = options.schema.safeParse(parsed.data);
  if (!checked.success) return failure(fallback);
  return { isSuccess: true, data: checked.data, message: nullableString(parsed.message) };
}

function requestHeaders(method: HttpMethod, path: string, hasBody: boolean): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  if (hasBody) headers.set('Content-Type', 'application/json');
  const token = tokenSource();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  // Only our own origin gets the anti-forgery token: absolute addresses could be anyone's.
  if (method !== 'GET' && isRelative(path)) {
    const xsrf = readCookie(XSRF_COOKIE);
    if (xsrf) headers.set(XSRF_HEADER, xsrf);
  }
  return headers;
}

function isRelative(path: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.startsWith('//');
}

/** The value of a cookie of this document, or null. */
export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text()) as unknown;
  } catch {
    return undefined;
  }
}

interface Envelope {
  isSuccess: boolean;
  data: unknown;
  message: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    'isSuccess' in value &&
    typeof value.isSuccess === 'boolean'
  );
}

/** The message of a server's error body: our envelope or any JSON object with a non-empty message. */
function serverMessage(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || !('message' in value)) return null;
  return typeof value.message === 'string' && value.message.trim() ? value.message : null;
}

function nullableString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function failure(message: string): ApiResult<never> {
  return { isSuccess: false, data: null, message };
}
