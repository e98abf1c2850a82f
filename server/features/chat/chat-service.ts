import { randomUUID } from 'node:crypto';
import {
  chatMessages as cm,
  type ChatMessage,
  type ChatOrigin,
  type ChatReply,
  type ChatSession,
  type ChatTranscript,
  type ChatSummary,
  type PagedChats,
} from '#common/contract/chat.ts';
import { CHAT_MESSAGE_LIMIT } from '#common/limits.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  chatMessagesOf,
  claimVisitorMessage,
  findChatSummary,
  findOwnedChatSession,
  insertChatMessages,
  insertChatSession,
  pageOfChatSessions,
  releaseVisitorMessage,
  sourcesOf,
  touchChatSession,
  type ChatMessageRow,
  type ChatSessionRow,
  type ChatSummaryRow,
  type NewChatMessage,
} from '#server/store/chat.ts';
import type { Answer } from './answer.ts';
import type { Answerer, Turn } from './answerer.ts';

/*
 * Titan's sessions (issue 16, decision 0031). A session belongs to the browser holding the `dbui-chat` cookie: the
 * store keeps only the SHA-256 of its secret, and a session asked for without the matching cookie "was not found".
 * A visitor's message is answered before anything is stored (the answer may take a minute and may be abandoned),
 * then the message and its reply are stored together; the limit's slot is claimed first and given back when no
 * answer came, so a message counts only once it is answered.
 */

/** Where Titan's answers come from: answerer.ts builds the real one; tests pass their own. */
export type { Answerer };

export interface ChatDeps {
  store: AppStore;
  answerer: Answerer;
  /** SUPPORT_EMAIL, which the reply past the limit names; null: it names the contact page only. */
  supportEmail: string | null;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
}

/** The browser's chat cookie: its secret is the key to every session the browser started. */
export const CHAT_COOKIE = 'dbui-chat';
/** How long the browser keeps the chat cookie (seconds). */
export const CHAT_COOKIE_MAX_AGE = 30 * 24 * 60 * 60;
/** The longest reply stored (characters): longer ones are cut. */
export const CHAT_REPLY_MAX = 8000;

/** The service's own sentences. */
export const chatServiceMessages = {
  notAnswered: 'Titan could not answer just now. Send your message again in a moment.',
  adminNotFound: 'That chat was not found. Go back to the list of chats.',
} as const;

/** A cookie secret as randomToken makes it (32 random bytes, base64url). */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The browser's secret: its cookie's when it has a well-formed one, else a new one to set. */
export function ownerSecretOf(cookie: string | undefined): { secret: string; isNew: boolean } {
  return cookie && SECRET_SHAPE.test(cookie)
    ? { secret: cookie, isNew: false }
    : { secret: randomToken(), isNew: true };
}

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const cut = (text: string) => (text.length > CHAT_REPLY_MAX ? text.slice(0, CHAT_REPLY_MAX) : text);
const remainingOf = (visitorMessages: number) => Math.max(0, CHAT_MESSAGE_LIMIT - visitorMessages);

function messageOf(row: ChatMessageRow): ChatMessage {
  return {
    id: row.id,
    role: row.role === 'assistant' ? 'assistant' : 'user',
    content: [{ type: 'text', text: { value: row.text } }],
    createdAt: epochSeconds(row.created_at),
    origin: row.origin as ChatOrigin,
    sources: sourcesOf(row.sources),
  };
}

/** A message that is shown but not stored (id 0): the visitor's message and the canned reply past the limit. */
function unstored(role: 'user' | 'assistant', origin: ChatOrigin, text: string, at: Date): ChatMessage {
  return {
    id: 0,
    role,
    content: [{ type: 'text', text: { value: text } }],
    createdAt: Math.floor(at.getTime() / 1000),
    origin,
    sources: [],
  };
}

function summaryView(row: ChatSummaryRow): ChatSummary {
  return {
    sessionId: row.public_id,
    createdAt: row.created_at,
    lastAt: row.last_at,
    visitorMessages: row.visitor_messages,
    firstQuestion: row.first_question,
    userEmail: row.user_email,
    unanswered: row.unanswered,
  };
}

const visitorMessage = (text: string, createdAt: string): NewChatMessage => ({
  role: 'user',
  origin: 'visitor',
  text,
  sources: [],
  createdAt,
});
const assistantMessage = (answer: Answer, createdAt: string): NewChatMessage => ({
  role: 'assistant',
  origin: answer.origin,
  text: cut(answer.text),
  sources: answer.sources,
  createdAt,
});

/** Who is chatting: the browser's cookie secret and the signed-in account, if any. */
export interface Visitor {
  secret: string;
  userId: number | null;
}

/** Options of an answer: its text pieces as they come, and the signal that the visitor left. */
export interface AnswerOptions {
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/** The chat calls of the widget and the administrators' reading. */
export function chatService(deps: ChatDeps) {
  const { store, answerer } = deps;
  const nowIso = () => deps.now().toISOString();

  /** The answer, or a 503 that says to send again when the answerer failed (it falls back on its own first). */
  async function answerOrRefuse(question: string, history: Turn[], options: AnswerOptions): Promise<Answer> {
    try {
      return await answerer.answer(question, history, options.onDelta, options.signal);
    } catch (error) {
      if (!options.signal?.aborted) deps.log.warn({ err: error }, 'chat: no answer');
      throw new ApiError(503, chatServiceMessages.notAnswered);
    }
  }

  async function owned(sessionId: string, secret: string | null): Promise<ChatSessionRow> {
    const row = secret ? await findOwnedChatSession(store.db, sessionId, sha256Hex(secret)) : undefined;
    if (!row) throw new ApiError(404, cm.notFound);
    return row;
  }

  return {
    /**
     * POST /api/chat/start: a new session of this browser. Without messages, Titan's introduction; with the
     * visitor's messages, they are stored (each counts toward the limit) and the last one is answered.
     */
    async start(visitor: Visitor, texts: string[], options: AnswerOptions = {}): Promise<ChatSession> {
      const receivedAt = nowIso();
      const question = texts.at(-1);
      const answer =
        question === undefined
          ? answerer.introduction()
          : await answerOrRefuse(
              question,
              texts.slice(0, -1).map((text) => ({ role: 'user' as const, text })),
              options,
            );
      const publicId = randomUUID();
      const answeredAt = nowIso();
      const rows = await store.db.transaction().execute(async (trx) => {
        const id = await insertChatSession(
          trx,
          {
            publicId,
            ownerHash: sha256Hex(visitor.secret),
            userId: visitor.userId,
            visitorMessages: texts.length,
          },
          receivedAt,
        );
        const stored = await insertChatMessages(trx, id, [
          ...texts.map((text) => visitorMessage(text, receivedAt)),
          assistantMessage(answer, answeredAt),
        ]);
        await touchChatSession(trx, id, { now: answeredAt, userId: null });
        return stored;
      });
      return { sessionId: publicId, messages: rows.map(messageOf), remaining: remainingOf(texts.length) };
    },

    /** GET /api/chat/:sessionId: the conversation, for the browser that started it only. */
    async get(sessionId: string, secret: string | null): Promise<ChatSession> {
      const session = await owned(sessionId, secret);
      const rows = await chatMessagesOf(store.db, session.id);
      return {
        sessionId: session.public_id,
        messages: rows.map(messageOf),
        remaining: remainingOf(session.visitor_messages),
      };
    },

    /** The session of this id if the browser holding `secret` started it, else 404 'not found'. */
    owned,

    /**
     * POST /api/chat/:sessionId/add: answers the visitor's message and stores both. Past the limit nothing is
     * stored and the reply is the canned one with the support contact (both with id 0).
     */
    async add(
      session: ChatSessionRow,
      visitor: Visitor,
      text: string,
      options: AnswerOptions = {},
    ): Promise<ChatReply> {
      const received = deps.now();
      if (!(await claimVisitorMessage(store.db, session.id, CHAT_MESSAGE_LIMIT))) {
        const limitReply = cm.limitReply(deps.supportEmail);
        const limit = unstored('assistant', 'limit', limitReply, received);
        options.onDelta?.(limitReply);
        return { message: unstored('user', 'visitor', text, received), reply: limit, remaining: 0 };
      }
      let answer: Answer;
      try {
        const history = (await chatMessagesOf(store.db, session.id))
          .filter((row) => row.origin !== 'introduction')
          .map((row) => ({
            role: row.role === 'assistant' ? ('assistant' as const) : ('user' as const),
            text: row.text,
          }));
        answer = await answerOrRefuse(text, history, options);
        // The visitor left while the answer was written: it is not stored, and the message does not count.
        if (options.signal?.aborted) throw new ApiError(503, chatServiceMessages.notAnswered);
      } catch (error) {
        await releaseVisitorMessage(store.db, session.id);
        throw error;
      }
      const answeredAt = nowIso();
      const { rows, counted } = await store.db.transaction().execute(async (trx) => {
        const stored = await insertChatMessages(trx, session.id, [
          visitorMessage(text, received.toISOString()),
          assistantMessage(answer, answeredAt),
        ]);
        await touchChatSession(trx, session.id, { now: answeredAt, userId: visitor.userId });
        const row = await trx
          .selectFrom('chat_sessions')
          .select('visitor_messages')
          .where('id', '=', session.id)
          .executeTakeFirstOrThrow();
        return { rows: stored, counted: row.visitor_messages };
      });
      const [message, reply] = rows.map(messageOf);
      if (!message || !reply) throw new Error('chat: the stored message and reply were not read back');
      return { message, reply, remaining: remainingOf(counted) };
    },

    /** GET /api/admin/chats: sessions in which the visitor asked something, last active first. */
    async list(query: { page: number; pageSize: number }): Promise<PagedChats> {
      const { rows, count } = await pageOfChatSessions(store.db, {
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { results: rows.map(summaryView), count };
    },

    /** GET /api/admin/chats/:sessionId: one conversation, whoever started it. */
    async transcript(sessionId: string): Promise<ChatTranscript> {
      const summary = await findChatSummary(store.db, sessionId);
      if (!summary) throw new ApiError(404, chatServiceMessages.adminNotFound);
      const rows = await chatMessagesOf(store.db, summary.id);
      return { ...summaryView(summary), messages: rows.map(messageOf) };
    },
  };
}

export type ChatService = ReturnType<typeof chatService>;
