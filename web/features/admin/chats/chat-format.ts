import type { ChatMessage } from '#common/contract/chat.ts';

/** A message's text: the first content item's value (spec 001 §3). */
export function messageText(message: Pick<ChatMessage, 'content'>): string {
  return message.content[0]?.text.value ?? '';
}

/** A message's time (epoch seconds) as an ISO instant for <time dateTime>. */
export function messageInstant(message: Pick<ChatMessage, 'createdAt'>): string {
  return new Date(message.createdAt * 1000).toISOString();
}

/** A reply where Titan said it did not know: the server's rule for "unanswered" (an answer with no source). */
export function isUnanswered(message: Pick<ChatMessage, 'role' | 'origin' | 'sources'>): boolean {
  return (
    message.role === 'assistant' &&
    (message.origin === 'built-in' || message.origin === 'model') &&
    message.sources.length === 0
  );
}
