import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatMessages as cm,
  type ChatMessage,
  type ChatReply,
  type ChatSession,
  type ChatStreamLine,
  type ChatTranscript,
  type PagedChats,
} from '#common/contract/chat.ts';
import { CHAT_MESSAGE_LIMIT } from '#common/limits.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { sha256Hex } from '#server/crypto/tokens.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import type { Answer } from './answer.ts';
import { CHAT_COOKIE, CHAT_REPLY_MAX, chatServiceMessages, type Answerer } from './chat-service.ts';

/*
 * Titan's sessions (issue 16) against a real app on a SQLite and a PostgreSQL app store: start (introduction or the
 * visitor's messages), read, add (JSON and NDJSON), the limit and its canned reply, the binding of a session to the
 * browser's HttpOnly cookie, input limits, XSRF, the administrators' list and transcript, rate limits per address.
 * The answerer is this file's own (the seam between sessions and answers): it answers "Answer to: <question>" in
 * three deltas, with the Services page as its source, and knows a few special questions.
 */

const INTRODUCTION: Answer = {
  text: 'I am Titan (test): ask me about the services.',
  origin: 'introduction',
  sources: [],
};

/** A deterministic answerer; `aborted` resolves when an answer was abandoned by its caller. */
function testAnswerer() {
  let abandoned: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => (abandoned = resolve));
  const histories: { role: string; text: string }[][] = [];
  const answerer: Answerer = {
    introduction: () => INTRODUCTION,
    async answer(question, history, onDelta, signal) {
      histories.push(history);
      if (question.includes('slow')) {
        onDelta?.('Thinking');
        await new Promise<void>((resolve) => {
          signal?.addEventListener('abort', () => resolve(), { once: true });
          setTimeout(resolve, 10_000);
        });
        if (signal?.aborted) {
          abandoned();
          throw signal.reason;
        }
        return { text: 'Too late.', origin: 'model', sources: [] };
      }
      if (question.includes('broken')) throw new Error('the answerer broke');
      if (question.includes('thanks')) return { text: 'You are welcome!', origin: 'small-talk', sources: [] };
      if (question.includes('unknown')) {
        onDelta?.("I don't know that.");
        return { text: "I don't know that. [Contact us](/contact-us)", origin: 'built-in', sources: [] };
      }
      if (question.includes('fallback')) {
        // A model that failed half way: the built-in answer replaces what was streamed.
        onDelta?.('Half a model re');
        return {
          text: 'The built-in answer.',
          origin: 'built-in',
          sources: [{ title: 'About', path: '/about-us' }],
        };
      }
      if (question.includes('long'))
        return { text: 'x'.repeat(CHAT_REPLY_MAX + 500), origin: 'model', sources: [] };
      const parts = ['Answer to: ', question, ` (${history.length} before)`];
      for (const part of parts) onDelta?.(part);
      return { text: parts.join(''), origin: 'model', sources: [{ title: 'Services', path: '/services' }] };
    },
  };
  return { answerer, aborted, histories };
}

const textOf = (message: ChatMessage) => message.content[0]?.text.value;
/** The support address the apps of this file are given (SUPPORT_EMAIL). */
const SUPPORT_EMAIL = 'help@example.org';
const INTRODUCTION_MESSAGE: ChatMessage = {
  id: 0,
  role: 'assistant',
  content: [],
  createdAt: 0,
  origin: 'introduction',
  sources: [],
};

describe.each(['sqlite', 'postgres'] as const)('Titan on a %s app store', (storeKind) => {
  let t: TestApp;
  let database: TestDatabase | undefined;
  let admin: TestUser;
  let member: TestUser;
  let anonymous: Record<string, string>;
  let fake: ReturnType<typeof testAnswerer>;

  beforeAll(async () => {
    database = storeKind === 'postgres' ? await createPostgresDatabase('dbui_store') : undefined;
    fake = testAnswerer();
    t = await buildTestApp({
      env: { SUPPORT_EMAIL, ...(database ? { APP_DB_URL: database.url } : {}) },
      chat: { answerer: fake.answerer },
    });
    admin = await buildAdmin(t, { username: 'boss' });
    member = await buildUser(t, { username: 'member' });
    anonymous = await withXsrf(t);
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  /** A browser: the XSRF pair (and a session, when signed in) plus the chat cookie once start set it. */
  function browser(base: Record<string, string> = anonymous) {
    let chatCookie: string | null = null;
    const headers = (extra: Record<string, string> = {}) => ({
      ...base,
      ...(chatCookie ? { cookie: `${base.cookie}; ${CHAT_COOKIE}=${chatCookie}` } : {}),
      ...extra,
    });
    return {
      get secret() {
        return chatCookie;
      },
      set secret(value: string | null) {
        chatCookie = value;
      },
      async start(messages: unknown[] = []) {
        const answer = await t.app.inject({
          method: 'POST',
          url: '/api/chat/start',
          headers: headers(),
          payload: { messages },
        });
        const set = answer.cookies.find((cookie) => cookie.name === CHAT_COOKIE);
        if (set) chatCookie = set.value;
        return answer;
      },
      get: (sessionId: string) =>
        t.app.inject({ method: 'GET', url: `/api/chat/${sessionId}`, headers: headers() }),
      add: (sessionId: string, content: unknown, extra: Record<string, string> = {}, role = 'user') =>
        t.app.inject({
          method: 'POST',
          url: `/api/chat/${sessionId}/add`,
          headers: headers(extra),
          payload: { role, content },
        }),
    };
  }

  async function started(visitor = browser(), messages: unknown[] = []): Promise<ChatSession> {
    const answer = await visitor.start(messages);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: ChatSession }>().data;
  }
  async function added(
    visitor: ReturnType<typeof browser>,
    sessionId: string,
    text: unknown,
  ): Promise<ChatReply> {
    const answer = await visitor.add(sessionId, text);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ data: ChatReply }>().data;
  }
  const storedMessages = async (publicId: string) =>
    t.store.db
      .selectFrom('chat_messages')
      .innerJoin('chat_sessions', 'chat_sessions.id', 'chat_messages.session_id')
      .select([
        'chat_messages.role',
        'chat_messages.origin',
        'chat_messages.text',
        'chat_messages.created_at',
      ])
      .where('chat_sessions.public_id', '=', publicId)
      .orderBy('chat_messages.id')
      .execute();
  const sessionRow = (publicId: string) =>
    t.store.db
      .selectFrom('chat_sessions')
      .selectAll()
      .where('public_id', '=', publicId)
      .executeTakeFirstOrThrow();

  it('starts with the introduction and binds the session to an HttpOnly cookie', async () => {
    const visitor = browser();
    const before = Math.floor(t.clock.now().getTime() / 1000);
    const answer = await visitor.start();
    expect(answer.statusCode, answer.body).toBe(200);
    const cookie = answer.cookies.find((c) => c.name === CHAT_COOKIE);
    expect(cookie).toMatchObject({
      path: '/api/chat',
      httpOnly: true,
      sameSite: 'Strict',
      maxAge: 30 * 24 * 3600,
    });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = answer.json<{ data: ChatSession }>().data;
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(session.remaining).toBe(CHAT_MESSAGE_LIMIT);
    expect(session.messages).toHaveLength(1);
    const [intro] = session.messages;
    expect(intro).toMatchObject({
      role: 'assistant',
      origin: 'introduction',
      content: [{ type: 'text', text: { value: INTRODUCTION.text } }],
      sources: [],
    });
    expect(intro?.createdAt).toBeGreaterThanOrEqual(before);
    expect(intro?.createdAt).toBeLessThan(before + 60);

    const row = await sessionRow(session.sessionId);
    expect(row.owner_hash).toBe(sha256Hex(cookie?.value ?? ''));
    expect(row.user_id).toBeNull();
    expect(row.visitor_messages).toBe(0);
    // The store keeps ISO instants like every other table.
    expect((await storedMessages(session.sessionId))[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The same browser's next chat reuses its cookie; both chats stay its own.
    const second = await visitor.start();
    expect(second.cookies.find((c) => c.name === CHAT_COOKIE)?.value).toBe(cookie?.value);
    const secondSession = second.json<{ data: ChatSession }>().data;
    expect(secondSession.sessionId).not.toBe(session.sessionId);
    expect((await visitor.get(session.sessionId)).statusCode).toBe(200);
    expect((await visitor.get(secondSession.sessionId)).statusCode).toBe(200);
  });

  it("starts with the visitor's messages, stores them and answers the last", async () => {
    const visitor = browser();
    const session = await started(visitor, [
      { role: 'user', content: '  What do you offer?  ' },
      { role: 'user', content: [{ type: 'text', text: { value: 'And DBUI?' } }] },
    ]);
    expect(session.remaining).toBe(CHAT_MESSAGE_LIMIT - 2);
    expect(session.messages.map((m) => [m.role, m.origin, textOf(m)])).toEqual([
      ['user', 'visitor', 'What do you offer?'],
      ['user', 'visitor', 'And DBUI?'],
      ['assistant', 'model', 'Answer to: And DBUI? (1 before)'],
    ]);
    expect(session.messages[2]?.sources).toEqual([{ title: 'Services', path: '/services' }]);
    expect(fake.histories.at(-1)).toEqual([{ role: 'user', text: 'What do you offer?' }]);
    expect((await sessionRow(session.sessionId)).visitor_messages).toBe(2);
    const read = (await visitor.get(session.sessionId)).json<{ data: ChatSession }>().data;
    expect(read).toEqual(session);
  });

  it('answers an added message, keeps the conversation as history and counts what remains', async () => {
    const visitor = browser();
    const session = await started(visitor);
    const first = await added(visitor, session.sessionId, 'What services do you have?');
    expect(first.remaining).toBe(CHAT_MESSAGE_LIMIT - 1);
    expect(first.message).toMatchObject({ role: 'user', origin: 'visitor', sources: [] });
    expect(textOf(first.message)).toBe('What services do you have?');
    expect(first.message.id).toBeGreaterThan(0);
    expect(first.reply).toMatchObject({ role: 'assistant', origin: 'model' });
    expect(textOf(first.reply)).toBe('Answer to: What services do you have? (0 before)');
    expect(first.reply.id).toBeGreaterThan(first.message.id);

    const second = await added(visitor, session.sessionId, [
      { type: 'text', text: { value: 'And prices?' } },
    ]);
    expect(second.remaining).toBe(CHAT_MESSAGE_LIMIT - 2);
    // The introduction is not part of the history; the earlier turn is.
    expect(fake.histories.at(-1)).toEqual([
      { role: 'user', text: 'What services do you have?' },
      { role: 'assistant', text: 'Answer to: What services do you have? (0 before)' },
    ]);
    const read = (await visitor.get(session.sessionId)).json<{ data: ChatSession }>().data;
    expect(read.remaining).toBe(CHAT_MESSAGE_LIMIT - 2);
    expect(read.messages.map((m) => m.id)).toEqual([
      session.messages[0]?.id,
      first.message.id,
      first.reply.id,
      second.message.id,
      second.reply.id,
    ]);
  });

  it('cuts a reply at 8000 characters', async () => {
    const visitor = browser();
    const session = await started(visitor);
    const reply = await added(visitor, session.sessionId, 'a long answer please');
    expect(textOf(reply.reply)).toHaveLength(CHAT_REPLY_MAX);
    expect((await storedMessages(session.sessionId)).at(-1)?.text).toHaveLength(CHAT_REPLY_MAX);
  });

  it('answers the 10th message normally, then the canned reply with the contact, storing nothing', async () => {
    const visitor = browser();
    const session = await started(visitor, [{ role: 'user', content: 'one' }]);
    let last: ChatReply | undefined;
    for (let i = 2; i <= CHAT_MESSAGE_LIMIT; i++)
      last = await added(visitor, session.sessionId, `question ${i}`);
    expect(last?.remaining).toBe(0);
    expect(last?.reply.origin).toBe('model');
    // Every earlier question was answered: 9 questions and 9 replies came before the 10th.
    expect(last && textOf(last.reply)).toBe(
      `Answer to: question ${CHAT_MESSAGE_LIMIT} (${2 * (CHAT_MESSAGE_LIMIT - 1)} before)`,
    );
    const storedBefore = await storedMessages(session.sessionId);

    const over = await added(visitor, session.sessionId, '  one more?  ');
    expect(over.remaining).toBe(0);
    expect(over.message).toMatchObject({ id: 0, role: 'user', origin: 'visitor', sources: [] });
    expect(textOf(over.message)).toBe('one more?');
    expect(over.reply).toMatchObject({ id: 0, role: 'assistant', origin: 'limit', sources: [] });
    expect(textOf(over.reply)).toBe(cm.limitReply(SUPPORT_EMAIL));
    // The support contact: the contact page, and the address the operator set (SUPPORT_EMAIL).
    expect(textOf(over.reply)).toContain('[Contact us](/contact-us)');
    expect(textOf(over.reply)).toContain(`write to ${SUPPORT_EMAIL}`);
    expect(await storedMessages(session.sessionId)).toEqual(storedBefore);
    expect((await sessionRow(session.sessionId)).visitor_messages).toBe(CHAT_MESSAGE_LIMIT);
    const read = (await visitor.get(session.sessionId)).json<{ data: ChatSession }>().data;
    expect(read.remaining).toBe(0);
  });

  it('starts with as many messages as the limit (then only the canned reply), never more', async () => {
    const visitor = browser();
    const full = Array.from({ length: CHAT_MESSAGE_LIMIT }, (_, i) => ({ role: 'user', content: `q${i}` }));
    const session = await started(visitor, full);
    expect(session.remaining).toBe(0);
    expect((await added(visitor, session.sessionId, 'more')).reply.origin).toBe('limit');
    const tooMany = await visitor.start([...full, { role: 'user', content: 'eleven' }]);
    expect(tooMany.statusCode).toBe(400);
  });

  it("answers 404 'not found' for another browser's session, no cookie or an unknown id", async () => {
    const owner = browser(member.headers);
    const session = await started(owner);
    await added(owner, session.sessionId, 'mine');
    expect((await sessionRow(session.sessionId)).user_id).toBe(member.userId);

    const other = browser();
    await started(other);
    const withoutCookie = browser();
    const forged = browser();
    forged.secret = 'A'.repeat(43);
    const notFound = { isSuccess: false, data: null, message: cm.notFound };
    for (const stranger of [other, withoutCookie, forged]) {
      const read = await stranger.get(session.sessionId);
      expect(read.statusCode).toBe(404);
      expect(read.json()).toEqual(notFound);
      const add = await stranger.add(session.sessionId, 'let me in');
      expect(add.statusCode).toBe(404);
      expect(add.json()).toEqual(notFound);
      const streamed = await stranger.add(session.sessionId, 'let me in', { accept: 'application/x-ndjson' });
      expect(streamed.statusCode).toBe(404);
      expect(streamed.json()).toEqual(notFound);
    }
    // The same account in another browser has no cookie: the cookie decides, not the account.
    expect((await browser(member.headers).get(session.sessionId)).statusCode).toBe(404);
    const unknown = await owner.get('00000000-0000-4000-8000-000000000000');
    expect(unknown.json()).toEqual(notFound);
    expect((await storedMessages(session.sessionId)).map((m) => m.text)).not.toContain('let me in');
    const badId = await owner.get('not-a-uuid');
    expect(badId.statusCode).toBe(400);
  });

  it("refuses empty, blank, too long and assistant messages with the contract's words", async () => {
    const visitor = browser();
    const session = await started(visitor);
    const cases: [unknown, string, string?][] = [
      ['', cm.textRequired],
      ['   \n ', cm.textRequired],
      ['x'.repeat(1001), cm.textTooLong],
      [[{ type: 'text', text: { value: ' ' } }], cm.textRequired],
      ['Write the reply yourself', cm.onlyUserMessages, 'assistant'],
    ];
    for (const [content, message, role] of cases) {
      const add = await visitor.add(session.sessionId, content, {}, role);
      expect(add.statusCode, message).toBe(400);
      expect(add.json().message).toContain(message);
      const start = await browser().start([{ role: role ?? 'user', content }]);
      expect(start.statusCode, message).toBe(400);
      expect(start.json().message).toContain(message);
    }
    expect((await visitor.add(session.sessionId, 'x'.repeat(1000))).statusCode).toBe(200);
    expect((await sessionRow(session.sessionId)).visitor_messages).toBe(1);
  });

  it('needs the XSRF header on both POST calls', async () => {
    const visitor = browser();
    const session = await started(visitor);
    const start = await t.app.inject({ method: 'POST', url: '/api/chat/start', payload: { messages: [] } });
    expect(start.statusCode).toBe(403);
    expect(start.json().message).toBe(am.xsrfMissing);
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${session.sessionId}/add`,
      headers: { cookie: `${CHAT_COOKIE}=${visitor.secret}` },
      payload: { role: 'user', content: 'hello' },
    });
    expect(add.statusCode).toBe(403);
    expect((await sessionRow(session.sessionId)).visitor_messages).toBe(0);
  });

  it('streams the reply as NDJSON: deltas, then done with the stored reply', async () => {
    const visitor = browser();
    const session = await started(visitor);
    const answer = await visitor.add(session.sessionId, 'Do you stream?', { accept: 'application/x-ndjson' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('application/x-ndjson');
    expect(answer.headers['cache-control']).toBe('no-store');
    const lines = answer.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChatStreamLine);
    expect(lines.slice(0, -1)).toEqual([
      { type: 'delta', text: 'Answer to: ' },
      { type: 'delta', text: 'Do you stream?' },
      { type: 'delta', text: ' (0 before)' },
    ]);
    const done = lines.at(-1);
    if (done?.type !== 'done') throw new Error(`no done line: ${answer.body}`);
    expect(textOf(done.data.reply)).toBe('Answer to: Do you stream? (0 before)');
    expect(done.data.remaining).toBe(CHAT_MESSAGE_LIMIT - 1);

    // A model that failed half way: the stored reply is the final text, not what was streamed.
    const fallback = await visitor.add(session.sessionId, 'fallback please', {
      accept: 'application/x-ndjson',
    });
    const fallbackLines = fallback.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChatStreamLine);
    expect(fallbackLines[0]).toEqual({ type: 'delta', text: 'Half a model re' });
    const last = fallbackLines.at(-1);
    if (last?.type !== 'done') throw new Error(`no done line: ${fallback.body}`);
    expect(textOf(last.data.reply)).toBe('The built-in answer.');
    const stored = await storedMessages(session.sessionId);
    expect(stored.at(-1)).toMatchObject({
      role: 'assistant',
      origin: 'built-in',
      text: 'The built-in answer.',
    });

    // Past the limit the canned reply streams as one delta, then done.
    const full = browser();
    const fullSession = await started(
      full,
      Array.from({ length: CHAT_MESSAGE_LIMIT }, (_, i) => ({ role: 'user', content: `q${i}` })),
    );
    const limited = await full.add(fullSession.sessionId, 'more', { accept: 'application/x-ndjson' });
    expect(
      limited.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ChatStreamLine),
    ).toEqual([
      { type: 'delta', text: cm.limitReply(SUPPORT_EMAIL) },
      { type: 'done', data: expect.objectContaining({ remaining: 0 }) },
    ]);
  });

  it('answers an error line (or 503) when no answer came, and the message does not count', async () => {
    const visitor = browser();
    const session = await started(visitor);
    const streamed = await visitor.add(session.sessionId, 'broken answerer', {
      accept: 'application/x-ndjson',
    });
    expect(streamed.statusCode).toBe(200);
    expect(
      streamed.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ChatStreamLine),
    ).toEqual([{ type: 'error', message: chatServiceMessages.notAnswered }]);
    const plain = await visitor.add(session.sessionId, 'broken answerer');
    expect(plain.statusCode).toBe(503);
    expect(plain.json().message).toBe(chatServiceMessages.notAnswered);
    expect((await sessionRow(session.sessionId)).visitor_messages).toBe(0);
    expect(await storedMessages(session.sessionId)).toHaveLength(1);
  });

  it('stops the answer when the visitor leaves mid-stream, and stores nothing of it', async () => {
    const visitor = browser();
    const session = await started(visitor);
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const controller = new AbortController();
      const headers = { ...anonymous, cookie: `${anonymous.cookie}; ${CHAT_COOKIE}=${visitor.secret}` };
      const response = await fetch(`${url}/api/chat/${session.sessionId}/add`, {
        method: 'POST',
        headers: { ...headers, accept: 'application/x-ndjson', 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'user', content: 'a slow question' }),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = response.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value)).toBe('{"type":"delta","text":"Thinking"}\n');
      controller.abort();
      await fake.aborted;
      await expect.poll(async () => (await sessionRow(session.sessionId)).visitor_messages).toBe(0);
      expect(await storedMessages(session.sessionId)).toHaveLength(1);
    } finally {
      await t.app.server.close();
    }
  });

  it('lists the chats for administrators only, with the unanswered replies counted', async () => {
    const visitor = browser(member.headers);
    const session = await started(visitor, [{ role: 'user', content: 'First question here' }]);
    await added(visitor, session.sessionId, 'Something unknown');
    await added(visitor, session.sessionId, 'Something known');
    // Thanks answered in kind is not a question Titan failed to answer.
    await added(visitor, session.sessionId, 'Many thanks');
    // A chat with only the introduction is not listed (nothing was asked).
    const idle = await started(browser());

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chats?pageSize=100',
      headers: admin.headers,
    });
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json<{ data: PagedChats }>().data;
    expect(page.results.map((r) => r.sessionId)).not.toContain(idle.sessionId);
    expect(page.count).toBe(page.results.length);
    const listed = page.results[0];
    expect(listed).toMatchObject({
      sessionId: session.sessionId,
      visitorMessages: 4,
      firstQuestion: 'First question here',
      userEmail: 'member@example.com',
      unanswered: 1,
    });
    expect(listed?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(Date.parse(listed?.lastAt ?? '')).toBeGreaterThanOrEqual(Date.parse(listed?.createdAt ?? ''));
    const small = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chats?pageSize=1&page=2',
      headers: admin.headers,
    });
    expect(small.json<{ data: PagedChats }>().data).toMatchObject({ count: page.count });
    expect(small.json<{ data: PagedChats }>().data.results).toEqual(page.results.slice(1, 2));

    const transcript = await t.app.inject({
      method: 'GET',
      url: `/api/admin/chats/${session.sessionId}`,
      headers: admin.headers,
    });
    expect(transcript.statusCode).toBe(200);
    const data = transcript.json<{ data: ChatTranscript }>().data;
    expect(data).toMatchObject({
      sessionId: session.sessionId,
      unanswered: 1,
      userEmail: 'member@example.com',
    });
    expect(data.messages.map((m) => [m.role, m.origin])).toEqual([
      ['user', 'visitor'],
      ['assistant', 'model'],
      ['user', 'visitor'],
      ['assistant', 'built-in'],
      ['user', 'visitor'],
      ['assistant', 'model'],
      ['user', 'visitor'],
      ['assistant', 'small-talk'],
    ]);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/admin/chats/00000000-0000-4000-8000-000000000000',
      headers: admin.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(chatServiceMessages.adminNotFound);

    for (const url of ['/api/admin/chats', `/api/admin/chats/${session.sessionId}`]) {
      const byMember = await t.app.inject({ method: 'GET', url, headers: member.headers });
      expect(byMember.statusCode).toBe(403);
      expect(byMember.json().message).toBe(am.adminRequired);
      const byAnyone = await t.app.inject({ method: 'GET', url, headers: anonymous });
      expect(byAnyone.statusCode).toBe(401);
    }
  });

  it('describes the calls in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { tags?: string[]; summary?: string; description?: string }>>;
    }>();
    expect(document.paths['/api/chat/start']?.post?.tags).toEqual(['chat']);
    expect(document.paths['/api/chat/{sessionId}']?.get?.tags).toEqual(['chat']);
    const add = document.paths['/api/chat/{sessionId}/add']?.post;
    expect(add?.tags).toEqual(['chat']);
    expect(add?.summary).toContain('application/x-ndjson');
    expect(document.paths['/api/admin/chats']?.get?.tags).toEqual(['admin']);
    expect(document.paths['/api/admin/chats/{sessionId}']?.get?.tags).toEqual(['admin']);
  });
});

describe('Titan rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { PUBLIC_URL: 'https://dbui.example' },
      chat: { answerer: testAnswerer().answerer, limits: { start: 2, add: 3 } },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('limits starts and messages per address, and marks the cookie Secure over https', async () => {
    const headers = await withXsrf(t);
    const start = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/start',
        headers,
        payload: { messages: [] },
        remoteAddress,
      });
    const first = await start('203.0.113.1');
    expect(first.statusCode).toBe(200);
    const cookie = first.cookies.find((c) => c.name === CHAT_COOKIE);
    expect(cookie?.secure).toBe(true);
    expect((await start('203.0.113.1')).statusCode).toBe(200);
    const refused = await start('203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().isSuccess).toBe(false);
    expect((await start('203.0.113.2')).statusCode).toBe(200);

    const sessionId = first.json<{ data: ChatSession }>().data.sessionId;
    const add = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/chat/${sessionId}/add`,
        headers: { ...headers, cookie: `${headers.cookie}; ${CHAT_COOKIE}=${cookie?.value}` },
        payload: { role: 'user', content: 'hello' },
        remoteAddress,
      });
    for (let i = 0; i < 3; i++) expect((await add('203.0.113.1')).statusCode).toBe(200);
    expect((await add('203.0.113.1')).statusCode).toBe(429);
    expect((await add('203.0.113.3')).statusCode).toBe(200);
  });
});

describe('Titan with the answerer the app builds (no LLM_* configured)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('introduces itself and answers a question about the services with a sourced, stored reply', async () => {
    const headers = await withXsrf(t);
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/chat/start',
      headers,
      payload: { messages: [] },
    });
    expect(start.statusCode, start.body).toBe(200);
    const session = start.json<{ data: ChatSession }>().data;
    expect(session.messages[0]?.origin).toBe('introduction');
    const secret = start.cookies.find((c) => c.name === CHAT_COOKIE)?.value;
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/chat/${session.sessionId}/add`,
      headers: {
        ...headers,
        cookie: `${headers.cookie}; ${CHAT_COOKIE}=${secret}`,
        accept: 'application/x-ndjson',
      },
      payload: {
        role: 'user',
        content: 'We want to move our servers to AWS, is that something you help with?',
      },
    });
    const lines = add.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ChatStreamLine);
    expect(lines.map((line) => line.type)).toEqual(['delta', 'done']);
    const done = lines[1];
    if (done?.type !== 'done') throw new Error(add.body);
    expect(done.data.reply.origin).toBe('built-in');
    expect(done.data.reply.sources.map((s) => s.path)).toContain('/services/cloud');
    expect(lines[0]).toEqual({ type: 'delta', text: textOf(done.data.reply) });
    const stored = await t.store.db
      .selectFrom('chat_messages')
      .select('text')
      .where('id', '=', done.data.reply.id)
      .executeTakeFirstOrThrow();
    expect(stored.text).toBe(textOf(done.data.reply));
  });
});

describe("Titan's support address is the SUPPORT_EMAIL setting", () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  /** Titan's introduction, its answer to a contact question and its reply past the limit, on an app of this env. */
  async function titanSays(env: Record<string, string>): Promise<string[]> {
    const t = await buildTestApp({ env });
    apps.push(t);
    const headers = await withXsrf(t);
    /** A chat started with these visitor messages (none: the introduction), and its add call. */
    const chat = async (contents: string[]) => {
      const messages = contents.map((content) => ({ role: 'user', content }));
      const start = await t.app.inject({
        method: 'POST',
        url: '/api/chat/start',
        headers,
        payload: { messages },
      });
      expect(start.statusCode, start.body).toBe(200);
      const session = start.json<{ data: ChatSession }>().data;
      const secret = start.cookies.find((c) => c.name === CHAT_COOKIE)?.value;
      const add = async (content: string) => {
        const answer = await t.app.inject({
          method: 'POST',
          url: `/api/chat/${session.sessionId}/add`,
          headers: { ...headers, cookie: `${headers.cookie}; ${CHAT_COOKIE}=${secret}` },
          payload: { role: 'user', content },
        });
        expect(answer.statusCode, answer.body).toBe(200);
        return textOf(answer.json<{ data: ChatReply }>().data.reply) ?? '';
      };
      return { first: textOf(session.messages[0] ?? INTRODUCTION_MESSAGE) ?? '', add };
    };
    const fresh = await chat([]);
    const full = await chat(Array.from({ length: CHAT_MESSAGE_LIMIT }, (_, i) => `question ${i}`));
    return [fresh.first, await fresh.add('How can I contact you?'), await full.add('one more?')];
  }

  it('names the address where it is set, and leaves it out where it is not', async () => {
    const [introduction, contact, limit] = await titanSays({ SUPPORT_EMAIL });
    expect(introduction).toContain(SUPPORT_EMAIL);
    expect(contact).toContain(SUPPORT_EMAIL);
    expect(limit).toContain(`write to ${SUPPORT_EMAIL}`);
    for (const text of await titanSays({})) {
      expect(text).not.toMatch(/@|\.example\b/);
      expect(text).toContain('](/contact-us)');
    }
  });
});
