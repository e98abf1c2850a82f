import { transportMessages } from '#common/messages.ts';

const transportFallbacks: ReadonlySet<string> = new Set(Object.values(transportMessages));

/** The toast of a failed sign-in call (spec 000 §8): the server's message when it sent one, else the step's own
 * sentence ('Failed to login...', 'Failed to validate OTP.', 'Failed to resend...'); the client's 'POST request
 * failed.' only says the server said nothing. */
export function loginFailure(error: unknown, fallback: string): string {
  const message = error instanceof Error ? error.message.trim() : '';
  return message.length > 0 && !transportFallbacks.has(message) ? message : fallback;
}
