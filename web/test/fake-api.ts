import { afterEach, beforeEach, vi, type Mock } from 'vitest';
import { z, type ZodType } from 'zod';
import { chatReply, type ChatStreamLine } from '#common/contract/chat.ts';
import { envelope, failureEnvelope } from '#common/contract/envelope.ts';
import type { HttpMethod } from '#web/api/client.ts';
import { findContractRoute, type ContractRoute } from '#web/test/contract-routes.ts';

/*
 * The web tests' one fake of the API: `fetch` answered from canned answers that the server's contract allows. Each
 * answer is checked against the common/contract schema of its route (web/test/contract-routes.ts) when registered,
 * and again when served, so a test cannot pass on an answer the server would never give; a mismatch fails the test
 * with the route and the Zod issues.
 */

/** The page's origin: paths of the API are relative to it; anything sent elsewhere is no call of the API. */
const ORIGIN = globalThis.location?.origin ?? 'http://localhost';

/** A canned answer: the success envelope, a failure envelope, or (unchecked) a raw response or a transport error. */
export type FakeAnswer =
  | { kind: 'ok'; data: unknown; message: string | null }
  | { kind: 'envelope'; status: number; body: { isSuccess: boolean; data: unknown; message: string | null } }
  | { kind: 'fail'; status: number; message: string; data: unknown }
  | { kind: 'raw'; response: () => Response | Promise<Response> }
  | { kind: 'transport'; error: unknown }
  | { kind: 'chat-stream'; stream: ReadableStream<Uint8Array>; lines: readonly unknown[] };

/** The success envelope `{isSuccess: true, data, message}`, under the route's success status. */
export function ok(data: unknown, message: string | null = null): FakeAnswer {
  return { kind: 'ok', data, message };
}

/**
 * An envelope as it is, under `status`: for the answers that are neither, such as a failed export's status (200,
 * `isSuccess` false, the status as data, its reason as the message). Checked as the route's success envelope below
 * 400, as a failure from 400 on.
 */
export function reply(
  status: number,
  body: { isSuccess: boolean; data: unknown; message: string | null },
): FakeAnswer {
  return { kind: 'envelope', status, body };
}

/** A failure envelope `{isSuccess: false, data, message}` under `status`; data only where the route's failure
 * carries some (a 409 of a changed row carries the row as it is now). */
export function fail(status: number, message: string, data: unknown = null): FakeAnswer {
  return { kind: 'fail', status, message, data };
}

/**
 * A response served as it is, unchecked: for answers that are no envelope (a downloaded file, the human check's
 * challenge), and for what something other than DBUI's server may answer (a proxy's HTML page, a cut body). A
 * function makes a fresh response for each request (a body is read once).
 */
export function raw(response: Response | (() => Response | Promise<Response>)): FakeAnswer {
  return {
    kind: 'raw',
    response: typeof response === 'function' ? response : () => response.clone(),
  };
}

/** fetch rejects with `error`, as it does when the network fails or the request is aborted. */
export function transportError(error: unknown = new TypeError('Failed to fetch')): FakeAnswer {
  return { kind: 'transport', error };
}

const chatStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('done'), data: chatReply }),
  z.object({ type: z.literal('error'), message: z.string() }),
]);

/** POST /api/chat/{id}/add's streamed answer (Accept: application/x-ndjson) with all its lines at once. */
export function chatStream(...lines: ChatStreamLine[]): FakeAnswer {
  const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  const stream = new Response(text).body;
  if (!stream) throw new Error('fake API: a Response without a body stream');
  return { kind: 'chat-stream', stream, lines };
}

/** The same, written by the test a line at a time: `answer` to register, then `line(…)` and `end()`. Each line is
 * checked against the contract as it is written. */
export function liveChatStream(): {
  answer: FakeAnswer;
  line: (line: ChatStreamLine) => void;
  end: () => void;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    answer: { kind: 'chat-stream', stream, lines: [] },
    line: (line) => {
      const checked = chatStreamLine.safeParse(line);
      if (!checked.success) {
        throw new Error(
          `fake API: a line of POST /api/chat/:sessionId/add's stream is not what the server sends:\n` +
            z.prettifyError(checked.error),
        );
      }
      controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
    },
    end: () => controller.close(),
  };
}

/** A request as the fake API saw it. */
export interface FakeRequest {
  method: HttpMethod;
  /** The path and query as sent. */
  url: string;
  pathname: string;
  query: URLSearchParams;
  /** The contract route's `:name` segments, decoded. */
  params: Record<string, string>;
  /** The JSON body parsed; a filter or row of the data API (text/plain, spec 000 §7) decoded; undefined when none. */
  body: unknown;
  headers: Headers;
}

/** A canned answer, or a function of the request that gives one (at once or later). */
export type FakeHandler = FakeAnswer | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>);

export interface FakeApi {
  /**
   * Answers `method path` with `handler` from now on (the last registration that matches wins, so a test overrides
   * its file's defaults). `path` is a path of the API, `:name` matching one segment; a query (`?page=2`) matches
   * requests carrying at least those parameters. The route must be one the server has (contract-routes.ts), except
   * for raw() and transportError() answers, which may stand anywhere (`*`: any path of any origin): the HTTP
   * client's own tests feed it what no DBUI server sends.
   */
  on(method: HttpMethod, path: string, handler: FakeHandler): void;
  /** Answers the next matching request only; several queue up in order, before any `on` answer. */
  once(method: HttpMethod, path: string, handler: FakeHandler): void;
  /** The requests so far, in order; only those of `method` and `path` (a pattern, as for `on`) when given. */
  requests(method?: HttpMethod, path?: string): FakeRequest[];
  /** Every request so far, in order: the same array all along, so it can be kept and read later. */
  readonly log: readonly FakeRequest[];
  /** The stubbed fetch, whose calls are `[path, init]` as the app made them. */
  fetch: Mock<(input: string, init: RequestInit) => Promise<Response>>;
}

interface Registration {
  method: HttpMethod;
  /** Null for `*`, any path of any origin. */
  pathSegments: string[] | null;
  query: URLSearchParams;
  handler: FakeHandler;
  once: boolean;
}

/** A fake API with its own lifecycle, for the harness's own tests; test files use fakeApi(). */
export interface FakeApiControl {
  api: FakeApi;
  /** Forgets every answer, request and contract violation. */
  reset(): void;
  /** What broke the contract since the last reset: answers the server would never give, routes it does not have. */
  violations(): string[];
}

/**
 * The fake API of a test file: call it at the top of the file. Before each test it forgets every answer and
 * request and stands in for `fetch`; after each, it puts `fetch` back and fails the test when an answer broke the
 * contract or the app asked for a route the server does not have. A request nothing answers gets a 404 failure
 * envelope, as the server's for a route it does not have.
 */
export function fakeApi(): FakeApi {
  const control = createFakeApi();
  beforeEach(() => {
    control.reset();
    vi.stubGlobal('fetch', control.api.fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    const violations = control.violations();
    if (violations.length > 0) throw new Error(violations.join('\n\n'));
  });
  return control.api;
}

/** The fake API itself, not yet standing in for fetch. */
export function createFakeApi(): FakeApiControl {
  let registrations: Registration[] = [];
  const seen: FakeRequest[] = [];
  let violations: string[] = [];

  const register = (method: HttpMethod, path: string, handler: FakeHandler, once: boolean) => {
    const [pathname = '', search = ''] = path.split('?');
    const matched = path === '*' ? null : findContractRoute(method, pathname);
    if (typeof handler !== 'function') {
      // Outside the contract (any path, or one the server does not have) only unchecked answers make sense.
      if (!matched && !unchecked(handler)) throw new Error(noRoute(method, pathname));
      const problem = matched ? contractProblem(matched.route, handler) : null;
      if (matched && problem) throw new Error(mismatch(method, path, matched.route, problem));
    }
    registrations.push({
      method,
      pathSegments: path === '*' ? null : pathname.split('/'),
      query: new URLSearchParams(search),
      handler,
      once,
    });
  };

  const serve = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), ORIGIN);
    const method = (init.method ?? 'GET').toUpperCase() as HttpMethod;
    const ours = url.origin === ORIGIN;
    const matched = ours ? findContractRoute(method, url.pathname) : null;
    const request: FakeRequest = {
      method,
      url: ours ? `${url.pathname}${url.search}` : url.href,
      pathname: url.pathname,
      query: url.searchParams,
      params: matched?.params ?? {},
      body: bodyOf(init),
      headers: new Headers(init.headers),
    };
    seen.push(request);
    const chosen = pick(registrations, request, ours);
    if (!chosen) {
      if (!ours) return json(404, { message: `fake API: nothing answers ${url.origin} in a test` });
      if (!matched) {
        violations.push(
          `fake API: the app asked for ${method} ${url.pathname}, a route the server does not have.`,
        );
        return json(404, { isSuccess: false, data: null, message: noRoute(method, url.pathname) });
      }
      return json(404, {
        isSuccess: false,
        data: null,
        message: `fake API: the test gives no answer for ${method} ${request.url}`,
      });
    }
    if (chosen.once) registrations = registrations.filter((registration) => registration !== chosen);
    const produced = typeof chosen.handler === 'function' ? chosen.handler(request) : chosen.handler;
    // An answer at hand arrives at once; one still coming loses to the request's abort, as in a browser.
    const answer = produced instanceof Promise ? await abortable(produced, init.signal) : produced;
    const problem = matched
      ? contractProblem(matched.route, answer)
      : unchecked(answer)
        ? null
        : 'the server has no such route, so only raw() and transportError() answers fit it';
    if (problem) {
      const message = matched
        ? mismatch(method, request.url, matched.route, problem)
        : `fake API: the answer to ${method} ${request.url}: ${problem}`;
      violations.push(message);
      throw new Error(message);
    }
    return responseOf(matched?.route.successStatus ?? 200, answer);
  };

  const fetch = vi.fn<(input: string, init: RequestInit) => Promise<Response>>(serve);

  return {
    api: {
      on: (method, path, handler) => register(method, path, handler, false),
      once: (method, path, handler) => register(method, path, handler, true),
      requests: (method, path) =>
        seen.filter(
          (request) =>
            (method === undefined || request.method === method) &&
            (path === undefined || pathMatches(path.split('?')[0]?.split('/') ?? [], request.pathname)),
        ),
      log: seen,
      fetch,
    },
    reset: () => {
      registrations = [];
      seen.length = 0;
      violations = [];
      fetch.mockClear();
    },
    violations: () => [...violations],
  };
}

/** The registration that answers a request: the first one-time answer that matches, else the last standing one. */
function pick(registrations: Registration[], request: FakeRequest, ours: boolean): Registration | null {
  const matching = registrations.filter(
    (registration) =>
      registration.method === request.method &&
      (registration.pathSegments === null ||
        (ours && pathMatches(registration.pathSegments, request.pathname))) &&
      [...registration.query].every(([name, value]) => request.query.getAll(name).includes(value)),
  );
  return matching.find((registration) => registration.once) ?? matching.at(-1) ?? null;
}

function pathMatches(pattern: string[], pathname: string): boolean {
  const segments = pathname.split('/');
  return (
    pattern.length === segments.length &&
    pattern.every((part, index) => part.startsWith(':') || decoded(part) === decoded(segments[index] ?? ''))
  );
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** What is wrong with `answer` for `route`, in Zod's words; null when the server could send it. */
function contractProblem(route: ContractRoute, answer: FakeAnswer): string | null {
  switch (answer.kind) {
    case 'raw':
    case 'transport':
      return null;
    case 'chat-stream': {
      if (route.path !== '/api/chat/:sessionId/add')
        return 'only POST /api/chat/:sessionId/add answers a stream';
      for (const line of answer.lines) {
        const checked = chatStreamLine.safeParse(line);
        if (!checked.success) return z.prettifyError(checked.error);
      }
      return null;
    }
    case 'ok': {
      if (!route.data) return 'this route answers no envelope: give a raw() answer';
      return problemOf(envelope(route.data), { isSuccess: true, data: answer.data, message: answer.message });
    }
    case 'fail': {
      if (answer.status < 400) return `a failure answers a status of 400 or more, not ${answer.status}`;
      return failureProblem(route, answer.status, {
        isSuccess: false,
        data: answer.data,
        message: answer.message,
      });
    }
    case 'envelope': {
      if (answer.status >= 400) return failureProblem(route, answer.status, answer.body);
      if (!route.data) return 'this route answers no envelope: give a raw() answer';
      return problemOf(envelope(route.data), answer.body);
    }
  }
}

function failureProblem(
  route: ContractRoute,
  status: number,
  body: { isSuccess: boolean; data: unknown; message: string | null },
): string | null {
  const carried = route.failures[status];
  if (body.data !== null && !carried)
    return `its ${status} failure carries data null (the server's failure envelope)`;
  return problemOf(carried ? envelope(carried) : failureEnvelope, body);
}

function problemOf(schema: ZodType, value: unknown): string | null {
  const checked = schema.safeParse(value);
  return checked.success ? null : z.prettifyError(checked.error);
}

function mismatch(method: string, path: string, route: ContractRoute, problem: string): string {
  return (
    `fake API: the answer to ${method} ${path} is not what the server sends ` +
    `(contract of ${route.method} ${route.path}):\n${problem}`
  );
}

function noRoute(method: string, path: string): string {
  return `fake API: the server has no route ${method} ${path} (web/test/contract-routes.ts lists them)`;
}

/** Answers that no contract checks: raw responses and transport errors. */
function unchecked(answer: FakeAnswer): boolean {
  return answer.kind === 'raw' || answer.kind === 'transport';
}

function responseOf(successStatus: number, answer: FakeAnswer): Promise<Response> | Response {
  switch (answer.kind) {
    case 'ok':
      return json(successStatus, { isSuccess: true, data: answer.data, message: answer.message });
    case 'fail':
      return json(answer.status, { isSuccess: false, data: answer.data, message: answer.message });
    case 'envelope':
      return json(answer.status, answer.body);
    case 'raw':
      return answer.response();
    case 'transport':
      return Promise.reject(answer.error);
    case 'chat-stream':
      return new Response(answer.stream, { headers: { 'Content-Type': 'application/x-ndjson' } });
  }
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The answer, unless the request's signal aborts first: then fetch rejects with the abort, as a browser's does. */
function abortable(answer: Promise<FakeAnswer>, signal: AbortSignal | null | undefined): Promise<FakeAnswer> {
  if (!signal) return answer;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(abortError(signal));
    signal.addEventListener('abort', () => reject(abortError(signal)), { once: true });
  });
  return Promise.race([answer, aborted]);
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException('The operation was aborted.', 'AbortError');
}

/** The request's body as the server reads it. */
function bodyOf(init: RequestInit): unknown {
  if (typeof init.body !== 'string') return undefined;
  const type = new Headers(init.headers).get('Content-Type') ?? '';
  try {
    if (type.startsWith('text/plain')) return JSON.parse(decodeURIComponent(atob(init.body))) as unknown;
    return JSON.parse(init.body) as unknown;
  } catch {
    return init.body;
  }
}
