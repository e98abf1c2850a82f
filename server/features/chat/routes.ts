import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  chatAddInput,
  chatListQuery,
  chatReply,
  chatSession,
  chatSessionParams,
  chatStartInput,
  chatTranscript,
  pagedChats,
  type ChatStreamLine,
} from '#common/contract/chat.ts';
import { envelope } from '#common/contract/envelope.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { requireAdmin } from '#server/plugins/session.ts';
import {
  CHAT_COOKIE,
  CHAT_COOKIE_MAX_AGE,
  chatService,
  chatServiceMessages,
  ownerSecretOf,
  type ChatDeps,
  type ChatService,
  type Visitor,
} from './chat-service.ts';

/** Calls a minute from one address: new chats and messages (decision 0031). */
export interface ChatLimits {
  start: number;
  add: number;
}
export const defaultChatLimits: ChatLimits = { start: 10, add: 20 };

const NDJSON = 'application/x-ndjson';

const perAddress = (name: string, max: number) => ({
  rateLimit: {
    max,
    timeWindow: 60_000,
    // Per address, which is never stored with the chat.
    keyGenerator: (request: FastifyRequest) => `chat-${name}:${request.ip}`,
  },
});

/** A signal that fires when the caller goes away before the answer is complete. */
function leaving(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Titan's calls (issue 16): start, read and continue a chat (anyone; a session answers only the browser holding its
 * HttpOnly cookie), and the administrators' list and transcripts. `secureCookie`: the app is served over https.
 */
export function chatRoutes(
  deps: ChatDeps & { secureCookie: boolean },
  limits: ChatLimits = defaultChatLimits,
): FastifyPluginAsyncZod {
  const chat = chatService(deps);
  const secretOf = (request: FastifyRequest) => request.cookies[CHAT_COOKIE] ?? null;

  return async (app) => {
    app.post(
      '/api/chat/start',
      {
        config: perAddress('start', limits.start),
        schema: {
          tags: ['chat'],
          summary:
            "Start a chat: no messages gives Titan's introduction; with the visitor's messages, the last is answered",
          description:
            'Sets the HttpOnly `dbui-chat` cookie (Path /api/chat) when the browser has none: only the browser ' +
            'holding it can read or continue the session. Rate limited per address.',
          body: chatStartInput,
          response: { 200: envelope(chatSession) },
        },
      },
      async (request, reply) => {
        const { secret } = ownerSecretOf(request.cookies[CHAT_COOKIE]);
        const visitor: Visitor = { secret, userId: request.account?.userId ?? null };
        const texts = request.body.messages.map((message) => message.content);
        const session = await chat.start(visitor, texts, { signal: leaving(reply) });
        // Set again when reused, so the 30 days run from the last chat started.
        reply.setCookie(CHAT_COOKIE, secret, {
          path: '/api/chat',
          httpOnly: true,
          sameSite: 'strict',
          secure: deps.secureCookie || request.protocol === 'https',
          maxAge: CHAT_COOKIE_MAX_AGE,
        });
        return success(session);
      },
    );

    app.get(
      '/api/chat/:sessionId',
      {
        schema: {
          tags: ['chat'],
          summary: "A chat's messages, for the browser that started it (404 for any other)",
          params: chatSessionParams,
          response: { 200: envelope(chatSession) },
        },
      },
      async (request) => success(await chat.get(request.params.sessionId, secretOf(request))),
    );

    app.post(
      '/api/chat/:sessionId/add',
      {
        config: perAddress('add', limits.add),
        schema: {
          tags: ['chat'],
          summary:
            "Send the visitor's message and get Titan's reply; with Accept: application/x-ndjson the reply streams",
          description:
            'Answers the envelope with the stored message and reply. With `Accept: application/x-ndjson` the answer ' +
            'is a stream of lines instead: `{"type":"delta","text":…}` while the reply is written, then ' +
            '`{"type":"done","data":ChatReply}` (the stored reply, which replaces the streamed text) or ' +
            '`{"type":"error","message":…}`. Past the limit of 10 visitor messages nothing is stored and the ' +
            'reply is the canned one with the support contact (id 0). Only the browser that started the chat may ' +
            'add to it (404 otherwise). Rate limited per address.',
          params: chatSessionParams,
          body: chatAddInput,
          response: { 200: envelope(chatReply) },
        },
      },
      async (request, reply) => {
        const secret = secretOf(request);
        const session = await chat.owned(request.params.sessionId, secret);
        const visitor: Visitor = { secret: secret ?? '', userId: request.account?.userId ?? null };
        const text = request.body.content;
        const signal = leaving(reply);
        if (!(request.headers.accept ?? '').includes(NDJSON))
          return success(await chat.add(session, visitor, text, { signal }));

        const stream = new PassThrough();
        // A write after the caller left is dropped, not an error.
        stream.on('error', () => undefined);
        const line = (value: ChatStreamLine) => {
          if (!stream.destroyed && stream.writable) stream.write(`${JSON.stringify(value)}\n`);
        };
        void chat
          .add(session, visitor, text, { signal, onDelta: (delta) => line({ type: 'delta', text: delta }) })
          .then(
            (data) => line({ type: 'done', data }),
            (error: unknown) => {
              if (!(error instanceof ApiError)) request.log.error({ err: error }, 'chat: add failed');
              line({
                type: 'error',
                message: error instanceof ApiError ? error.message : chatServiceMessages.notAnswered,
              });
            },
          )
          .finally(() => stream.end());
        // A stream is sent as it is (Fastify serializes only objects): the envelope schema describes the JSON answer.
        return reply
          .type(NDJSON)
          .header('cache-control', 'no-store')
          .send(stream as never);
      },
    );

    await app.register(adminChatRoutes(chat));
  };
}

/** The administrators' reading of every chat. */
function adminChatRoutes(chat: ChatService): FastifyPluginAsyncZod {
  return async (admin) => {
    admin.addHook('preValidation', requireAdmin);
    admin.get(
      '/api/admin/chats',
      {
        schema: {
          tags: ['admin'],
          summary: "Titan's chats in which the visitor asked something, last active first",
          querystring: chatListQuery,
          response: { 200: envelope(pagedChats) },
        },
      },
      async (request) => success(await chat.list(request.query)),
    );
    admin.get(
      '/api/admin/chats/:sessionId',
      {
        schema: {
          tags: ['admin'],
          summary: "One chat's messages, with the replies Titan could not answer counted",
          params: chatSessionParams,
          response: { 200: envelope(chatTranscript) },
        },
      },
      async (request) => success(await chat.transcript(request.params.sessionId)),
    );
  };
}
