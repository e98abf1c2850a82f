import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { freePort } from './free-port.ts';

/** The administrator every journey server starts with (ADMIN_* variables). */
export const journeyAdmin = {
  username: 'admin',
  password: 'Admin#12345',
  email: 'admin@example.com',
} as const;

/** A DBUI server of its own for one spec file, so spec files can run side by side. */
export interface AppServer {
  /** http://localhost:PORT: localhost, not 127.0.0.1, because WebAuthn refuses an IP address as its RP ID. */
  origin: string;
  dataDir: string;
  admin: typeof journeyAdmin;
  /** The real SMTP sink the server sends its mail to. */
  mail: MailSink;
  /** The code of the next text message to `phone` (E.164, +15551234567) in the server's outbox. */
  smsCode(phone: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** The built app to run: $DBUI_DIST (a private copy of dist/ while several people build at once), else dist. */
export const distFolder = process.env.DBUI_DIST ?? 'dist';

/**
 * Starts the built server on a free port with a fresh data folder (in the temp folder, removed at stop), a real SMTP sink, a
 * cheap human check and the journey administrator, and waits until /api/health answers. `env` adds or overrides
 * variables; given as a function, it is called with the server's origin first (for a service that must know the
 * server's address before the server starts, such as an OpenID provider with its redirect URI).
 */
export async function startAppServer(
  name: string,
  env: Record<string, string> | ((origin: string) => Promise<Record<string, string>>) = {},
): Promise<AppServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const extraEnv = typeof env === 'function' ? await env(origin) : env;
  // Outside test-results/: a Playwright run started meanwhile (another person's) empties that folder.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `dbui-e2e-${name}-`));
  const mail = await startMailSink();
  const child: ChildProcess = spawn(process.execPath, [path.resolve(distFolder, 'server', 'main.js')], {
    // In the data folder, so a .env file of the checkout does not reach it.
    cwd: dataDir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CAPTCHA_COST: '10',
      SMTP_URL: mail.url,
      ADMIN_USERNAME: journeyAdmin.username,
      ADMIN_PASSWORD: journeyAdmin.password,
      ADMIN_EMAIL: journeyAdmin.email,
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await mail.close();
      throw new Error(`the server stopped with code ${child.exitCode}`);
    }
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > until) throw new Error('the server did not answer /api/health within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }

  const seenSms = new Set<string>();
  return {
    origin,
    dataDir,
    admin: journeyAdmin,
    mail,
    async smsCode(phone, timeoutMs = 10_000) {
      const outbox = path.join(dataDir, 'outbox');
      const until = Date.now() + timeoutMs;
      for (;;) {
        const files = fs.existsSync(outbox)
          ? fs.readdirSync(outbox).filter((f) => f.endsWith('.sms.txt') && !seenSms.has(f))
          : [];
        for (const file of files.sort()) {
          const text = fs.readFileSync(path.join(outbox, file), 'utf8');
          if (!text.startsWith(`To: ${phone}\n`)) continue;
          seenSms.add(file);
          const code = /code is (\d{6})/.exec(text)?.[1];
          if (code) return code;
        }
        if (Date.now() > until) throw new Error(`no text message to ${phone} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await mail.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
