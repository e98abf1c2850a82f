import type { ContactMessage } from '#common/contract/contact.ts';
import { messageTexts as mt } from './message-texts.ts';

// The other admin pages' words for a time ("24 Nov 2026, 15:00").
const shortDateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant in a short local date and time, the text itself when it is not one. */
export function shortInstant(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : shortDateTime.format(instant);
}

/** Who sent a message: "Ada Lovelace <ada@example.com>"-like parts, the name only when there is one. */
export function senderOf(message: Pick<ContactMessage, 'fromName' | 'fromEmail'>): {
  name: string | null;
  email: string;
} {
  const name = message.fromName?.trim();
  return { name: name ? name : null, email: message.fromEmail };
}

/** What became of the mail to the team, in words: its badge and, when it failed, why. */
export function mailStatusOf(message: Pick<ContactMessage, 'mailStatus' | 'mailError'>): {
  label: string;
  color: 'green' | 'red' | 'gray';
  reason: string | null;
} {
  switch (message.mailStatus) {
    case 'sent':
      return { label: mt.mailed, color: 'green', reason: null };
    case 'failed':
      return { label: mt.notMailed, color: 'red', reason: message.mailError };
    case 'not-configured':
      return { label: mt.noMailConfigured, color: 'gray', reason: null };
  }
}
