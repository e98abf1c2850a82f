import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '#server/test/temp-dir.ts';
import { escapeHtml, oneTimeCodeMail } from './code-mail.ts';
import { createMailer, smtpTransportOptions, type Mailer } from './mailer.ts';

interface Received {
  from: string | undefined;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (no TLS), keeping every message it receives. */
async function startSmtpSink(options: { users?: Record<string, string> } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.users?.[auth.username ?? ''] === auth.password)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The headers (names lowercased, folded lines joined) and body of one MIME entity. */
function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? '' : text.slice(end + 2) };
}

/** The decoded body of the first part of `type` in a (possibly multipart) message. */
function partOf(raw: string, type: string): string | null {
  const { headers, body } = splitEntity(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (contentType.toLowerCase().startsWith('multipart/') && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const found = partOf(part.replace(/^\n/, ''), type);
      if (found !== null) return found;
    }
    return null;
  }
  if (!contentType.toLowerCase().startsWith(type)) return null;
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const silentLog = { info: () => {} };
const now = new Date('2026-11-21T13:50:00Z');

describe('the mailer over SMTP', () => {
  let mailer: Mailer | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    await mailer?.close();
    mailer = undefined;
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('delivers a code mail that a person (or a test) can read the code from', async () => {
    const sink = await startSmtpSink();
    cleanups.push(sink.close);
    const logged: object[] = [];
    mailer = createMailer(
      {
        smtpUrl: `smtp://127.0.0.1:${sink.port}`,
        dataDir: '/nonexistent',
        mailFrom: 'DBUI <no-reply@dbui.test>',
      },
      { info: (obj) => logged.push(obj) },
    );
    await mailer.send(
      oneTimeCodeMail({
        to: 'ada@example.com',
        code: '042917',
        purpose: 'sign-in',
        expiresInMinutes: 15,
        appUrl: 'https://dbui.example.com',
        now,
      }),
    );

    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0]!;
    expect(mail.from).toBe('no-reply@dbui.test');
    expect(mail.to).toEqual(['ada@example.com']);
    const { headers } = splitEntity(mail.raw);
    expect(headers.get('subject')).toBe('Your DBUI sign-in code');
    expect(headers.get('from')).toBe('DBUI <no-reply@dbui.test>');
    expect(headers.get('content-type')).toMatch(/^multipart\/alternative/);

    const text = partOf(mail.raw, 'text/plain')!;
    expect(/^\s*(\d{6})\s*$/m.exec(text)?.[1]).toBe('042917');
    expect(text).toContain('This code expires in 15 minutes, at 14:05 UTC.');
    expect(text).toContain('If you did not ask for this, ignore this mail; your password is still safe.');
    expect(partOf(mail.raw, 'text/html')).toContain('>042917</p>');
    expect(logged).toEqual([
      expect.objectContaining({ to: 'ada@example.com', subject: 'Your DBUI sign-in code' }),
    ]);
  });

  it('signs in with the user and password of the URL, percent-decoded', async () => {
    const sink = await startSmtpSink({ users: { 'mailer@dbui.test': 'p@ss:w/rd' } });
    cleanups.push(sink.close);
    mailer = createMailer(
      {
        smtpUrl: `smtp://mailer%40dbui.test:p%40ss%3Aw%2Frd@127.0.0.1:${sink.port}`,
        dataDir: '/nonexistent',
        mailFrom: 'no-reply@dbui.test',
      },
      silentLog,
    );
    await mailer.send({ to: 'bob@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
    expect(sink.received[0]?.user).toBe('mailer@dbui.test');
  });

  it('fails with a clear error within the timeout when the server never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket)); // accepts, then says nothing
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const port = (silent.address() as AddressInfo).port;
    mailer = createMailer(
      {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        dataDir: '/nonexistent',
        mailFrom: 'x@dbui.test',
        timeoutMs: 500,
      },
      silentLog,
    );
    // The server never greets: only the mailer's own timeouts end the call (the message names which).
    await expect(
      mailer.send({ to: 'ada@example.com', subject: 'S', text: 'T', html: '<p>T</p>' }),
    ).rejects.toThrow(
      // Which of nodemailer's timers fires first depends on the machine's load; both say what happened.
      new RegExp(
        `^The mail to ada@example\\.com could not be sent through 127\\.0\\.0\\.1:${port}: (Greeting never received|Connection timeout|Timeout)$`,
      ),
    );
  });

  it('fails with a clear error when nothing listens', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: '/nonexistent', mailFrom: 'x@dbui.test' },
      silentLog,
    );
    await expect(
      mailer.send({ to: 'ada@example.com', subject: 'S', text: 'T', html: '<p>T</p>' }),
    ).rejects.toThrow(/could not be sent through 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
  });
});

describe('the SMTP URL', () => {
  it('chooses TLS as the URL says and bounds every wait', () => {
    expect(smtpTransportOptions('smtps://u:p@mail.example.com')).toMatchObject({
      pool: true,
      host: 'mail.example.com',
      secure: true,
      ignoreTLS: false,
      requireTLS: false,
      auth: { user: 'u', pass: 'p' },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 10_000,
    });
    expect(smtpTransportOptions('smtp://mail.example.com:587?requireTLS=true')).toMatchObject({
      port: 587,
      secure: false,
      requireTLS: true,
    });
    expect(smtpTransportOptions('smtp://[::1]:25?ignoreTLS=true')).toMatchObject({
      host: '::1',
      port: 25,
      ignoreTLS: true,
    });
    expect(smtpTransportOptions('smtp://mail.example.com').auth).toBeUndefined();
  });

  it('refuses what it cannot use, without echoing the password', () => {
    expect(() => smtpTransportOptions('smtp://u:secret@h?tls=off')).toThrow('unknown option "tls"');
    expect(() => smtpTransportOptions('smtp://h?requireTLS=yes')).toThrow('requireTLS must be true or false');
    expect(() => smtpTransportOptions('smtp://h?requireTLS=true&ignoreTLS=true')).toThrow('contradict');
    expect(() => smtpTransportOptions('http://u:secret@h')).toThrow('must start with smtp:// or smtps://');
    expect(() => smtpTransportOptions('smtp://u:secret@h?x=1')).not.toThrow(/secret/);
  });
});

describe('the outbox (no SMTP_URL)', () => {
  it('writes each mail as a complete .eml file only its owner can read, and logs no body', async () => {
    const dir = tempDir();
    try {
      const logged: { obj: object; msg: string }[] = [];
      const mailer = createMailer(
        { smtpUrl: null, dataDir: dir.path, mailFrom: 'DBUI <no-reply@dbui.local>' },
        { info: (obj, msg) => logged.push({ obj, msg }) },
      );
      const message = oneTimeCodeMail({
        to: 'ada@example.com',
        code: '314159',
        purpose: 'reset-password',
        expiresInMinutes: 15,
        appUrl: 'http://127.0.0.1:8080',
        now,
      });
      await mailer.send(message);
      await mailer.send({ ...message, to: 'bob@example.com' });
      await mailer.close();

      const outbox = path.join(dir.path, 'outbox');
      const files = fs.readdirSync(outbox).sort();
      expect(files).toHaveLength(2);
      for (const file of files) {
        expect(file).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{12}\.eml$/);
        expect(fs.statSync(path.join(outbox, file)).mode & 0o777).toBe(0o600);
      }
      const raw = fs.readFileSync(path.join(outbox, files[0]!), 'utf8');
      expect(raw).toContain('\r\n'); // RFC 5322 line ends
      const { headers } = splitEntity(raw);
      expect(headers.get('from')).toBe('DBUI <no-reply@dbui.local>');
      expect(headers.get('subject')).toBe('Your DBUI password reset code');
      expect(headers.get('mime-version')).toBe('1.0');
      expect(headers.get('message-id')).toMatch(/^<.+@.+>$/);
      expect(headers.get('date')).toBeTruthy();
      expect(headers.get('content-type')).toMatch(/^multipart\/alternative; boundary=/);
      expect(['ada@example.com', 'bob@example.com']).toContain(headers.get('to'));
      expect(partOf(raw, 'text/plain')).toContain('Use this code to reset your DBUI password:');
      expect(partOf(raw, 'text/plain')).toMatch(/^\s*314159\s*$/m);
      expect(partOf(raw, 'text/html')).toContain('>314159</p>');

      expect(logged.map((l) => l.msg)).toEqual(['mail written to the outbox', 'mail written to the outbox']);
      expect(JSON.stringify(logged)).not.toContain('314159');
      expect(logged[0]?.obj).toMatchObject({
        to: 'ada@example.com',
        subject: 'Your DBUI password reset code',
      });
    } finally {
      dir.remove();
    }
  });
});

describe('the code mail', () => {
  it('says what the code is for, when it expires, and keeps the code out of the subject', () => {
    const mail = oneTimeCodeMail({
      to: 'ada@example.com',
      code: '123456',
      purpose: 'confirm-email',
      expiresInMinutes: 1,
      appUrl: 'https://dbui.example.com',
      now: new Date('2026-11-21T23:59:30Z'),
    });
    expect(mail.subject).toBe('Confirm your email address for DBUI');
    expect(mail.subject).not.toContain('123456');
    expect(mail.text).toContain('Use this code to confirm your email address for DBUI:');
    expect(mail.text).toContain('This code expires in 1 minute, at 00:00 UTC.');
    expect(mail.html).toContain('<a href="https://dbui.example.com"');
  });

  it('escapes everything it puts into HTML', () => {
    expect(escapeHtml(`<script>alert("x&'y")</script>`)).toBe(
      '&#60;script&#62;alert(&#34;x&#38;&#39;y&#34;)&#60;/script&#62;',
    );
    const mail = oneTimeCodeMail({
      to: 'ada@example.com',
      code: '<b>1</b>',
      purpose: 'sign-in',
      expiresInMinutes: 15,
      appUrl: 'https://x.example/"><script>alert(1)</script>',
      now,
    });
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&#60;b&#62;1&#60;/b&#62;');
    expect(mail.html).toContain('href="https://x.example/&#34;&#62;&#60;script&#62;');

    const notHttp = oneTimeCodeMail({ ...mailInput(), appUrl: 'javascript:alert(1)' });
    expect(notHttp.html).not.toContain('href=');
  });
});

function mailInput() {
  return {
    to: 'ada@example.com',
    code: '123456',
    purpose: 'sign-in' as const,
    expiresInMinutes: 15,
    appUrl: 'https://dbui.example.com',
    now,
  };
}
