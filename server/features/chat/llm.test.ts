import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noSiteLinks } from '#common/content/site.ts';
import type { LlmSetting } from '#server/config.ts';
import { createAnswerer } from './answerer.ts';
import { builtInAnswer, retrieve } from './knowledge/index.ts';
import { LlmError, streamCompletion, type LlmMessage } from './llm.ts';

/*
 * Titan's language-model path against a real HTTP server in the test that speaks OpenAI's chat-completions
 * streaming protocol (Server-Sent Events), including its failures and the fallback to the built-in answer.
 */

const API_KEY = 'sk-test-0123456789abcdef';
const MODEL = 'titan-test-model';
const QUESTION = 'Can you help with database performance tuning and backups?';

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  body: { model: string; messages: LlmMessage[]; stream: boolean; temperature: number; max_tokens: number };
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

let server: http.Server;
let setting: LlmSetting;
let handler: Handler;
let received: Received[] = [];
const open = new Set<http.ServerResponse>();

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body: JSON.parse(raw) as Received['body'],
      });
      open.add(response);
      response.on('close', () => open.delete(response));
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  setting = { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, model: MODEL };
});

afterEach(() => {
  for (const response of open) response.destroy();
  open.clear();
  received = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One SSE event of a streamed completion carrying `content`. */
function event(content: string | null, finishReason: string | null = null): string {
  const chunk = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: MODEL,
    choices: [
      {
        index: 0,
        delta: content === null ? { role: 'assistant' } : { content },
        finish_reason: finishReason,
      },
    ],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function streamHead(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/** Writes `pieces` one at a time, each in its own TCP write, a few ms apart. */
async function writeSlowly(response: http.ServerResponse, pieces: string[]): Promise<void> {
  for (const piece of pieces) {
    response.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A well-behaved service: a role chunk, a keep-alive comment, the text in `deltas`, a finish chunk, [DONE]. */
function streaming(deltas: string[]): Handler {
  return (_request, response) => {
    streamHead(response);
    void writeSlowly(response, [
      event(null),
      ': keep-alive\n\n',
      ...deltas.map((delta) => event(delta)),
      event('', 'stop'),
      'data: [DONE]\n\n',
    ]).then(() => response.end());
  };
}

function recordingLog() {
  const warnings: { obj: object; msg: string }[] = [];
  return { warnings, log: { warn: (obj: object, msg: string) => warnings.push({ obj, msg }) } };
}

describe('streamCompletion', () => {
  it('streams the deltas in order and sends the model, the bearer key and stream: true', async () => {
    handler = streaming(['Hello', ', ', 'visitor', '.']);
    const deltas: string[] = [];
    const text = await streamCompletion(setting, [{ role: 'user', content: 'Hi' }], {
      onDelta: (delta) => deltas.push(delta),
    });
    expect(text).toBe('Hello, visitor.');
    expect(deltas).toEqual(['Hello', ', ', 'visitor', '.']);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/chat/completions');
    expect(request!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body).toMatchObject({ model: MODEL, stream: true, temperature: 0.2, max_tokens: 600 });
    expect(request!.body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('reads lines split anywhere across chunks, CRLF line ends and multi-byte characters cut in two', async () => {
    const body = [
      event(null),
      event('Grüße '),
      event('aus '),
      event('Zürich ✓'),
      event('', 'stop'),
      'data: [DONE]\n\n',
    ]
      .join('')
      .replace(/\n/g, '\r\n');
    const bytes = Buffer.from(body, 'utf8');
    handler = (_request, response) => {
      streamHead(response);
      // Seven-byte pieces cut lines, the "data:" prefix, JSON strings and UTF-8 sequences at arbitrary places.
      const pieces: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 7) pieces.push(bytes.subarray(at, at + 7));
      void (async () => {
        for (const piece of pieces) {
          response.write(piece);
          await new Promise((resolve) => setImmediate(resolve));
        }
        response.end();
      })();
    };
    const deltas: string[] = [];
    const text = await streamCompletion(setting, [{ role: 'user', content: 'Hallo' }], {
      onDelta: (delta) => deltas.push(delta),
    });
    expect(text).toBe('Grüße aus Zürich ✓');
    expect(deltas).toEqual(['Grüße ', 'aus ', 'Zürich ✓']);
  });

  it('refuses an HTTP error with the status and the service message, never the key', async () => {
    handler = (_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: `Incorrect API key provided: ${API_KEY}.`, type: 'invalid_request_error' },
        }),
      );
    };
    const error = await streamCompletion(setting, [{ role: 'user', content: 'Hi' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).failure).toBe('http');
    expect((error as LlmError).message).toMatch(/HTTP 401.*Incorrect API key provided: \[redacted\]/);
    expect((error as LlmError).message).not.toContain(API_KEY);
  });

  it('refuses a stream that stops before [DONE], and one with a line that is not JSON', async () => {
    handler = (_request, response) => {
      streamHead(response);
      void writeSlowly(response, [event('Half an ')]).then(() => response.end());
    };
    await expect(streamCompletion(setting, [{ role: 'user', content: 'Hi' }])).rejects.toMatchObject({
      failure: 'malformed',
      message: expect.stringMatching(/ended the stream before the answer was complete/),
    });

    handler = (_request, response) => {
      streamHead(response);
      void writeSlowly(response, [
        event('Fine so far'),
        'data: {"choices": [{"delta": {"content": "bro\n\n',
      ]).then(() => response.end());
    };
    await expect(streamCompletion(setting, [{ role: 'user', content: 'Hi' }])).rejects.toMatchObject({
      failure: 'malformed',
    });
  });

  it('accepts a stream that finished (finish_reason) but omits [DONE]; refuses an empty answer', async () => {
    handler = (_request, response) => {
      streamHead(response);
      void writeSlowly(response, [event('Complete.'), event('', 'stop')]).then(() => response.end());
    };
    await expect(streamCompletion(setting, [{ role: 'user', content: 'Hi' }])).resolves.toBe('Complete.');

    handler = streaming(['  ']);
    await expect(streamCompletion(setting, [{ role: 'user', content: 'Hi' }])).rejects.toMatchObject({
      failure: 'empty',
    });
  });

  it('times out a service that never answers, and one that stops in the middle', async () => {
    handler = () => undefined; // accepts the request, sends nothing
    await expect(
      streamCompletion(setting, [{ role: 'user', content: 'Hi' }], { firstByteTimeoutMs: 200 }),
    ).rejects.toMatchObject({
      failure: 'timeout',
      message: expect.stringMatching(/sent nothing within 200 ms/),
    });

    handler = (_request, response) => {
      streamHead(response);
      response.write(event('Thinking'));
    };
    await expect(
      streamCompletion(setting, [{ role: 'user', content: 'Hi' }], {
        firstByteTimeoutMs: 200,
        timeoutMs: 400,
      }),
    ).rejects.toMatchObject({
      failure: 'timeout',
      message: expect.stringMatching(/did not finish its answer within 400 ms/),
    });
  });

  it("rethrows the caller's own abort as it is", async () => {
    handler = (_request, response) => {
      streamHead(response);
      response.write(event('Started'));
    };
    const controller = new AbortController();
    const reason = new Error('the visitor left');
    const pending = streamCompletion(setting, [{ role: 'user', content: 'Hi' }], {
      signal: controller.signal,
      onDelta: () => controller.abort(reason),
    });
    await expect(pending).rejects.toBe(reason);
  });

  it('reports a service that cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      streamCompletion({ ...setting, baseUrl: `http://127.0.0.1:${port}/v1` }, [
        { role: 'user', content: 'Hi' },
      ]),
    ).rejects.toMatchObject({
      failure: 'network',
      message: expect.stringMatching(/could not be reached.*ECONNREFUSED/),
    });
  });

  it('takes a plain JSON completion from a service that ignores stream: true', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'Whole.' } }] }),
      );
    };
    const deltas: string[] = [];
    await expect(
      streamCompletion(setting, [{ role: 'user', content: 'Hi' }], { onDelta: (d) => deltas.push(d) }),
    ).resolves.toBe('Whole.');
    expect(deltas).toEqual(['Whole.']);
  });
});

describe('the answerer', () => {
  it('without a model answers the built-in answer, as one delta', async () => {
    const { warnings, log } = recordingLog();
    const answerer = createAnswerer({ links: noSiteLinks, llm: null, log });
    const deltas: string[] = [];
    const answer = await answerer.answer(QUESTION, [], (delta) => deltas.push(delta));
    expect(answer).toEqual(builtInAnswer(QUESTION));
    expect(answer.origin).toBe('built-in');
    expect(deltas).toEqual([answer.text]);
    expect(received).toHaveLength(0);
    expect(warnings).toEqual([]);
    expect(answerer.introduction().origin).toBe('introduction');
  });

  it("with a model streams its answer, given the passages in the system prompt, with the passages' pages as sources", async () => {
    const { passages, confident } = retrieve(QUESTION, 4);
    expect(confident).toBe(true);
    const first = passages[0]!;
    handler = streaming(['We tune ', 'databases; ', `see [${first.title}](${first.path}).`]);
    const { warnings, log } = recordingLog();
    const answerer = createAnswerer({ links: noSiteLinks, llm: setting, log });
    const deltas: string[] = [];
    const history = [
      { role: 'assistant' as const, text: 'I am Titan.' },
      { role: 'user' as const, text: 'Hello' },
      { role: 'assistant' as const, text: 'Hello! Ask me anything about our services.' },
    ];
    const answer = await answerer.answer(QUESTION, history, (delta) => deltas.push(delta));

    expect(deltas).toEqual(['We tune ', 'databases; ', `see [${first.title}](${first.path}).`]);
    expect(answer.origin).toBe('model');
    expect(answer.text).toBe(`We tune databases; see [${first.title}](${first.path}).`);
    const paths = [...new Set(passages.map((passage) => passage.path))];
    expect(answer.sources.map((source) => source.path)).toEqual(paths);
    expect(warnings).toEqual([]);

    const { body, authorization } = received[0]!;
    expect(authorization).toBe(`Bearer ${API_KEY}`);
    expect(body.model).toBe(MODEL);
    expect(body.stream).toBe(true);
    const [system, ...conversation] = body.messages;
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('You are Titan');
    expect(system!.content).toContain('[Contact us](/contact-us)');
    for (const passage of passages) {
      expect(system!.content).toContain(`Path: ${passage.path}`);
      expect(system!.content).toContain(`Title: ${passage.title}`);
    }
    // The leading assistant turn is dropped so the conversation starts with the visitor and alternates.
    expect(conversation).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hello! Ask me anything about our services.' },
      { role: 'user', content: QUESTION },
    ]);
  });

  it('sends at most six earlier turns', async () => {
    handler = streaming(['Fine.']);
    const history = Array.from({ length: 20 }, (_, index) => ({
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      text: `turn ${index}`,
    }));
    await createAnswerer({ links: noSiteLinks, llm: setting, log: recordingLog().log }).answer(
      QUESTION,
      history,
    );
    const conversation = received[0]!.body.messages.slice(1);
    expect(conversation.map((message) => message.content)).toEqual([
      'turn 14',
      'turn 15',
      'turn 16',
      'turn 17',
      'turn 18',
      'turn 19',
      QUESTION,
    ]);
  });

  it('falls back to the built-in answer on an HTTP 500, with a warning that does not hold the key', async () => {
    handler = (_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'The model is overloaded.' } }));
    };
    const { warnings, log } = recordingLog();
    const deltas: string[] = [];
    const answer = await createAnswerer({ links: noSiteLinks, llm: setting, log }).answer(
      QUESTION,
      [],
      (delta) => deltas.push(delta),
    );
    expect(answer).toEqual(builtInAnswer(QUESTION));
    expect(answer.origin).toBe('built-in');
    // No model text went out, so the built-in answer is streamed as one delta.
    expect(deltas).toEqual([answer.text]);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toMatch(/HTTP 500.*The model is overloaded/);
    expect(JSON.stringify(warnings)).not.toContain(API_KEY);
  });

  it('falls back when the stream breaks after some text, without appending the built-in text to it', async () => {
    handler = (_request, response) => {
      streamHead(response);
      void writeSlowly(response, [event('We build '), 'data: {not json}\n\n']).then(() => response.end());
    };
    const { warnings, log } = recordingLog();
    const deltas: string[] = [];
    const answer = await createAnswerer({ links: noSiteLinks, llm: setting, log }).answer(
      QUESTION,
      [],
      (delta) => deltas.push(delta),
    );
    expect(answer).toEqual(builtInAnswer(QUESTION));
    expect(deltas).toEqual(['We build ']);
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toMatch(/not JSON/);
  });

  it('falls back when the stream stops without [DONE]', async () => {
    handler = (_request, response) => {
      streamHead(response);
      void writeSlowly(response, [event('We build ')]).then(() => response.end());
    };
    const { warnings, log } = recordingLog();
    const answer = await createAnswerer({ links: noSiteLinks, llm: setting, log }).answer(QUESTION, []);
    expect(answer).toEqual(builtInAnswer(QUESTION));
    expect(warnings).toHaveLength(1);
  });

  it('falls back when the service never answers (first-byte timeout)', async () => {
    handler = () => undefined;
    const { warnings, log } = recordingLog();
    const answerer = createAnswerer({
      links: noSiteLinks,
      llm: setting,
      log,
      timeouts: { firstByteTimeoutMs: 200 },
    });
    const answer = await answerer.answer(QUESTION, []);
    expect(answer).toEqual(builtInAnswer(QUESTION));
    expect(JSON.stringify(warnings[0])).toMatch(/sent nothing within 200 ms/);
  });

  it("stops and rethrows when the visitor's own request is aborted", async () => {
    handler = (_request, response) => {
      streamHead(response);
      response.write(event('Started'));
    };
    const { warnings, log } = recordingLog();
    const controller = new AbortController();
    const answer = createAnswerer({ links: noSiteLinks, llm: setting, log }).answer(
      QUESTION,
      [],
      () => controller.abort(new Error('gone')),
      controller.signal,
    );
    await expect(answer).rejects.toThrow('gone');
    expect(warnings).toEqual([]);
  });

  it('asks the model with a warning in the prompt when retrieval is not confident, and keeps only cited pages', async () => {
    const question = 'Can you recommend a good pizza place in Naples?';
    const found = retrieve(question, 4);
    expect(found.confident).toBe(false);
    handler = streaming(["I don't know that from this site; please ", '[Contact us](/contact-us).']);
    const answer = await createAnswerer({ links: noSiteLinks, llm: setting, log: recordingLog().log }).answer(
      question,
      [],
    );
    expect(answer.origin).toBe('model');
    expect(answer.sources).toEqual([]);
    expect(received[0]!.body.messages[0]!.content).toMatch(/may be unrelated/);
  });
});
