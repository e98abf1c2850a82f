import { SMTPServer } from 'smtp-server';

/** One mail as the sink received it. */
export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (any port) that keeps every mail, for tests that read codes from mail. */
export interface MailSink {
  /** SMTP_URL for the app under test. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` not returned before (waits for it). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The six-digit code of the next mail to `to`. */
  nextCode(to: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** The code line of a code mail (four spaces and six digits, see server/mail/code-mail.ts). */
export function codeOfMail(raw: string): string {
  const match = /^ {4}(\d{6})\s*$/m.exec(raw);
  if (!match?.[1]) throw new Error(`no code in the mail:\n${raw.slice(0, 500)}`);
  return match[1];
}

/** Starts the sink; STARTTLS is off on both sides (SMTP_URL carries ignoreTLS=true). */
export async function startMailSink(): Promise<MailSink> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  async function next(to: string, timeoutMs = 5000): Promise<ReceivedMail> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const mail = received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
      if (mail) {
        taken.add(mail);
        return mail;
      }
      if (Date.now() > until) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    next,
    async nextCode(to, timeoutMs) {
      return codeOfMail((await next(to, timeoutMs)).raw);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
