import type { ZodType } from 'zod';
import { encodeBody } from '#common/contract/body-encoding.ts';
import { transportMessages } from '#common/shell-messages.ts';

/** The spec's generic API result. A failure always carries a message the UI can show as it is; one the server
 * answered also its status, and `details`: the failure envelope's data, which says more on some failures (a 409 of a
 * row changed since carries the row as it is now), else null. */
export type ApiResult<T> =
  | { isSuccess: true; data: T; message: string | null }
  | { isSuccess: false; data: null; message: string; status?: number; details?: unknown };

export type HttpMethod = keyof typeof transportMessages;

export interface RequestOptions<T> {
  /** Checks the envelope's data; a mismatch is a failure, so callers only ever see data of the declared shape. */
  schema?: ZodType<T>;
  signal?: AbortSignal;
  /** A step of signing in (password, code, resend, passkey): its 401 refuses that step and says nothing about a
   * session this browser already has, so it never signs out (a second Verify of a used code, a wrong password typed
   * on the login page while signed in). */
  signInStep?: boolean;
}

/** Where the bearer token comes from; the session module plugs itself in here once it exists. */
let tokenSource: () => string | null = () => null;

/** Sets the function the client asks for the current access token (null when signed out). */
export function setTokenSource(source: () => string | null): void {
  tokenSource = source;
}

let sessionEnded: () => void = () => undefined;

/** Sets what happens when a call made with the current token answers 401: the server ended the session (a lock,
 * an administrator's End sessions, expiry), so the app signs out at once instead of failing call after call. */
export function setSessionEndedHandler(handler: () => void): void {
  sessionEnded = handler;
}

/**
 * Taken when a call is sent, given its answer's status: a 401 to a call sent with the session's token, still the
 * current one (not a session signed in meanwhile), means the server no longer knows the session, so the app signs
 * out. The client's own calls use it, and so must every call that sends and reads by itself (an upload, a download,
 * the chat's streamed reply).
 */
export function sessionWatch(): (status: number) => void {
  const token = tokenSource();
  return (status) => {
    if (status === 401 && token !== null && tokenSource() === token) sessionEnded();
  };
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

/** PUT a JSON body to a path of the API and return its envelope; never throws except on abort. */
export function apiPut<T>(
  path: string,
  body: unknown,
  options: RequestOptions<T> = {},
): Promise<ApiResult<T>> {
  return apiRequest('PUT', path, body, options);
}

/** DELETE a path of the API (with a JSON body when given) and return its envelope; never throws except on abort. */
export function apiDelete<T>(
  path: string,
  body?: unknown,
  options: RequestOptions<T> = {},
): Promise<ApiResult<T>> {
  return apiRequest('DELETE', path, body, options);
}

/** POST a filter or row of the data API in the spec's encoding (spec 000 §7: JSON, then URL-encoded, then base64),
 * sent as text/plain as common/contract/sql.ts describes. */
export function apiPostEncoded<T>(
  path: string,
  value: Record<string, unknown>,
  options: RequestOptions<T> = {},
): Promise<ApiResult<T>> {
  return send('POST', path, { type: 'text/plain', text: encodeBody(value) }, options);
}

/** Sends one request and applies the spec's failure rules (spec 000 §8): the server's message, else the
 * transport error's message, else the method's generic text. A successful status whose body does not parse
 * as an envelope is a failure too. */
export function apiRequest<T>(
  method: HttpMethod,
  path: string,
  body: unknown,
  options: RequestOptions<T> = {},
): Promise<ApiResult<T>> {
  const payload = body === undefined ? undefined : { type: 'application/json', text: JSON.stringify(body) };
  return send(method, path, payload, options);
}

interface Payload {
  type: string;
  text: string;
}

async function send<T>(
  method: HttpMethod,
  path: string,
  payload: Payload | undefined,
  options: RequestOptions<T>,
): Promise<ApiResult<T>> {
  const fallback = transportMessages[method];
  const answered = sessionWatch();
  const answer = await transport(method, path, payload, 'application/json', options.signal);
  if (!answer.ok) return failure(answer.message ?? fallback);
  const response = answer.response;
  if (!options.signInStep) answered(response.status);

  const parsed = await readJson(response);
  if (!response.ok) {
    return {
      isSuccess: false,
      data: null,
      message: serverMessage(parsed) ?? fallback,
      status: response.status,
      details: isEnvelope(parsed) ? (parsed.data ?? null) : null,
    };
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

/** The fetch itself: a response, or the transport error's own message (null when it has none). */
async function transport(
  method: HttpMethod,
  path: string,
  payload: Payload | undefined,
  accept: string,
  signal: AbortSignal | undefined,
): Promise<{ ok: true; response: Response } | { ok: false; message: string | null }> {
  try {
    const response = await fetch(path, {
      method,
      headers: requestHeaders(method, path, payload?.type ?? null, accept),
      body: payload?.text,
      credentials: 'same-origin',
      signal,
    });
    return { ok: true, response };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false, message: error instanceof Error && error.message ? error.message : null };
  }
}

/** Hands a downloaded file to the browser as a download (an object URL on a temporary link, released after). */
export function saveDownload(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click starts the download synchronously; revoking on the next task leaves it time to take the URL.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The headers every call of the API sends: Accept, the body's type, the bearer token when signed in, and the
 * anti-forgery header on a non-GET call to our own origin. Exported for calls that read the answer themselves (the
 * chat's streamed reply, web/api/chat/add-message.ts). */
export function requestHeaders(
  method: HttpMethod,
  path: string,
  contentType: string | null,
  accept: string,
): Headers {
  const headers = new Headers({ Accept: accept });
  if (contentType) headers.set('Content-Type', contentType);
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
