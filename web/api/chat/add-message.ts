import { mutationOptions, useMutation } from '@tanstack/react-query';
import { chatReply, type ChatAddInput, type ChatReply } from '#common/contract/chat.ts';
import { transportMessages } from '#common/messages.ts';
import { requestHeaders, sessionWatch, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** The streamed answer's type (common/contract/chat.ts ChatStreamLine, one JSON object per line). */
const NDJSON = 'application/x-ndjson';

export interface AddMessageOptions {
  /** Each piece of Titan's reply as it is written, before the final reply arrives. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * POST /api/chat/{sessionId}/add {role: 'user', content}: the visitor's message and Titan's reply. Asks for the
 * streamed answer (NDJSON lines: delta while the reply is written, then done with the reply, or error) and passes
 * each delta on; the result is the done line's reply. A server that answers with the plain JSON envelope instead is
 * read too. Never throws except when the signal aborts; failures follow the API client's rules (the server's
 * message, else the transport's, else 'POST request failed.').
 */
export async function postAddMessage(
  sessionId: string,
  input: ChatAddInput,
  options: AddMessageOptions = {},
): Promise<ApiResult<ChatReply>> {
  const path = `/api/chat/${encodeURIComponent(sessionId)}/add`;
  const fallback = transportMessages.POST;
  const answered = sessionWatch();
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: requestHeaders('POST', path, 'application/json', NDJSON),
      body: JSON.stringify(input),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return failure(error instanceof Error && error.message ? error.message : fallback);
  }

  answered(response.status);
  const type = response.headers.get('Content-Type') ?? '';
  if (!response.ok || !type.startsWith(NDJSON) || !response.body) {
    return readEnvelope(response, fallback);
  }
  try {
    return await readStream(response.body, fallback, options.onDelta);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // The connection broke in the middle of the reply.
    return failure(fallback);
  }
}

/** Reads the NDJSON lines until the done or error line; a stream that ends without one is a failure. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  fallback: string,
  onDelta: ((text: string) => void) | undefined,
): Promise<ApiResult<ChatReply>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      // The last piece may be a line still arriving; at the end of the stream it is the last line.
      buffered = done ? '' : (lines.pop() ?? '');
      for (const line of lines) {
        const result = readLine(line, fallback, onDelta);
        if (result) return result;
      }
      if (done) return failure(fallback);
    }
  } finally {
    // Stops the download when a done or error line came first (nothing more is wanted).
    reader.cancel().catch(() => undefined);
  }
}

/** One line: a delta is passed on (undefined: read on); done and error end the answer; a malformed line too. */
function readLine(
  line: string,
  fallback: string,
  onDelta: ((text: string) => void) | undefined,
): ApiResult<ChatReply> | undefined {
  if (!line.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return failure(fallback);
  }
  if (typeof parsed !== 'object' || parsed === null || !('type' in parsed)) return failure(fallback);
  if (parsed.type === 'delta') {
    if ('text' in parsed && typeof parsed.text === 'string') onDelta?.(parsed.text);
    return undefined;
  }
  if (parsed.type === 'done' && 'data' in parsed) {
    const checked = chatReply.safeParse(parsed.data);
    return checked.success ? { isSuccess: true, data: checked.data, message: null } : failure(fallback);
  }
  if (parsed.type === 'error') {
    return failure(messageOf(parsed) ?? fallback);
  }
  return failure(fallback);
}

/** The plain JSON answer: an error body, or the envelope of a server that did not stream. */
async function readEnvelope(response: Response, fallback: string): Promise<ApiResult<ChatReply>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await response.text());
  } catch {
    return failure(fallback);
  }
  if (!response.ok || typeof parsed !== 'object' || parsed === null || !('isSuccess' in parsed)) {
    return failure(messageOf(parsed) ?? fallback);
  }
  if (parsed.isSuccess !== true || !('data' in parsed)) return failure(messageOf(parsed) ?? fallback);
  const checked = chatReply.safeParse(parsed.data);
  return checked.success ? { isSuccess: true, data: checked.data, message: null } : failure(fallback);
}

function messageOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || !('message' in value)) return null;
  return typeof value.message === 'string' && value.message.trim() ? value.message : null;
}

function failure(message: string): ApiResult<never> {
  return { isSuccess: false, data: null, message };
}

export interface AddMessageVariables extends AddMessageOptions {
  sessionId: string;
  /** The visitor's text (the server trims it and refuses an empty one). */
  content: string;
}

export const addMessageMutationOptions = () =>
  mutationOptions({
    mutationKey: [...queryKeys.chat.all, 'add'],
    mutationFn: async ({ sessionId, content, onDelta, signal }: AddMessageVariables) =>
      unwrap(await postAddMessage(sessionId, { role: 'user', content }, { onDelta, signal })),
  });

/** Sends the visitor's message and streams Titan's reply through onDelta; the result is the final reply. */
export function useAddMessage() {
  return useMutation(addMessageMutationOptions());
}
