import type { Selectable } from 'kysely';
import {
  contactMessages as cm,
  type ContactInput,
  type ContactMessage,
  type ContactResult,
  type MailStatus,
  type PagedContactMessages,
} from '#common/contract/contact.ts';
import { accountApiMessages } from '#common/messages.ts';
import type { Config } from '#server/config.ts';
import type { MailMessage, Mailer } from '#server/mail/mailer.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import type { ContactMessagesTable } from '#server/store/schema.ts';

/*
 * The contact form and the administrators' inbox (issue 15). A message is stored first, then mailed to CONTACT_TO
 * through the app's mailer when mail is configured (CONTACT_TO and SMTP_URL: the outbox folder reaches nobody); a
 * failed mail never loses it, and the answer says which happened. Answers go back to the sender the same way and are
 * stored even when the mail fails. The mail driver's own text goes to the log only; the stored reason is ours.
 */

export interface ContactDeps {
  store: AppStore;
  mailer: Mailer;
  config: Pick<Config, 'contactTo' | 'smtpUrl' | 'publicUrl'>;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
}

/** Who does something, and from where (the audit's address, as every other audited action). */
export interface Actor {
  userId: number;
  address: string;
}

type Row = Selectable<ContactMessagesTable>;

function viewOf(row: Row): ContactMessage {
  return {
    id: row.id,
    fromEmail: row.from_email,
    fromName: row.from_name,
    subject: row.subject,
    message: row.message,
    createdAt: row.created_at,
    mailStatus: row.mail_status as MailStatus,
    mailError: row.mail_error,
    answer: row.answer,
    answeredAt: row.answered_at,
    archivedAt: row.archived_at,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const paragraphs = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => escapeHtml(line))
    .join('<br>\n');

/** Our reason for a failed mail, from the error nodemailer attached (its code), never its text. */
export function mailReasonOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  const code = typeof cause === 'object' && cause && 'code' in cause ? String(cause.code) : '';
  if (code === 'EAUTH') return cm.mailReason.signIn;
  if (['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ETLS', 'EGREETING'].includes(code))
    return cm.mailReason.unreachable;
  return cm.mailReason.refused;
}

function contactMail(
  to: string,
  from: { email: string; name: string | null },
  input: ContactInput,
  appUrl: string,
) {
  const sender = from.name ? `${from.name} <${from.email}>` : from.email;
  const text = [
    `A message from the contact form of ${appUrl}:`,
    '',
    `From: ${sender}`,
    `Subject: ${input.subject}`,
    '',
    input.message,
    '',
    '-- ',
    `Answer it from the Messages page of the administration (${appUrl}/admin/messages) or write to ${from.email}.`,
  ].join('\n');
  const html = [
    `<p>A message from the contact form of ${escapeHtml(appUrl)}:</p>`,
    `<p><strong>From:</strong> ${escapeHtml(sender)}<br>\n<strong>Subject:</strong> ${escapeHtml(input.subject)}</p>`,
    `<p>${paragraphs(input.message)}</p>`,
    `<p>Answer it from the Messages page of the administration or write to ${escapeHtml(from.email)}.</p>`,
  ].join('\n');
  return { to, subject: `Contact: ${input.subject}`, text, html } satisfies MailMessage;
}

function answerMail(row: Row, answer: string, appUrl: string): MailMessage {
  const quoted = row.message
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
  const text = [
    answer,
    '',
    `On ${row.created_at.slice(0, 10)} you wrote:`,
    quoted,
    '',
    '-- ',
    'DBUI',
    appUrl,
  ].join('\n');
  const html = [
    `<p>${paragraphs(answer)}</p>`,
    `<p>On ${escapeHtml(row.created_at.slice(0, 10))} you wrote:</p>`,
    `<blockquote>${paragraphs(row.message)}</blockquote>`,
    `<p>-- <br>DBUI<br>${escapeHtml(appUrl)}</p>`,
  ].join('\n');
  return { to: row.from_email, subject: `Re: ${row.subject}`, text, html };
}

/** POST /api/contact: stores the message from the signed-in account, then mails it to the team when it can. */
export async function sendContact(
  deps: ContactDeps,
  actor: Actor,
  input: ContactInput,
): Promise<{ result: ContactResult; message: string }> {
  const { store, config } = deps;
  const user = await store.db
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name'])
    .where('id', '=', actor.userId)
    .executeTakeFirst();
  if (!user) throw new ApiError(401, accountApiMessages.signInRequired);
  const name = [user.first_name, user.last_name].filter((part) => part?.trim()).join(' ') || null;
  const to = config.contactTo && config.smtpUrl ? config.contactTo : null;

  const inserted = await store.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('contact_messages')
      .values({
        user_id: actor.userId,
        from_email: user.email,
        from_name: name,
        subject: input.subject,
        message: input.message,
        created_at: deps.now().toISOString(),
        mail_status: to ? 'failed' : 'not-configured',
        mail_error: to ? cm.mailReason.pending : cm.mailReason.notConfigured,
        answer: null,
        answered_at: null,
        answered_by: null,
        archived_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'contact.sent',
      target: `contact:${row.id}`,
      detail: { subject: input.subject },
      address: actor.address,
    });
    return row;
  });

  let delivered = false;
  if (to) {
    let status: { mail_status: MailStatus; mail_error: string | null };
    try {
      await deps.mailer.send(contactMail(to, { email: user.email, name }, input, config.publicUrl));
      status = { mail_status: 'sent', mail_error: null };
      delivered = true;
    } catch (error) {
      deps.log.warn({ err: error, contactMessage: inserted.id }, 'contact message stored but not mailed');
      status = { mail_status: 'failed', mail_error: mailReasonOf(error) };
    }
    await store.db.updateTable('contact_messages').set(status).where('id', '=', inserted.id).execute();
  }
  return { result: { id: inserted.id, delivered }, message: delivered ? cm.sent : cm.storedNotMailed };
}

/** GET /api/admin/messages: the inbox (or the archive), newest first. */
export async function pageOfMessages(
  store: AppStore,
  query: { page: number; pageSize: number; archived: boolean },
): Promise<PagedContactMessages> {
  const filtered = store.db
    .selectFrom('contact_messages')
    .where('archived_at', query.archived ? 'is not' : 'is', null);
  const [rows, total] = await Promise.all([
    filtered
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { results: rows.map(viewOf), count: Number(total.count) };
}

async function findMessage(store: AppStore, id: number): Promise<Row> {
  const row = await store.db
    .selectFrom('contact_messages')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, cm.notFound);
  return row;
}

/** POST /api/admin/messages/:id/answer: stores the answer, then mails it to the sender. */
export async function answerMessage(
  deps: ContactDeps,
  actor: Actor,
  id: number,
  answer: string,
): Promise<{ result: ContactMessage; message: string }> {
  const { store } = deps;
  const row = await findMessage(store, id);
  if (!deps.config.smtpUrl) throw new ApiError(409, cm.noMailConfigured);
  await store.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('contact_messages')
      .set({ answer, answered_at: deps.now().toISOString(), answered_by: actor.userId })
      .where('id', '=', id)
      .execute();
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'contact.answered',
      target: `contact:${id}`,
      address: actor.address,
    });
  });
  let mailed = true;
  try {
    await deps.mailer.send(answerMail(row, answer, deps.config.publicUrl));
  } catch (error) {
    mailed = false;
    deps.log.warn({ err: error, contactMessage: id }, 'contact answer stored but not mailed');
  }
  return {
    result: viewOf(await findMessage(store, id)),
    message: mailed ? cm.answerSent : cm.answerStoredNotMailed,
  };
}

/** POST /api/admin/messages/:id/archive: moves a message to the archive or back to the inbox. */
export async function archiveMessage(
  deps: ContactDeps,
  actor: Actor,
  id: number,
  archived: boolean,
): Promise<{ result: ContactMessage; message: string }> {
  const { store } = deps;
  const row = await findMessage(store, id);
  await store.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('contact_messages')
      .set({ archived_at: archived ? (row.archived_at ?? deps.now().toISOString()) : null })
      .where('id', '=', id)
      .execute();
    await writeAudit(trx, {
      userId: actor.userId,
      action: archived ? 'contact.archived' : 'contact.unarchived',
      target: `contact:${id}`,
      address: actor.address,
    });
  });
  return { result: viewOf(await findMessage(store, id)), message: archived ? cm.archived : cm.unarchived };
}
