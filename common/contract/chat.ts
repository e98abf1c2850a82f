import { z } from 'zod';
import { ADMIN_PAGE_SIZE, CHAT_MESSAGE_LIMIT } from '#common/limits.ts';

/*
 * Titan, the support chat (issue 16; spec 001 §2, §3, §7, §9). The spec's Chat entity: a session id and messages
 * with a role, a content list whose first item holds the text value, and createdAt in epoch seconds. The content
 * item follows the shape the original client read (OpenAI's threads: {type: 'text', text: {value}}); a request may
 * also send the content as a plain string. A session belongs to the browser that started it (an HttpOnly cookie,
 * see docs/decisions/0031-titan.md); its id alone opens nothing.
 */

/** The longest message a visitor may send (characters, after trimming). */
export const CHAT_TEXT_MAX = 1000;
/** The most messages a start request may carry. */
export const CHAT_START_MESSAGES_MAX = CHAT_MESSAGE_LIMIT;

/** The chat API's own sentences. */
export const chatMessages = {
  textRequired: 'Write a message first.',
  textTooLong: `A message can be at most ${CHAT_TEXT_MAX} characters.`,
  onlyUserMessages: "Only the visitor's own messages can be sent; Titan writes the assistant's.",
  notFound: 'That chat was not found. Start a new chat.',
  /** Spec 001 §9: the canned reply beyond the limit, with the support contact (the address when one is set). */
  limitReply: (supportEmail: string | null) =>
    `This chat has reached its limit of ${CHAT_MESSAGE_LIMIT} messages. For more help, ${supportEmail ? `write to ${supportEmail} or ` : ''}send us a message from [Contact us](/contact-us); a person from the team will answer. You can also start a new chat.`,
} as const;

export const chatRole = z.enum(['user', 'assistant'], { error: "role must be 'user' or 'assistant'." });
export type ChatRole = z.infer<typeof chatRole>;

/** One item of a message's content (the spec reads the first). */
export const chatContentItem = z.object({
  type: z.literal('text'),
  text: z.object({ value: z.string() }),
});
export type ChatContentItem = z.infer<typeof chatContentItem>;

/** A page a reply was drawn from, shown under it as a link. */
export const chatSource = z.object({
  title: z.string(),
  path: z.string().describe('A path of this site, such as /services/data-engineering'),
});
export type ChatSource = z.infer<typeof chatSource>;

/** Where a reply came from: the site's own answer, a configured language model, or a fixed text. */
export const chatOrigin = z.enum(['visitor', 'introduction', 'built-in', 'small-talk', 'model', 'limit']);
export type ChatOrigin = z.infer<typeof chatOrigin>;

/** A message as the widget shows it (spec 001 §3 plus sources and origin). */
export const chatMessage = z.object({
  id: z.number().int(),
  role: chatRole,
  content: z.array(chatContentItem).min(1),
  createdAt: z.number().int().describe('epoch seconds'),
  origin: chatOrigin,
  sources: z.array(chatSource),
});
export type ChatMessage = z.infer<typeof chatMessage>;

const visitorText = z
  .string({ error: chatMessages.textRequired })
  .trim()
  .min(1, chatMessages.textRequired)
  .max(CHAT_TEXT_MAX, chatMessages.textTooLong);

/** A message's content as a request may send it: a string, or the spec's list whose first item holds the text. */
export const chatContentInput = z
  .union([
    visitorText,
    z
      .tuple([z.object({ type: z.literal('text').optional(), text: z.object({ value: visitorText }) })])
      .rest(z.unknown()),
  ])
  .transform((content) => (typeof content === 'string' ? content : content[0].text.value));

/** A visitor's message in a request: role must be 'user'. */
export const chatInputMessage = z.object({
  role: chatRole.refine((role) => role === 'user', chatMessages.onlyUserMessages),
  content: chatContentInput,
});
export type ChatInputMessage = z.input<typeof chatInputMessage>;

/** POST /api/chat/start: no messages asks Titan to introduce itself (the widget's first open). */
export const chatStartInput = z.object({
  messages: z.array(chatInputMessage).max(CHAT_START_MESSAGES_MAX).default([]),
});
export type ChatStartInput = z.input<typeof chatStartInput>;

/** A conversation: the start answer, and GET /api/chat/:sessionId for the widget after a reload. */
export const chatSession = z.object({
  sessionId: z.string(),
  messages: z.array(chatMessage),
  remaining: z.number().int().describe('messages the visitor may still send before the limit'),
});
export type ChatSession = z.infer<typeof chatSession>;

/** POST /api/chat/:sessionId/add: one message of the visitor. */
export const chatAddInput = chatInputMessage;
export type ChatAddInput = z.input<typeof chatAddInput>;

/**
 * POST /api/chat/:sessionId/add's data: the visitor's message as stored and Titan's reply. With
 * `Accept: application/x-ndjson` the answer is a stream of lines instead: {"type":"delta","text":…} while the reply
 * is written, then {"type":"done","data":ChatReply}, or {"type":"error","message":…}.
 */
export const chatReply = z.object({
  message: chatMessage.describe("the visitor's message as stored"),
  reply: chatMessage,
  remaining: z.number().int(),
});
export type ChatReply = z.infer<typeof chatReply>;

/** One line of the streamed add answer. */
export type ChatStreamLine =
  { type: 'delta'; text: string } | { type: 'done'; data: ChatReply } | { type: 'error'; message: string };

export const chatSessionParams = z.object({
  sessionId: z.string().uuid('sessionId must be the id the start call returned.'),
});

/** GET /api/admin/chats: newest first. */
export const chatListQuery = z.object({
  page: z.coerce.number().int().min(1, 'page must be a whole number from 1.').default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'pageSize can be at most 100.').default(ADMIN_PAGE_SIZE),
});
export type ChatListQuery = z.input<typeof chatListQuery>;

export const chatSummary = z.object({
  sessionId: z.string(),
  createdAt: z.string().describe('ISO 8601'),
  lastAt: z.string().describe('ISO 8601'),
  visitorMessages: z.number().int(),
  firstQuestion: z.string().nullable(),
  userEmail: z.string().nullable().describe('the account, when the visitor was signed in'),
  unanswered: z.number().int().describe('replies where Titan said it did not know'),
});
export type ChatSummary = z.infer<typeof chatSummary>;

export const pagedChats = z.object({ results: z.array(chatSummary), count: z.number().int() });
export type PagedChats = z.infer<typeof pagedChats>;

/** GET /api/admin/chats/:sessionId. */
export const chatTranscript = chatSummary.extend({ messages: z.array(chatMessage) });
export type ChatTranscript = z.infer<typeof chatTranscript>;
