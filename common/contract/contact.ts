import { z } from 'zod';
import { formMessages, siteMessages } from '#common/messages.ts';
import { ADMIN_PAGE_SIZE } from '#common/limits.ts';

/*
 * The contact form and the administrators' message inbox (issue 15, spec 001 §3 and §5). The sender is the signed-in
 * account (the server reads it; the body never names it). Every message is stored first, then mailed to the team
 * when CONTACT_TO is configured; the answers say honestly which of the two happened.
 */

export const CONTACT_SUBJECT_MAX = 50;
export const CONTACT_MESSAGE_MAX = 1000;
export const CONTACT_ANSWER_MAX = 5000;

/** The API's sentences: each says what happened and, when something did not, what follows. */
export const contactMessages = {
  sent: 'Thank you: your message was sent to our team. We will answer by e-mail.',
  storedNotMailed:
    'Thank you: your message is saved and our team will read it here, but it could not be mailed to them just now. We will answer by e-mail.',
  answerSent: 'The answer was mailed to the sender and saved with the message.',
  answerStoredNotMailed:
    'The answer is saved with the message, but it could not be mailed to the sender. Try again later or write to them directly.',
  noMailConfigured:
    'No mail server is configured (SMTP_URL), so the answer cannot be mailed. Write to the sender directly.',
  notFound: 'That message was not found.',
  archived: 'The message is archived.',
  unarchived: 'The message is back in the inbox.',
  /** Why a mail was not delivered (mail_error): our words, never the mail driver's text. */
  mailReason: {
    notConfigured: 'No CONTACT_TO or SMTP_URL is configured, so the message was only stored.',
    pending: 'The server stopped before the mail was sent.',
    unreachable: 'The mail server could not be reached.',
    signIn: "The mail server refused DBUI's sign-in (check the user and password in SMTP_URL).",
    refused: 'The mail server refused the mail.',
  },
} as const;

export const contactSubject = z
  .string({ error: formMessages.required('Subject') })
  .trim()
  .min(1, formMessages.required('Subject'))
  .max(CONTACT_SUBJECT_MAX, siteMessages.subjectMax);

export const contactMessageText = z
  .string({ error: formMessages.required('Message') })
  .trim()
  .min(1, formMessages.required('Message'))
  .max(CONTACT_MESSAGE_MAX, siteMessages.messageMax);

/** POST /api/contact: From is the signed-in account, never part of the body. */
export const contactInput = z.object({ subject: contactSubject, message: contactMessageText });
export type ContactInput = z.infer<typeof contactInput>;

/** POST /api/contact's data; the envelope's message says whether it was mailed or stored for the team. */
export const contactResult = z.object({
  id: z.number().int(),
  delivered: z.boolean().describe('true when the message was mailed to the team; false when only stored'),
});
export type ContactResult = z.infer<typeof contactResult>;

export const mailStatus = z.enum(['not-configured', 'sent', 'failed']);
export type MailStatus = z.infer<typeof mailStatus>;

/** A stored message as the administrators' inbox shows it. */
export const contactMessage = z.object({
  id: z.number().int(),
  fromEmail: z.string(),
  fromName: z.string().nullable(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
  mailStatus: mailStatus.describe(
    "'not-configured' (no CONTACT_TO), 'sent' or 'failed' (mailError says why)",
  ),
  mailError: z.string().nullable(),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
});
export type ContactMessage = z.infer<typeof contactMessage>;

const page = z.coerce.number().int().min(1, 'page must be a whole number from 1.').default(1);
const pageSize = z.coerce
  .number()
  .int()
  .min(1)
  .max(100, 'pageSize can be at most 100.')
  .default(ADMIN_PAGE_SIZE);

/** GET /api/admin/messages: newest first; archived=true lists the archived ones instead of the inbox. */
export const contactMessagesQuery = z.object({
  page,
  pageSize,
  archived: z
    .enum(['true', 'false'], { error: 'archived must be true or false.' })
    .default('false')
    .transform((value) => value === 'true'),
});
export type ContactMessagesQuery = z.input<typeof contactMessagesQuery>;

export const pagedContactMessages = z.object({ results: z.array(contactMessage), count: z.number().int() });
export type PagedContactMessages = z.infer<typeof pagedContactMessages>;

/** POST /api/admin/messages/:id/answer. */
export const answerInput = z.object({
  answer: z
    .string({ error: formMessages.required('Answer') })
    .trim()
    .min(1, formMessages.required('Answer'))
    .max(CONTACT_ANSWER_MAX, formMessages.tooLong('Answer', CONTACT_ANSWER_MAX)),
});
export type AnswerInput = z.infer<typeof answerInput>;

/** POST /api/admin/messages/:id/archive. */
export const archiveInput = z.object({
  archived: z.boolean({ error: 'archived must be true or false.' }),
});
export type ArchiveInput = z.infer<typeof archiveInput>;

export const messageIdParams = z.object({
  id: z.coerce.number().int().min(1, 'id must be a message Id.'),
});
