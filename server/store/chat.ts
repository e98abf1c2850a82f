import type { Kysely, Selectable, Transaction } from 'kysely';
import type { ChatSource } from '#common/contract/chat.ts';
import type { AppDatabase, ChatMessagesTable, ChatSessionsTable } from './schema.ts';

/*
 * Titan's sessions and messages (issue 16, migration 0012). A session is found by its public id together with the
 * hash of its owner's cookie secret, so a caller without the cookie cannot tell it exists. The count of visitor
 * messages is claimed with one conditional update, so two messages sent at once cannot both pass the limit.
 */

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export type ChatSessionRow = Selectable<ChatSessionsTable>;
export type ChatMessageRow = Selectable<ChatMessagesTable>;

/** The longest stored list of sources (the column's width, as JSON). */
export const CHAT_SOURCES_MAX_CHARS = 2000;

/** Sources as stored: JSON of {title, path}, dropping the last ones when the list would not fit its column. */
export function sourcesJson(sources: ChatSource[]): string {
  let kept = sources.map(({ title, path }) => ({ title, path }));
  while (kept.length > 0 && JSON.stringify(kept).length > CHAT_SOURCES_MAX_CHARS) kept = kept.slice(0, -1);
  return JSON.stringify(kept);
}

/** Sources as stored, read back; a value that is not a list of {title, path} reads as none. */
export function sourcesOf(json: string): ChatSource[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown) =>
      typeof item === 'object' &&
      item !== null &&
      'title' in item &&
      'path' in item &&
      typeof item.title === 'string' &&
      typeof item.path === 'string'
        ? [{ title: item.title, path: item.path }]
        : [],
    );
  } catch {
    return [];
  }
}

export interface NewChatSession {
  publicId: string;
  ownerHash: string;
  userId: number | null;
  visitorMessages: number;
}

/** Stores a session and answers its numeric id. */
export async function insertChatSession(db: Db, session: NewChatSession, now: string): Promise<number> {
  const row = await db
    .insertInto('chat_sessions')
    .values({
      public_id: session.publicId,
      owner_hash: session.ownerHash,
      user_id: session.userId,
      created_at: now,
      last_at: now,
      visitor_messages: session.visitorMessages,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface NewChatMessage {
  role: 'user' | 'assistant';
  origin: string;
  text: string;
  sources: ChatSource[];
  createdAt: string;
}

/** Stores messages of a session in their order and answers the stored rows. */
export async function insertChatMessages(
  db: Db,
  sessionId: number,
  messages: NewChatMessage[],
): Promise<ChatMessageRow[]> {
  const rows: ChatMessageRow[] = [];
  // One at a time: the ids then follow the conversation's order on every store.
  for (const message of messages) {
    rows.push(
      await db
        .insertInto('chat_messages')
        .values({
          session_id: sessionId,
          role: message.role,
          origin: message.origin,
          text: message.text,
          sources: sourcesJson(message.sources),
          created_at: message.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
  }
  return rows;
}

/** The session with this public id whose owner holds the cookie of this hash, if any. */
export async function findOwnedChatSession(
  db: Db,
  publicId: string,
  ownerHash: string,
): Promise<ChatSessionRow | undefined> {
  return db
    .selectFrom('chat_sessions')
    .selectAll()
    .where('public_id', '=', publicId)
    .where('owner_hash', '=', ownerHash)
    .executeTakeFirst();
}

/** The messages of a session in the conversation's order. */
export async function chatMessagesOf(db: Db, sessionId: number): Promise<ChatMessageRow[]> {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('id')
    .execute();
}

/** Counts one more visitor message unless the session already has `limit`; true when it was counted. */
export async function claimVisitorMessage(db: Db, sessionId: number, limit: number): Promise<boolean> {
  const result = await db
    .updateTable('chat_sessions')
    .set((eb) => ({ visitor_messages: eb('visitor_messages', '+', 1) }))
    .where('id', '=', sessionId)
    .where('visitor_messages', '<', limit)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives back a visitor message claimed for a message that was not answered. */
export async function releaseVisitorMessage(db: Db, sessionId: number): Promise<void> {
  await db
    .updateTable('chat_sessions')
    .set((eb) => ({ visitor_messages: eb('visitor_messages', '-', 1) }))
    .where('id', '=', sessionId)
    .where('visitor_messages', '>', 0)
    .execute();
}

/** Records activity on a session: its last message's time and, when it has none yet, the signed-in account. */
export async function touchChatSession(
  db: Db,
  sessionId: number,
  at: { now: string; userId: number | null },
): Promise<void> {
  await db
    .updateTable('chat_sessions')
    .set((eb) => ({
      last_at: at.now,
      user_id: at.userId === null ? eb.ref('user_id') : eb.fn.coalesce('user_id', eb.val(at.userId)),
    }))
    .where('id', '=', sessionId)
    .execute();
}

/** A session as the administrators' list shows it. */
export interface ChatSummaryRow {
  id: number;
  public_id: string;
  created_at: string;
  last_at: string;
  visitor_messages: number;
  user_email: string | null;
  first_question: string | null;
  unanswered: number;
}

function summaries(db: Db) {
  return db
    .selectFrom('chat_sessions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select((eb) => [
      's.id',
      's.public_id',
      's.created_at',
      's.last_at',
      's.visitor_messages',
      'u.email as user_email',
      eb
        .selectFrom('chat_messages as q')
        .select('q.text')
        .whereRef('q.session_id', '=', 's.id')
        .where('q.role', '=', 'user')
        .orderBy('q.id')
        .limit(1)
        .as('first_question'),
      eb
        .selectFrom('chat_messages as r')
        .select((inner) => inner.fn.countAll<number | string>().as('n'))
        .whereRef('r.session_id', '=', 's.id')
        .where('r.role', '=', 'assistant')
        .where('r.origin', 'in', ['built-in', 'model'])
        .where('r.sources', '=', '[]')
        .as('unanswered'),
    ]);
}

function summaryOf(row: {
  id: number;
  public_id: string;
  created_at: string;
  last_at: string;
  visitor_messages: number;
  user_email: string | null;
  first_question: string | null;
  unanswered: number | string | null;
}): ChatSummaryRow {
  return { ...row, unanswered: Number(row.unanswered ?? 0) };
}

/** Sessions in which the visitor asked something, last active first, one page of them, and how many there are. */
export async function pageOfChatSessions(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ rows: ChatSummaryRow[]; count: number }> {
  const [rows, total] = await Promise.all([
    summaries(db)
      .where('s.visitor_messages', '>', 0)
      .orderBy('s.last_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('chat_sessions')
      .where('visitor_messages', '>', 0)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(summaryOf), count: Number(total.count) };
}

/** One session's summary by its public id (the administrators read any session). */
export async function findChatSummary(db: Db, publicId: string): Promise<ChatSummaryRow | undefined> {
  const row = await summaries(db).where('s.public_id', '=', publicId).executeTakeFirst();
  return row ? summaryOf(row) : undefined;
}
