import { transportMessages } from '#common/messages.ts';

const genericTexts: ReadonlySet<string> = new Set(Object.values(transportMessages));

/**
 * The toast of a failed account call (spec 001 §8): the server's message when it sent one, else the screen's own
 * sentence. The API client falls back to 'GET/POST request failed.' when the server said nothing; those are not a
 * server's message, so the screen's sentence replaces them.
 */
export function failureMessage(error: unknown, fallback: string): string {
  const message = error instanceof Error ? error.message.trim() : '';
  return message.length > 0 && !genericTexts.has(message) ? message : fallback;
}
