import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { writeToOutbox } from './outbox.ts';

/** One mail as DBUI writes it: always both a plain-text and an HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Delivers mail: through SMTP when SMTP_URL is set, else into `$DATA_DIR/outbox/` as .eml files. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Closes pooled SMTP connections (main.ts calls it on shutdown). */
  close(): Promise<void>;
}

export interface MailerSettings {
  smtpUrl: string | null;
  dataDir: string;
  mailFrom: string;
  /** Longest wait for a connection, the greeting or any answer of the SMTP server (ms); 10 s by default. */
  timeoutMs?: number;
}

export interface MailLog {
  info(obj: object, msg: string): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const URL_OPTIONS = ['ignoreTLS', 'requireTLS'] as const;

/** Builds the mailer SMTP_URL asks for; throws at once on a URL it cannot use, so start-up reports it. */
export function createMailer(settings: MailerSettings, log: MailLog): Mailer {
  return settings.smtpUrl
    ? smtpMailer(settings.smtpUrl, settings, log)
    : outboxMailer(settings.dataDir, settings.mailFrom, log);
}

/**
 * The pooled SMTP transport options for `smtp://user:pass@host:port` (STARTTLS when the server offers it) or
 * `smtps://…` (TLS from the first byte), with `?ignoreTLS=true` (never STARTTLS) or `?requireTLS=true` (refuse to
 * send without STARTTLS). Every wait is bounded, so a dead server fails a request instead of hanging it.
 */
export function smtpTransportOptions(smtpUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): SMTPPool.Options {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error('SMTP_URL is not a valid URL (expected smtp://user:pass@host:port or smtps://…).');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, not ${url.protocol}//.`);
  }
  if (!url.hostname) throw new Error('SMTP_URL has no host.');
  const flags: Partial<Record<(typeof URL_OPTIONS)[number], boolean>> = {};
  for (const [name, value] of url.searchParams) {
    const option = URL_OPTIONS.find((known) => known === name);
    if (!option) {
      throw new Error(`SMTP_URL: unknown option "${name}" (known: ${URL_OPTIONS.join(', ')}).`);
    }
    if (value !== 'true' && value !== 'false') {
      throw new Error(`SMTP_URL: ${name} must be true or false.`);
    }
    flags[option] = value === 'true';
  }
  if (flags.ignoreTLS && flags.requireTLS) {
    throw new Error('SMTP_URL: ignoreTLS and requireTLS contradict each other.');
  }
  const secure = url.protocol === 'smtps:';
  return {
    pool: true,
    maxConnections: 3,
    // The URL keeps IPv6 hosts in brackets; the socket wants them bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    ...(url.port ? { port: Number(url.port) } : {}), // else nodemailer's default: 465 for smtps, 587 for smtp
    secure,
    ignoreTLS: flags.ignoreTLS ?? false,
    requireTLS: flags.requireTLS ?? false,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  };
}

/** Exactly the fields DBUI sets, whatever else the object carries. */
function composed(from: string, message: MailMessage) {
  return { from, to: message.to, subject: message.subject, text: message.text, html: message.html };
}

function smtpMailer(smtpUrl: string, settings: MailerSettings, log: MailLog): Mailer {
  const options = smtpTransportOptions(smtpUrl, settings.timeoutMs);
  // nodemailer is loaded with the first mail, not at every start.
  let transport: Transporter<SMTPPool.SentMessageInfo> | undefined;
  const transportNow = async () =>
    (transport ??= (await import('nodemailer')).default.createTransport(options));
  // Named without the credentials, for error messages.
  const server = `${options.host}${options.port ? `:${options.port}` : ''}`;
  return {
    async send(message) {
      try {
        const info = await (await transportNow()).sendMail(composed(settings.mailFrom, message));
        log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`The mail to ${message.to} could not be sent through ${server}: ${reason}`, {
          cause: error,
        });
      }
    },
    async close() {
      transport?.close();
    },
  };
}

function outboxMailer(dataDir: string, mailFrom: string, log: MailLog): Mailer {
  // nodemailer composes the complete MIME message (headers, text and HTML alternatives) without sending it.
  const composer = async () =>
    (await import('nodemailer')).default.createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'windows',
    });
  return {
    async send(message) {
      const info = await (await composer()).sendMail(composed(mailFrom, message));
      if (!Buffer.isBuffer(info.message))
        throw new Error('nodemailer did not compose the message as a buffer.');
      const file = await writeToOutbox(dataDir, '.eml', info.message);
      // Never the body: it holds codes.
      log.info({ to: message.to, subject: message.subject, file }, 'mail written to the outbox');
    },
    async close() {},
  };
}
