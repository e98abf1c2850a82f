import type { LlmSetting } from '#server/config.ts';

/*
 * An OpenAI-compatible chat-completions client for Titan (issue 16; decision 0031): one streamed completion with
 * Node's fetch. The services that speak this protocol (OpenAI and the hosted ones that copy it, llama.cpp's
 * server, Ollama's /v1, vLLM, LM Studio) answer `stream: true` with Server-Sent Events: `data: {json}` lines whose
 * choices[0].delta.content carry the text, then `data: [DONE]`. Every failure throws an LlmError whose message is
 * safe for a log line: it names the host, never the key.
 */

export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionOptions {
  /** The caller's own abort (the visitor went away): the call stops and rethrows the signal's reason. */
  signal?: AbortSignal;
  /** The whole call, from the request to [DONE] (ms); 60 s by default. */
  timeoutMs?: number;
  /** From the request to the first byte of the answer's body (ms); 10 s by default. */
  firstByteTimeoutMs?: number;
  /** Each piece of text as it arrives, in order. */
  onDelta?: (text: string) => void;
  /** The longest answer the model may write, in tokens; 600 by default. */
  maxTokens?: number;
}

export type LlmFailure = 'http' | 'network' | 'timeout' | 'malformed' | 'empty';

/** A failed completion; `message` is log-safe (no key, at most a short excerpt of the service's own words). */
export class LlmError extends Error {
  constructor(
    readonly failure: LlmFailure,
    message: string,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

const FIRST_BYTE_TIMEOUT_MS = 10_000;
const WHOLE_TIMEOUT_MS = 60_000;
const MAX_TOKENS = 600;
/** A completion of 600 tokens is a few kB of text and some tens of kB of events; far more is not an answer. */
const MAX_STREAM_BYTES = 1_000_000;
const ERROR_EXCERPT_CHARS = 200;

/** Asks `${baseUrl}/chat/completions` for a streamed completion; resolves to the whole text. */
export async function streamCompletion(
  setting: LlmSetting,
  messages: LlmMessage[],
  options: CompletionOptions = {},
): Promise<string> {
  const { signal } = options;
  signal?.throwIfAborted();
  const endpoint = `${setting.baseUrl}/chat/completions`;
  const service = hostOf(endpoint);
  const firstByteMs = options.firstByteTimeoutMs ?? FIRST_BYTE_TIMEOUT_MS;
  const wholeMs = options.timeoutMs ?? WHOLE_TIMEOUT_MS;
  const safe = (text: string) => redactKey(text, setting.apiKey);

  // One controller stops the request for any reason; `timedOut` says which of ours it was.
  const controller = new AbortController();
  let timedOut: string | null = null;
  const stopFor = (reason: string) => () => {
    timedOut ??= reason;
    controller.abort(new LlmError('timeout', `${service} ${reason}.`));
  };
  let firstByteTimer: NodeJS.Timeout | undefined = setTimeout(
    stopFor(`sent nothing within ${seconds(firstByteMs)}`),
    firstByteMs,
  );
  const wholeTimer = setTimeout(stopFor(`did not finish its answer within ${seconds(wholeMs)}`), wholeMs);
  const onClientAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onClientAbort, { once: true });
  const gotFirstByte = () => {
    clearTimeout(firstByteTimer);
    firstByteTimer = undefined;
  };

  // Whatever went wrong, the caller learns which it was: its own abort, one of our timeouts, or the service.
  const failure = (error: unknown): unknown => {
    if (signal?.aborted) return signal.reason;
    if (timedOut) return new LlmError('timeout', `${service} ${timedOut}.`);
    if (error instanceof LlmError) return new LlmError(error.failure, safe(error.message));
    return new LlmError('network', `${service} could not be reached: ${safe(causeOf(error))}.`);
  };

  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${setting.apiKey}`,
      },
      body: JSON.stringify({
        model: setting.model,
        messages,
        stream: true,
        temperature: 0.2,
        max_tokens: options.maxTokens ?? MAX_TOKENS,
      }),
      signal: controller.signal,
      // A redirect would carry the key to wherever it points.
      redirect: 'error',
    });
    if (!response.ok) {
      gotFirstByte();
      const excerpt = await readExcerpt(response).catch(() => '');
      const reason = serviceMessage(excerpt) ?? (response.statusText || 'no reason given');
      throw new LlmError('http', `${service} refused the completion (HTTP ${response.status}): ${reason}`);
    }
    if (!response.body) throw new LlmError('malformed', `${service} answered with no body.`);
    const contentType = response.headers.get('content-type') ?? '';
    const text = contentType.includes('application/json')
      ? await readWholeCompletion(response.body, service, gotFirstByte, options.onDelta)
      : await readEventStream(response.body, service, gotFirstByte, options.onDelta);
    if (!text.trim()) throw new LlmError('empty', `${service} answered with no text.`);
    return text;
  } catch (error) {
    throw failure(error);
  } finally {
    clearTimeout(firstByteTimer);
    clearTimeout(wholeTimer);
    signal?.removeEventListener('abort', onClientAbort);
    // Stops a body we did not read to its end (a malformed stream), so the connection is not left open.
    controller.abort();
  }
}

/**
 * Reads the Server-Sent Events of a streamed completion. Lines may arrive split across chunks; comment lines
 * (`: keep-alive`), `event:`/`id:`/`retry:` fields and blank lines are skipped. Each `data:` line is one JSON chunk
 * (these services never split one over several data lines). The stream must end with `data: [DONE]`, or at least
 * after a chunk with a finish_reason: a stream cut before either is a broken answer, not a short one.
 */
async function readEventStream(
  body: ReadableStream<Uint8Array>,
  service: string,
  gotFirstByte: () => void,
  onDelta: ((text: string) => void) | undefined,
): Promise<string> {
  const decoder = new TextDecoder();
  let pending = '';
  let text = '';
  let bytes = 0;
  let finished = false;

  const handleLine = (rawLine: string): 'done' | undefined => {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (!line.startsWith('data:')) return undefined; // blank line, comment, or another field
    const data = line.slice(line.startsWith('data: ') ? 6 : 5).trim();
    if (data === '[DONE]') return 'done';
    if (!data) return undefined;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new LlmError('malformed', `${service} sent a stream line that is not JSON.`);
    }
    const errorMessage = errorOf(chunk);
    if (errorMessage !== null)
      throw new LlmError('http', `${service} reported an error in the stream: ${errorMessage}`);
    const choice = firstChoice(chunk);
    if (choice === undefined) return undefined; // a chunk with no choices (usage figures)
    const content = choice.delta?.content;
    if (typeof content === 'string' && content) {
      text += content;
      onDelta?.(content);
    }
    if (choice.finish_reason) finished = true;
  };

  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      gotFirstByte();
      bytes += value.byteLength;
      if (bytes > MAX_STREAM_BYTES)
        throw new LlmError('malformed', `${service} sent more than ${MAX_STREAM_BYTES} bytes.`);
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (handleLine(line) === 'done') return text;
    }
    pending += decoder.decode();
    if (pending && handleLine(pending) === 'done') return text;
  } finally {
    reader.releaseLock();
  }
  if (finished) return text;
  throw new LlmError('malformed', `${service} ended the stream before the answer was complete.`);
}

/** A service that ignores `stream: true` answers one JSON completion; its text is passed on as one delta. */
async function readWholeCompletion(
  body: ReadableStream<Uint8Array>,
  service: string,
  gotFirstByte: () => void,
  onDelta: ((text: string) => void) | undefined,
): Promise<string> {
  const raw = await readLimited(body, MAX_STREAM_BYTES, gotFirstByte);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new LlmError('malformed', `${service} sent a JSON answer that does not parse.`);
  }
  const errorMessage = errorOf(parsed);
  if (errorMessage !== null) throw new LlmError('http', `${service} reported an error: ${errorMessage}`);
  const content = firstChoice(parsed)?.message?.content;
  if (typeof content !== 'string')
    throw new LlmError('malformed', `${service} sent a completion without message content.`);
  if (content) onDelta?.(content);
  return content;
}

interface Choice {
  delta?: { content?: unknown };
  message?: { content?: unknown };
  finish_reason?: unknown;
}

function firstChoice(chunk: unknown): Choice | undefined {
  if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return undefined;
  const choice: unknown = chunk.choices[0];
  return isRecord(choice) ? (choice as Choice) : undefined;
}

/** The service's own error inside a 200 answer (`{"error": {"message": …}}`), cut short; null when none. */
function errorOf(chunk: unknown): string | null {
  if (!isRecord(chunk) || chunk.error === undefined || chunk.error === null) return null;
  const error = chunk.error;
  const message = isRecord(error) && typeof error.message === 'string' ? error.message : String(error);
  return shorten(message);
}

/** The explanation in an error answer: OpenAI-style `{"error": {"message"}}`, `{"message"}`, or short text. */
function serviceMessage(excerpt: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(excerpt);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) {
    const fromError = errorOf(parsed);
    if (fromError) return fromError;
    if (typeof parsed.message === 'string' && parsed.message) return shorten(parsed.message);
  }
  const text = excerpt.trim();
  return text && !text.startsWith('<') ? shorten(text) : null;
}

/** The first few kB of an error answer: enough for its message, never a whole page. */
async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  return readLimited(response.body, 4096, () => undefined, true);
}

async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
  gotFirstByte: () => void,
  truncate = false,
): Promise<string> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      gotFirstByte();
      bytes += value.byteLength;
      if (bytes > limit) {
        if (truncate) {
          text += decoder.decode(value.subarray(0, value.byteLength - (bytes - limit)));
          await reader.cancel().catch(() => undefined);
          return text;
        }
        throw new LlmError('malformed', `the answer is larger than ${limit} bytes.`);
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.releaseLock();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > ERROR_EXCERPT_CHARS ? `${oneLine.slice(0, ERROR_EXCERPT_CHARS)}…` : oneLine;
}

/** A service may echo the key it refused; it never reaches a log line. */
function redactKey(text: string, apiKey: string): string {
  return apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
}

function hostOf(endpoint: string): string {
  try {
    return `The language model at ${new URL(endpoint).host}`;
  } catch {
    return 'The language model';
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** fetch reports network failures as "fetch failed" with the real reason in `cause`. */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error)
    return `${error.message} (${'code' in cause ? String(cause.code) : cause.message})`;
  return error.message;
}
